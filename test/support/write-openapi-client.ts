import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CLIENT_TYPES_FILE, clientTypes } from './openapi-client-types.js'

/** `npm run openapi` (after the document): regenerates the client types of test/generated/. */
const document = fileURLToPath(
  new URL('../../packages/server/openapi/openapi.json', import.meta.url),
)
writeFileSync(CLIENT_TYPES_FILE, await clientTypes(readFileSync(document, 'utf8')))
console.log(`wrote ${CLIENT_TYPES_FILE}`)
