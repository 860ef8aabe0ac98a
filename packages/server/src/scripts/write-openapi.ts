import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { generateOpenApi } from '../openapi-document.js'

/** `npm run openapi`: regenerates packages/server/openapi/openapi.json (committed and drift-tested). */
const target = fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url))
mkdirSync(fileURLToPath(new URL('../../openapi/', import.meta.url)), { recursive: true })
writeFileSync(target, await generateOpenApi())
console.log(`wrote ${target}`)
