import { describe, expect, it } from 'vitest'
import { statedTime } from './stated-time.js'

const ref = new Date('2025-03-15T12:00:00Z')
const at = (s: string, parsed: string | null = null) => statedTime(s, ref, parsed)

describe('statedTime', () => {
  it('reads the start of a span from a year, a month and year, or since', () => {
    expect(at('In 2020, Alice lived in Paris.').validAt).toBe('2020-01-01T00:00:00.000Z')
    expect(at('Alice moved to Berlin in 2023.').validAt).toBe('2023-01-01T00:00:00.000Z')
    expect(at('Since May 2019 Erin heads Umbrella.').validAt).toBe('2019-05-01T00:00:00.000Z')
    expect(at('Bob joined Initech (2021).').validAt).toBe('2021-01-01T00:00:00.000Z')
  })

  it('reads an end from until or a from-to span', () => {
    const s = at('Alice lived in Paris from 2019 to 2021.')
    expect(s.validAt).toBe('2019-01-01T00:00:00.000Z')
    expect(s.invalidAt).toBe('2021-01-01T00:00:00.000Z')
    expect(at('Bob worked at Acme until March 2024.').invalidAt).toBe('2024-03-01T00:00:00.000Z')
  })

  it('resolves relative expressions against the reference time', () => {
    expect(at('Alice relocated to Madrid last May.').validAt).toBe('2024-05-01T00:00:00.000Z')
    expect(at('Last year Bob joined Globex.').validAt).toBe('2024-01-01T00:00:00.000Z')
    expect(at('Two years ago Carol married Dave.').validAt).toBe('2023-03-01T00:00:00.000Z')
    // "in <month>" is the past one unless the sentence is about the future, or the extractor's date,
    // which read the verb's tense, is in that month: then that month's year (a plan, in March).
    expect(at('Alice moved to Madrid in May.').validAt).toBe('2024-05-01T00:00:00.000Z')
    const plan = at('Her daughter starts school in September.', '2025-09-01')
    expect(plan.validAt).toBe('2025-09-01T00:00:00.000Z')
    expect(plan.future).toBe(true)
  })

  it('marks plans and predictions as future', () => {
    expect(at('Alice will move to Berlin next year.')).toEqual({
      validAt: '2026-01-01T00:00:00.000Z',
      invalidAt: null,
      future: true,
    })
    expect(at('Bob is going to join Initech.').future).toBe(true)
    expect(at("She'll live in Rome.").future).toBe(true)
    expect(at('Bob joins Initech in 2031.').future).toBe(true)
    expect(at('Alice lives in Paris.').future).toBe(false)
  })

  it('falls back to the date the extractor read, else null', () => {
    expect(at('Alice visited Rome yesterday.', '2025-03-14').validAt).toBe(
      '2025-03-14T00:00:00.000Z',
    )
    expect(at('Alice lives in Paris.')).toEqual({ validAt: null, invalidAt: null, future: false })
  })
})
