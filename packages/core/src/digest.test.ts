import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { digestBytes, digestText } from './digest.js'

describe('digest', () => {
  it('equals createHash for strings (as UTF-8) and buffers', () => {
    for (const data of ['', 'Ada Lovelace', 'Zoë Ł 名前', Buffer.from([0, 1, 2, 255])]) {
      for (const algorithm of ['sha1', 'sha256'] as const) {
        const want = createHash(algorithm).update(data).digest()
        expect(digestBytes(algorithm, data).equals(want)).toBe(true)
        expect(digestText(algorithm, data, 'hex')).toBe(want.toString('hex'))
        expect(digestText(algorithm, data, 'base64')).toBe(want.toString('base64'))
      }
    }
  })
})
