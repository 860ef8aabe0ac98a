import { describe, expect, it } from 'vitest'
import {
  containedPlaces,
  countryCode,
  organizationsInPlaces,
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
    expect(inPlaces(['Canadian Tire'], ['Canada'])).toEqual([])
    expect(inPlaces(['Soviet Union', 'Norwegian Army'], ['Soviet', 'Norwegian'])).toEqual([])
    expect(inPlaces(['Bell Canada'], ['Canada'], () => true)).toEqual([])
    // Not a place the text does not name.
    expect(inPlaces(['Bell Canada'], ['Toronto'])).toEqual([])
  })
})
