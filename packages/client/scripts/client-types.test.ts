import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CLIENT_TYPES_FILE, clientTypes, OPENAPI_FILE } from './client-types.js'

describe('the generated client types', () => {
  it('match the committed openapi.json (run `npm run openapi` after changing routes)', async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(
      await clientTypes(readFileSync(OPENAPI_FILE, 'utf8')),
    )
  })
})
