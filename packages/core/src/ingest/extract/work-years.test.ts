import { describe, expect, it } from 'vitest'
import { workYears } from './work-years.js'

/** The years `sentence` dates its names by, each named mention given as [label, name]. */
const yearsOf = (sentence: string, named: [label: string, name: string][]) => {
  const mentions = named.map(([label, name]) => {
    const start = sentence.indexOf(name)
    return { label, start, end: start + name.length }
  })
  return workYears(sentence, mentions).map(([i, year]) => `${named[i]![1]} ${year}`)
}

describe('workYears', () => {
  it('reads the year in parentheses after a title, alone or after another name', () => {
    expect(
      yearsOf('the war film Two Fighters (Dva boitsa, 1943) and "Dark Night" (1944).', [
        ['CONCEPT', 'Two Fighters'],
        ['CONCEPT', 'Dark Night'],
      ]),
    ).toEqual(['Two Fighters 1943', 'Dark Night 1944'])
  })

  it('reads the year before the kind after a possessor or an article, or "1987\'s"', () => {
    const sentence =
      'her 2004 debut album Where, the 1979 live recording of "Mother", Aguilera\'s 2002 single ' +
      '"Beautiful" and 1987\'s Let It Loose'
    expect(
      yearsOf(sentence, [
        ['CONCEPT', 'Where'],
        ['CONCEPT', 'Mother'],
        ['CONCEPT', 'Beautiful'],
        ['CONCEPT', 'Let It Loose'],
      ]),
    ).toEqual(['Where 2004', 'Mother 1979', 'Beautiful 2002', 'Let It Loose 1987'])
  })

  it('dates no person, place or date, and no name after a year that only opens a clause', () => {
    expect(
      yearsOf(
        "Juan Lavalle (1797) met in Paris (1820). In 1986 Arkanoid sold. In the 1990's Nirvana",
        [
          ['PERSON', 'Juan Lavalle'],
          ['PLACE', 'Paris'],
          ['CONCEPT', 'Arkanoid'],
          ['ORGANIZATION', 'Nirvana'],
        ],
      ),
    ).toEqual([])
  })
})
