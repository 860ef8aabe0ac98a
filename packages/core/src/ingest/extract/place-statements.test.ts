import { describe, expect, it } from 'vitest'
import {
  placeCanBeSubject,
  placeChain,
  placeStatements,
  statedHierarchy,
  divisionsOf,
  type ClauseMention,
} from './place-statements.js'

/** Mentions of `names` (each found at its first occurrence after the previous one) in `sentence`. */
function mentionsOf(sentence: string, names: [string, string][]): ClauseMention[] {
  let from = 0
  return names.map(([name, label]) => {
    const start = sentence.indexOf(name, from)
    from = start + name.length
    return { name, label, start, end: from }
  })
}

describe('placeCanBeSubject', () => {
  it('rejects a place behind a preposition and accepts one heading the clause', () => {
    expect(placeCanBeSubject('In ')).toBe(false)
    expect(placeCanBeSubject('He was born in the ')).toBe(false)
    expect(placeCanBeSubject('')).toBe(true)
    expect(placeCanBeSubject("Cumbria's county town, ")).toBe(true)
  })
})

describe('placeStatements', () => {
  it('reads a place after a compass word behind a locative as where the place lies', () => {
    const sentence =
      'The Foix is a river in Catalonia, northeastern Spain, near the coast of central Italy.'
    const mentions = mentionsOf(sentence, [
      ['Foix', 'PLACE'],
      ['river', 'CONCEPT'],
      ['Catalonia', 'PLACE'],
      ['Spain', 'PLACE'],
      ['Italy', 'PLACE'],
    ])
    const verbEnd = sentence.indexOf(' a ')
    expect(placeStatements(sentence, mentions, 0, verbEnd, (m) => m.label !== 'CONCEPT')).toEqual([
      { object: 2, located: true },
      { object: 3, located: true },
      { object: 4, located: true },
    ])
  })

  it('reads the places a place lies in and the object of its verb', () => {
    const sentence =
      'Foots Creek is a community of the Rogue Valley in Jackson County, in the state of Oregon.'
    const mentions = mentionsOf(sentence, [
      ['Foots Creek', 'PLACE'],
      ['community', 'CONCEPT'],
      ['Rogue Valley', 'CONCEPT'],
      ['Jackson County', 'PLACE'],
      ['state', 'CONCEPT'],
      ['Oregon', 'PLACE'],
    ])
    const named = (m: ClauseMention) => m.label !== 'CONCEPT' || /^\p{Lu}/u.test(m.name)
    const verbEnd = sentence.indexOf(' a ')
    expect(placeStatements(sentence, mentions, 0, verbEnd, named)).toEqual([
      { object: 2, located: false },
      { object: 3, located: true },
      { object: 5, located: true },
    ])
  })

  it('puts the place in no place of its rank or lower, nor in a nationality', () => {
    const sentence =
      'Gujranwala is a city in Punjab, Pakistan, located north of Lahore, with many people of Scottish descent.'
    const mentions = mentionsOf(sentence, [
      ['Gujranwala', 'PLACE'],
      ['city', 'CONCEPT'],
      ['Punjab', 'PLACE'],
      ['Pakistan', 'PLACE'],
      ['Lahore', 'PLACE'],
      ['Scottish', 'PLACE'],
    ])
    const named = (m: ClauseMention) => m.label !== 'CONCEPT'
    const verbEnd = sentence.indexOf(' a ')
    // Lahore is a city of the place lists, as Gujranwala is; "Scottish" a nationality.
    expect(placeStatements(sentence, mentions, 0, verbEnd, named)).toEqual([
      { object: 2, located: true },
      { object: 3, located: true },
    ])
  })

  it('puts the place in a nationality its kind or a division follows', () => {
    const sentence =
      'Santa Elena is a small Venezuelan city in the Brazilian state of Roraima near the border with Guyana.'
    const mentions = mentionsOf(sentence, [
      ['Santa Elena', 'PLACE'],
      ['Venezuelan', 'PLACE'],
      ['Brazilian', 'PLACE'],
      ['Roraima', 'PLACE'],
      ['Guyana', 'PLACE'],
    ])
    const verbEnd = sentence.indexOf(' a ')
    // The nationality before "city" is the complement: "Guyana" is no object of "is".
    expect(placeStatements(sentence, mentions, 0, verbEnd, () => true)).toEqual([
      { object: 1, located: true },
      { object: 2, located: true },
      { object: 3, located: true },
    ])
    // A nationality before a kind that is no place's is not where the place lies.
    const band = 'Linz is a town with an Austrian band of note.'
    const its = mentionsOf(band, [
      ['Linz', 'PLACE'],
      ['Austrian', 'PLACE'],
    ])
    expect(placeStatements(band, its, 0, band.indexOf(' a '), () => true)).toEqual([
      { object: 1, located: false },
    ])
  })

  it('reads nothing of a clause of its own after a comma and a conjunction', () => {
    const sentence =
      'Sicily is farther to the north, whilst the island nation of Malta is to the east.'
    const mentions = mentionsOf(sentence, [
      ['Sicily', 'PLACE'],
      ['Malta', 'PLACE'],
    ])
    const verbEnd = sentence.indexOf(' farther')
    expect(placeStatements(sentence, mentions, 0, verbEnd, () => true)).toEqual([])
    // Without the conjunction, a comma and a place: where the place lies.
    const listed = 'Sicily is an island of the Mediterranean, in the nation of Italy.'
    const inItaly = mentionsOf(listed, [
      ['Sicily', 'PLACE'],
      ['Mediterranean', 'PLACE'],
      ['Italy', 'PLACE'],
    ])
    expect(
      placeStatements(listed, inItaly, 0, listed.indexOf(' an '), () => true).map((o) => o.object),
    ).toContain(2)
  })

  it('relates nothing before the verb and not the place to itself', () => {
    const sentence = 'Near Paris, Paris Basin lies under Paris.'
    const mentions = mentionsOf(sentence, [
      ['Paris', 'PLACE'],
      ['Paris Basin', 'PLACE'],
      ['Paris', 'PLACE'],
    ])
    expect(placeStatements(sentence, mentions, 1, sentence.indexOf(' under'), () => true)).toEqual([
      { object: 2, located: false },
    ])
    const self = mentionsOf('Lund is in Lund.', [
      ['Lund', 'PLACE'],
      ['Lund', 'PLACE'],
    ])
    expect(placeStatements('Lund is in Lund.', self, 0, 7, () => true)).toEqual([])
  })
})

