import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isUuid, stableId, uuidV5 } from './ids.js'

describe('uuidV5', () => {
  it('matches the RFC 9562 example for the DNS namespace', () => {
    // RFC 9562 appendix A.4: v5 of "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    )
  })

  it('hashes names of any length and script as SHA-1 of namespace + UTF-8 name', () => {
    const reference = (name: string) => {
      const ns = Buffer.from('6f1c5a527b0e4d8b9a551f0d2c9e8b31', 'hex')
      const hex = createHash('sha1').update(ns).update(name, 'utf8').digest('hex')
      return hex.slice(0, 32)
    }
    // Longer than the reused input buffer (1 KiB), multi-byte characters, then short again.
    for (const name of ['Ada', 'Ł'.repeat(700) + 'x'.repeat(3000), 'Zoë', '']) {
      const hex = uuidV5(name).replace(/-/g, '')
      const want = reference(name)
      // Equal but for the version and variant bits.
      expect(hex.slice(0, 12) + hex.slice(13, 16) + hex.slice(17)).toBe(
        want.slice(0, 12) + want.slice(13, 16) + want.slice(17),
      )
      expect(hex[12]).toBe('5')
    }
  })

  it('is deterministic and distinguishes part boundaries', () => {
    expect(stableId('a', 'bc')).toBe(stableId('a', 'bc'))
    expect(stableId('a', 'bc')).not.toBe(stableId('ab', 'c'))
    expect(isUuid(stableId('x'))).toBe(true)
  })
})
