import { describe, expect, it } from 'vitest'
import { isUuid, stableId, uuidV5 } from './ids.js'

describe('uuidV5', () => {
  it('matches the RFC 9562 example for the DNS namespace', () => {
    // RFC 9562 appendix A.4: v5 of "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    )
  })

  it('is deterministic and distinguishes part boundaries', () => {
    expect(stableId('a', 'bc')).toBe(stableId('a', 'bc'))
    expect(stableId('a', 'bc')).not.toBe(stableId('ab', 'c'))
    expect(isUuid(stableId('x'))).toBe(true)
  })
})
