import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  GIVEN_NAMES_FILE,
  PLACE_CONTAINERS_FILE,
  PLACE_NAMES_FILE,
  givenNamesFromFaker,
  givenNamesModule,
  placeContainersFromPackages,
  placeContainersModule,
  placeNamesFromPackages,
  placeNamesModule,
} from './name-lists.js'

describe('the local extractor’s name lists', () => {
  it('match what scripts/name-lists.ts writes from the packages (run it after an upgrade)', () => {
    const given = givenNamesFromFaker()
    const places = placeNamesFromPackages()
    expect(given.length).toBeGreaterThan(10_000)
    expect(places.cities.length).toBeGreaterThan(5_000)
    expect(readFileSync(GIVEN_NAMES_FILE, 'utf8')).toBe(givenNamesModule(given))
    expect(readFileSync(PLACE_NAMES_FILE, 'utf8')).toBe(placeNamesModule(places))
    const containers = placeContainersFromPackages()
    expect(containers.countries.length).toBeGreaterThan(200)
    expect(readFileSync(PLACE_CONTAINERS_FILE, 'utf8')).toBe(placeContainersModule(containers))
  })
})
