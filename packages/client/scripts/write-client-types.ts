import { readFileSync, writeFileSync } from 'node:fs'
import { CLIENT_TYPES_FILE, clientTypes, OPENAPI_FILE } from './client-types.js'

/** `npm run openapi` (after the document): regenerates src/generated/engram-api.ts. */
writeFileSync(CLIENT_TYPES_FILE, await clientTypes(readFileSync(OPENAPI_FILE, 'utf8')))
console.log(`wrote ${CLIENT_TYPES_FILE}`)
