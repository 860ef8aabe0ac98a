import { describe, expect, it } from 'vitest'
import { EngramError } from '../errors.js'
import { MAX_TTL_SECONDS, resolveExpiry, withExpiry } from './source-expiry.js'

const NOW = Date.parse('2026-01-01T00:00:00.000Z')

/** The error `resolveExpiry` throws for `input`, or null when it returns. */
function failure(input: Parameters<typeof resolveExpiry>[0]): EngramError | null {
  try {
    resolveExpiry(input, undefined, NOW)
    return null
  } catch (error) {
    return error as EngramError
  }
}

describe('resolveExpiry', () => {
  it('returns nothing without either field, now + ttl for a ttl, the normalised instant for a date', () => {
    expect(resolveExpiry({}, undefined, NOW)).toBeUndefined()
    expect(resolveExpiry({ expiresAt: null, ttl: null }, undefined, NOW)).toBeUndefined()
    expect(resolveExpiry({ ttl: 90 }, undefined, NOW)).toBe('2026-01-01T00:01:30.000Z')
    expect(resolveExpiry({ expiresAt: '2030-06-01T12:00:00+02:00' }, undefined, NOW)).toBe(
      '2030-06-01T10:00:00.000Z',
    )
    // A past instant is accepted: the source expires at the next sweep.
    expect(resolveExpiry({ expiresAt: '2001-01-01T00:00:00Z' }, undefined, NOW)).toBe(
      '2001-01-01T00:00:00.000Z',
    )
    // 100 Julian years: a day past the calendar's 100 years from 2026 (24 leap days, not 25).
    expect(resolveExpiry({ ttl: MAX_TTL_SECONDS }, undefined, NOW)).toBe('2126-01-02T00:00:00.000Z')
  })

  it('answers 400 naming both fields when both are given', () => {
    const error = failure({ expiresAt: '2030-01-01T00:00:00Z', ttl: 60 })
    expect(error).toBeInstanceOf(EngramError)
    expect(error!.code).toBe('VALIDATION_ERROR')
    expect(error!.status).toBe(400)
    expect((error!.detail as { loc: string[] }[]).map((d) => d.loc)).toEqual([
      ['body', 'expires_at'],
      ['body', 'ttl'],
    ])
  })

  it('answers 422 naming the field for a bad ttl or date-time', () => {
    for (const ttl of [0, -5, 1.5, MAX_TTL_SECONDS + 1, Number.NaN]) {
      const error = failure({ ttl })
      expect(error?.status, String(ttl)).toBe(422)
      expect((error!.detail as { loc: string[] }[])[0]!.loc).toEqual(['body', 'ttl'])
    }
    for (const expiresAt of [
      'tomorrow',
      '2030-01-01',
      '2030-01-01T00:00:00',
      '2030-02-30T00:00:00Z',
      '9999-12-31T23:00:00-02:00',
    ]) {
      const error = failure({ expiresAt })
      expect(error?.status, expiresAt).toBe(422)
      expect((error!.detail as { loc: string[] }[])[0]!.loc).toEqual(['body', 'expires_at'])
    }
  })

  it('names the caller’s fields', () => {
    const fields = { expiresAt: ['options', 'expiresAt'], ttl: ['options', 'ttl'] }
    try {
      resolveExpiry({ ttl: 0 }, fields, NOW)
      expect.unreachable()
    } catch (error) {
      expect((error as EngramError).detail).toEqual([
        { loc: ['options', 'ttl'], msg: expect.any(String), type: 'value_error' },
      ])
    }
  })

  it('adds the expiry to a payload only when there is one', () => {
    expect(withExpiry({ a: 1 }, undefined)).toEqual({ a: 1 })
    expect(withExpiry({ a: 1 }, '2030-01-01T00:00:00.000Z')).toEqual({
      a: 1,
      expiresAt: '2030-01-01T00:00:00.000Z',
    })
  })
})
