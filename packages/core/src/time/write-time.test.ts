import { describe, expect, it } from 'vitest'
import { writeClock } from './write-time.js'

describe('writeClock', () => {
  it('is strictly increasing, even within one millisecond or when the wall clock steps back', () => {
    const clock = writeClock()
    const at = Date.parse('2030-01-01T00:00:00.000Z')
    const times = [clock(at), clock(at), clock(at), clock(at - 5_000)]
    expect(times).toEqual([
      '2030-01-01T00:00:00.000Z',
      '2030-01-01T00:00:00.001Z',
      '2030-01-01T00:00:00.002Z',
      '2030-01-01T00:00:00.003Z',
    ])
    // The wall clock again once it is ahead.
    expect(clock(at + 60_000)).toBe('2030-01-01T00:01:00.000Z')
  })
})
