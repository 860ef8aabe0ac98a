import * as chrono from 'chrono-node'
import { describe, expect, it } from 'vitest'
import { placeInTense, tenseAt, type TensedTerm } from './tensed-dates.js'

/** Wednesday 1 March 2023, the time of writing. */
const reference = new Date('2023-03-01T10:00:00Z')
const placed = (text: string, tense: 'past' | 'future' | null) => {
  const [date] = chrono.parse(text, reference)
  placeInTense(date!, tense)
  return date!.start.date().toISOString().slice(0, 10)
}

/** Terms of `words` ("word/Tag|Tag"), one offset per word. */
const terms = (...words: string[]): TensedTerm[] =>
  words.map((w, i) => {
    const [text, tags = ''] = w.split('/')
    return { text: text!, tags: tags.split('|').filter(Boolean), offset: { start: i * 10 } }
  })

describe('placeInTense', () => {
  it('puts a month or a day of a month without its year on the side of its tense', () => {
    expect(placed('in May', null)).toBe('2023-05-01')
    expect(placed('in May', 'past')).toBe('2022-05-01')
    expect(placed('in September', 'past')).toBe('2022-09-01')
    expect(placed('in September', 'future')).toBe('2023-09-01')
    expect(placed('on June 3', 'past')).toBe('2022-06-03')
    expect(placed('on 14 February', 'future')).toBe('2024-02-14')
    // This month is this month either way.
    expect(placed('in March', 'future')).toBe('2023-03-01')
  })

  it('puts a weekday alone in the week before or after', () => {
    expect(placed('on Friday', 'past')).toBe('2023-02-24')
    expect(placed('on Friday', 'future')).toBe('2023-03-03')
    expect(placed('on Monday', 'future')).toBe('2023-03-06')
    expect(placed('on Monday', 'past')).toBe('2023-02-27')
  })

  it('leaves a date that says its side or its year', () => {
    expect(placed('next Monday', 'past')).toBe(placed('next Monday', null))
    expect(placed('last Friday', 'future')).toBe('2023-02-24')
    expect(placed('in May 2024', 'past')).toBe('2024-05-01')
  })
})

describe('tenseAt', () => {
  it('reads the tense of the verb group before the date, else after it', () => {
    // "I saw him on Friday", "I'll see him on Monday", "On Friday we went hiking".
    expect(
      tenseAt(terms('I/Pronoun', 'saw/Verb|PastTense', 'him/Pronoun', 'on', 'Friday/Date'), 40),
    ).toBe('past')
    const will = terms(
      'I/Pronoun',
      'will/Verb|Modal|Auxiliary',
      'see/Verb|Infinitive',
      'on',
      'Monday/Date',
    )
    expect(tenseAt(will, 40)).toBe('future')
    expect(tenseAt(terms('On', 'Friday/Date', 'we/Pronoun', 'went/Verb|PastTense'), 10)).toBe(
      'past',
    )
    // "got married": an auxiliary with no tense takes its participle's.
    expect(
      tenseAt(terms('We', 'got/Verb|Auxiliary', 'married/Verb|PastTense', 'on', 'June'), 40),
    ).toBe('past')
    // "have met" is past; "have a meeting" present, so the next one.
    expect(tenseAt(terms('We', 'have/Verb|Auxiliary', 'met/Verb|PastTense', 'in', 'May'), 40)).toBe(
      'past',
    )
    expect(tenseAt(terms('I', 'have/Verb', 'a', 'meeting/Noun', 'on', 'Monday'), 50)).toBe('future')
    expect(tenseAt(terms('She', 'starts/Verb|PresentTense', 'school', 'in', 'May'), 40)).toBe(
      'future',
    )
  })

  it('says nothing for a modal or a sentence with no verb', () => {
    expect(
      tenseAt(terms('I', 'could/Verb|Modal|Auxiliary', 'see/Verb', 'on', 'Monday'), 40),
    ).toBeNull()
    expect(tenseAt(terms('Lunch/Noun', 'on', 'Friday/Date'), 20)).toBeNull()
  })
})