describe('placeChain', () => {
  /** The pairs of places `placeChain` says lie one in the next, as "a > b". */
  const chain = (sentence: string, names: string[], inPlace = () => false) => {
    const mentions = mentionsOf(
      sentence,
      names.map((n) => [n, 'PLACE']),
    )
    return placeChain(sentence, mentions, () => true, inPlace).map(
      (i) => `${names[i]} > ${names[i + 1]}`,
    )
  }

  it('reads a comma chain as each place in the next', () => {
    expect(
      chain('Born in Vancouver, British Columbia, Canada.', [
        'Vancouver',
        'British Columbia',
        'Canada',
      ]),
    ).toEqual(['Vancouver > British Columbia', 'British Columbia > Canada'])
  })

  it('reads a chain a conjunction continues as a list of places side by side', () => {
    expect(
      chain('Offices in Harrogate, Hull, Scarborough, Sheffield and York.', [
        'Harrogate',
        'Hull',
        'Scarborough',
        'Sheffield',
        'York',
      ]),
    ).toEqual([])
    expect(
      chain('Sold in Indonesia, Singapore, and the Philippines.', [
        'Indonesia',
        'Singapore',
        'Philippines',
      ]),
    ).toEqual([])
    expect(chain('Cities such as Nagoya, Shizuoka.', ['Nagoya', 'Shizuoka'])).toEqual([])
    expect(chain('Nagoya, Shizuoka and other cities.', ['Nagoya', 'Shizuoka'])).toEqual([])
    // A plural of a place's kind before the list opens it too.
    expect(
      chain('Important cities are Buchach, Chernivtsi, Halych.', [
        'Buchach',
        'Chernivtsi',
        'Halych',
      ]),
    ).toEqual([])
  })

  it('keeps chains of one length joined by a conjunction, and a list item the lexicon ranks higher', () => {
    expect(
      chain('From Paris, France and London, England.', ['Paris', 'France', 'London', 'England']),
    ).toEqual(['Paris > France', 'London > England'])
    expect(
      chain('Plants in Detroit, Michigan and Toronto.', ['Detroit', 'Michigan', 'Toronto']),
    ).toEqual(['Detroit > Michigan'])
  })

  it('puts no place in one the lexicon or the place lists rank as high', () => {
    // "Britain" is unknown to the lexicon and a country of the place lists.
    expect(chain('Britain, France, Austria.', ['Britain', 'France', 'Austria'])).toEqual([])
    expect(chain('Dublin, Wicklow.', ['Dublin', 'Wicklow'])).toEqual([])
    expect(chain('Bavaria, Germany, Europe.', ['Bavaria', 'Germany', 'Europe'])).toEqual([
      'Bavaria > Germany',
      'Germany > Europe',
    ])
  })

  it('takes a locative pair only where the caller says one joins them', () => {
    const names = ['Aetolia-Acarnania', 'Greece']
    expect(chain('Aetolia-Acarnania in Greece.', names)).toEqual([])
    expect(chain('Aetolia-Acarnania in Greece.', names, () => true)).toEqual([
      'Aetolia-Acarnania > Greece',
    ])
  })
})

