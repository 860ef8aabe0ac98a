import { describe, expect, it } from 'vitest'
import {
  containedPlaces,
  countryCode,
  nationalityCountries,
  organizationsInPlaces,
  placesInScope,
  placesNamed,
  type NamedPlace,
} from './gazetteer.js'

const place = (name: string, passage = 'p1'): NamedPlace => ({
  key: `PLACE:${name}`,
  name,
  passageIds: [passage],
})
/** The edges of `containedPlaces` over places named `names`, as "inner -> outer". */
const contained = (names: string[], related: (a: string, b: string) => boolean = () => false) =>
  containedPlaces(
    names.map((n) => place(n)),
    related,
  ).map((e) => `${e.subjectKey.slice(6)} -> ${e.objectKey.slice(6)}`)

describe('gazetteer', () => {
  it('knows a country by its names, an initialism with periods and "the" included', () => {
    expect(countryCode('United States')).toBe('US')
    expect(countryCode('the U.S.')).toBe('US')
    expect(countryCode('Britain')).toBe('GB')
    expect(countryCode('Paris')).toBeNull()
  })

  it('knows where a region and a city lie, a region in each country of its name', () => {
    expect(placesNamed('Detroit')).toEqual([{ country: 'US', region: 'Michigan' }])
    expect(placesNamed('Michigan')).toEqual([{ country: 'US', region: null }])
    expect(placesNamed('Punjab').map((p) => p.country)).toEqual(['IN', 'PK'])
    // The most populous city of a name: London lies in the United Kingdom only.
    expect(placesNamed('London').map((p) => p.country)).toEqual(['GB'])
    expect(placesNamed('Acme')).toEqual([])
  })

  it('puts a place in the country and the region of the text that the gazetteer gives it', () => {
    expect(contained(['Detroit', 'Michigan', 'United States'])).toEqual([
      'Detroit -> United States',
      'Detroit -> Michigan',
      'Michigan -> United States',
    ])
    // No country named: the city's region still.
    expect(contained(['Detroit', 'Michigan'])).toEqual(['Detroit -> Michigan'])
    // Not a container the text does not name, nor a pair the text relates already.
    expect(contained(['Toronto', 'France'])).toEqual([])
    expect(contained(['Toronto', 'Canada'], () => true)).toEqual([])
    // The edge cites the passages naming either place.
    expect(containedPlaces([place('Toronto', 'p1'), place('Canada', 'p2')], () => false)).toEqual([
      { subjectKey: 'PLACE:Toronto', objectKey: 'PLACE:Canada', passageIds: ['p1', 'p2'] },
    ])
  })

  it("takes the country the text names for a name of several countries' places, only one", () => {
    expect(contained(['Punjab', 'India'])).toEqual(['Punjab -> India'])
    expect(contained(['Punjab', 'India', 'Pakistan'])).toEqual([])
    // A smaller London in Canada is not the London of a text naming Canada.
    expect(contained(['London', 'Canada'])).toEqual([])
  })

  it('puts an organisation in a place of the gazetteer its name holds and the text names', () => {
    const inPlaces = (organizations: string[], places: string[], related = () => false) =>
      organizationsInPlaces(
        organizations.map((n) => place(n)),
        places.map((n) => place(n)),
        related,
      ).map((e) => `${e.subjectKey.slice(6)} -> ${e.objectKey.slice(6)}`)
    expect(
      inPlaces(['University of Alberta', 'Calgary City Council'], ['Alberta', 'Calgary']),
    ).toEqual(['University of Alberta -> Alberta', 'Calgary City Council -> Calgary'])
    // Whole words only, a place the gazetteer holds only, and not a pair the text relates already.
    expect(inPlaces(['Canadarm Robotics'], ['Canada'])).toEqual([])
    expect(inPlaces(['Soviet Union', 'Norwegian Army'], ['Soviet', 'Norwegian'])).toEqual([])
    expect(inPlaces(['Bell Canada'], ['Canada'], () => true)).toEqual([])
    // Not a place the text does not name.
    expect(inPlaces(['Bell Canada'], ['Toronto'])).toEqual([])
    // Another name of a country the text names: in that country as the text names it.
    expect(inPlaces(['U.S. Congress', 'Bank of America'], ['United States'])).toEqual([
      'U.S. Congress -> United States',
      'Bank of America -> United States',
    ])
  })

  it('puts an organisation whose name holds a nationality in that country when the text names it', () => {
    const inCountries = (organizations: string[], places: string[]) =>
      organizationsInPlaces(
        organizations.map((n) => place(n)),
        places.map((n) => place(n)),
        () => false,
      ).map((e) => `${e.subjectKey.slice(6)} -> ${e.objectKey.slice(6)}`)
    expect(
      inCountries(['Norwegian Army', 'Royal Thai Army', 'Canadian Tire'], ['Norway', 'Thailand']),
    ).toEqual(['Norwegian Army -> Norway', 'Royal Thai Army -> Thailand'])
    // Each of a country's adjectives ("Trinidadian or Tobagonian"), and one the list holds whole.
    expect(inCountries(['Tobagonian Regiment'], ['Trinidad and Tobago'])).toEqual([
      'Tobagonian Regiment -> Trinidad and Tobago',
    ])
    expect(inCountries(['South African Airways'], ['South Africa'])).toEqual([
      'South African Airways -> South Africa',
    ])
    // Not the nationality of a larger whole, nor another country's.
    expect(inCountries(['Latin American School of Medicine'], ['United States'])).toEqual([])
    expect(inCountries(['North American Aviation'], ['United States'])).toEqual([])
    expect(inCountries(['Austrian Airlines'], ['Australia'])).toEqual([])
  })

  it('reads a nationality as its country where the text names that country', () => {
    const countries = (names: string[]) =>
      [...nationalityCountries(names.map((n) => place(n)))].map(
        ([a, b]) => `${a.slice(6)} -> ${b.slice(6)}`,
      )
    expect(countries(['Norwegian', 'Bergen', 'Norway', 'Swedish'])).toEqual(['Norwegian -> Norway'])
    expect(countries(['South Korean', 'South Korea'])).toEqual(['South Korean -> South Korea'])
    // The first name the text gives the country; nothing where it names no country of it.
    expect(countries(['British', 'Britain', 'United Kingdom'])).toEqual(['British -> Britain'])
    expect(countries(['Norwegian', 'Oslo'])).toEqual([])
  })

  it("puts the other places of a text about a place in that place's outermost container", () => {
    // "Westmere is a hamlet in the town of Guilderland, Albany County, New York."
    const opening =
      'Westmere is a hamlet in the town of Guilderland, Albany County, New York. It is ...'
    const stated = [
      ['Westmere', 'Guilderland'],
      ['Guilderland', 'Albany County'],
      ['Albany County', 'New York'],
    ]
    const inScope = (
      others: string[],
      text = opening,
      edges = stated,
      related: (a: string, b: string) => boolean = () => false,
    ) =>
      placesInScope(
        text,
        ['Westmere', 'Guilderland', 'Albany County', 'New York', ...others].map((n) => place(n)),
        edges.map(([a, b]) => ({ subjectKey: `PLACE:${a}`, objectKey: `PLACE:${b}` })),
        related,
      ).map((e) => `${e.subjectKey.slice(6)} -> ${e.objectKey.slice(6)}`)
    expect(inScope(['Albany', 'Crossgates Mall'])).toEqual([
      'Albany -> New York',
      'Crossgates Mall -> New York',
    ])
    // Not a place the text puts somewhere already, nor a pair it relates.
    expect(inScope(['Albany'], opening, [...stated, ['Albany', 'Albany County']])).toEqual([])
    expect(inScope(['Albany'], opening, stated, () => true)).toEqual([])
    // Not a country, a nationality, a realm, a sea, a name of another country's place by the gazetteer or
    // by its words, nor a place of the container's rank.
    expect(
      inScope([
        'Germany',
        'Canadian',
        'Russian Empire',
        'Mediterranean Sea',
        'Paris',
        'Western China',
        'Vermont',
      ]),
    ).toEqual([])
    // Nor a country in a text about a place of a continent.
    expect(
      placesInScope(
        'Mount Shinn is a mountain in Antarctica. The United States mapped the Sentinel Range.',
        ['Mount Shinn', 'Antarctica', 'United States', 'Sentinel Range'].map((n) => place(n)),
        [{ subjectKey: 'PLACE:Mount Shinn', objectKey: 'PLACE:Antarctica' }],
        () => false,
      ).map((e) => `${e.subjectKey.slice(6)} -> ${e.objectKey.slice(6)}`),
    ).toEqual(['Sentinel Range -> Antarctica'])
    // Another name after "or" opens it too.
    expect(inScope(['Albany'], 'Westmere or West Mere is a hamlet in Guilderland.')).toEqual([
      'Albany -> New York',
    ])
    // A text that does not open with the place is about no place ("Westmere Mall" is another name).
    expect(inScope(['Albany'], 'Albany is a city.')).toEqual([])
    expect(inScope(['Albany'], 'Westmere Mall is a mall in Guilderland.')).toEqual([])
    // No container, or one that is not ranked: nothing.
    expect(inScope(['Albany'], opening, [])).toEqual([])
    expect(inScope(['Albany'], opening, [['Westmere', 'Guilderland']])).toEqual([])
    // Two outermost containers (a lake on a border): nothing.
    expect(inScope(['Albany', 'Germany'], opening, [...stated, ['Westmere', 'Germany']])).toEqual(
      [],
    )
  })

  it("puts them in the topic's regions within that container too, when those make one chain", () => {
    const located = (pairs: string[][]) =>
      pairs.map(([a, b]) => ({ subjectKey: `PLACE:${a}`, objectKey: `PLACE:${b}` }))
    const inScope = (others: string[], stated: string[][]) =>
      placesInScope(
        'Bound Brook is a tributary of the Raritan River in Middlesex County, New Jersey.',
        ['Bound Brook', ...new Set(stated.flat()), ...others].map((n) => place(n)),
        located(stated),
        () => false,
      ).map((e) => `${e.subjectKey.slice(6)} -> ${e.objectKey.slice(6)}`)
    const chain = [
      ['Bound Brook', 'Middlesex County'],
      ['Middlesex County', 'New Jersey'],
      ['New Jersey', 'United States'],
    ]
    expect(inScope(['Spring Lake', 'Sacunk'], chain)).toEqual([
      'Spring Lake -> United States',
      'Spring Lake -> New Jersey',
      'Sacunk -> United States',
      'Sacunk -> New Jersey',
    ])
    // Not a place the gazetteer puts in another region ("Chicago": Illinois), nor a region, which the
    // gazetteer may not hold ("Tuscany", a region by the lexicon: the scope's rule alone puts it).
    expect(inScope(['Chicago', 'Tuscany'], chain)).toEqual([
      'Chicago -> United States',
      'Tuscany -> United States',
    ])
    // Two regions neither of which holds the other (a river through two states): the country only.
    expect(
      inScope(
        ['Sacunk'],
        [
          ['Bound Brook', 'New Jersey'],
          ['Bound Brook', 'New York'],
          ['New Jersey', 'United States'],
          ['New York', 'United States'],
        ],
      ),
    ).toEqual(['Sacunk -> United States'])
  })
})