describe('statedHierarchy', () => {
  const mentions = (names: string[]): ClauseMention[] =>
    names.map((name, i) => ({ name, label: 'PLACE', start: i * 40, end: i * 40 + name.length }))

  it('puts each place a statement names in every later one that holds it', () => {
    // "Zabiele is a village in Gmina Wielbark, within Szczytno County, in northern Poland".
    const places = mentions(['Zabiele', 'Gmina Wielbark', 'Szczytno County', 'Poland'])
    expect(statedHierarchy('', places, [1, 2, 3])).toEqual([
      [1, 3],
      [2, 3],
    ])
    // A city in a region and a country, the region in the country; no country in a city.
    const ranked = mentions(['Brookston', 'Duluth', 'Minnesota', 'United States', 'Paris'])
    expect(statedHierarchy('', ranked, [1, 2, 3, 4])).toEqual([
      [1, 2],
      [1, 3],
      [2, 3],
    ])
  })

  it('takes a river, a mountain or an unranked name for no container', () => {
    const places = mentions(['Brookston', 'Minnesota', 'Saint Louis River', 'Artichoke River'])
    expect(statedHierarchy('', places, [1, 2, 3])).toEqual([])
  })

  it('puts places side by side in neither, and a division in its nationality', () => {
    const flows =
      'It flows through the Canadian province of Saskatchewan and the U.S. state of Montana.'
    const places = mentionsOf(flows, [
      ['Canadian', 'PLACE'],
      ['Saskatchewan', 'PLACE'],
      ['U.S.', 'PLACE'],
      ['Montana', 'PLACE'],
    ])
    expect(statedHierarchy(flows, places, [1, 3])).toEqual([])
    // A conjunction inside the inner place's phrase is no pair of equals.
    const lake = 'Black Lake is in Cheboygan and Presque Isle counties in northern Michigan.'
    const shores = mentionsOf(lake, [
      ['Black Lake', 'PLACE'],
      ['Cheboygan', 'PLACE'],
      ['Michigan', 'PLACE'],
    ])
    expect(statedHierarchy(lake, shores, [1, 2])).toEqual([[1, 2]])
    const city = 'Santa Elena is a Venezuelan city in the state of Bolívar.'
    const held = mentionsOf(city, [
      ['Santa Elena', 'PLACE'],
      ['Venezuelan', 'PLACE'],
      ['Bolívar', 'PLACE'],
    ])
    expect(statedHierarchy(city, held, [1, 2])).toEqual([[2, 1]])
  })
})

describe('divisionsOf', () => {
  it('puts a division in the country or nationality its kind is qualified by', () => {
    const sentence =
      'It lies in the U.S. state of Oregon, near the Canadian province of Alberta, not in Idaho, Utah.'
    const mentions = mentionsOf(sentence, [
      ['U.S.', 'PLACE'],
      ['Oregon', 'PLACE'],
      ['Canadian', 'PLACE'],
      ['Alberta', 'PLACE'],
      ['Idaho', 'PLACE'],
      ['Utah', 'PLACE'],
    ])
    expect(divisionsOf(sentence, mentions)).toEqual([
      [1, 0],
      [3, 2],
    ])
  })
})
