/**
 * Writes the local extractor's two name lists from npm packages that are devDependencies, never loaded
 * by a running engine (proper-name-type.ts reads the lists; docs/local-extractor.md says how):
 *
 * - `given-names.ts`: the first names of @faker-js/faker's locales (MIT), every locale but the two joke
 *   ones (`en_BORK`, `en_AU_ocker`);
 * - `place-names.ts`: the cities, their provinces and countries of city-timezones (MIT; 7,329 cities),
 *   and the countries, their capitals and other names of countries-list (MIT).
 *
 *   npx tsx scripts/name-lists.ts
 *
 * Kept: names in Latin script (the script of the English text the extractor reads), capitalised.
 * scripts/name-lists.test.ts fails when a committed file differs from what this writes (after an upgrade
 * of a package: run it again).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { allLocales, type LocaleDefinition } from '@faker-js/faker'
import cityTimezones from 'city-timezones'
import { countries } from 'countries-list'

const EXTRACT_DIR = '../packages/core/src/ingest/extract/'
export const GIVEN_NAMES_FILE = fileURLToPath(
  new URL(`${EXTRACT_DIR}given-names.ts`, import.meta.url),
)
export const PLACE_NAMES_FILE = fileURLToPath(
  new URL(`${EXTRACT_DIR}place-names.ts`, import.meta.url),
)

/** The licence text a package ships, as the file carrying its data must include it. */
const licenceOf = (pkg: string) =>
  readFileSync(fileURLToPath(new URL(`../node_modules/${pkg}/LICENSE`, import.meta.url)), 'utf8')

/** Locales whose names are jokes, not names ("Bork", "Shazza"). */
const JOKE_LOCALES = new Set(['en_BORK', 'en_AU_ocker'])

/** Capitalised words in Latin script, an apostrophe, a hyphen or a period inside ("D'Arcy", "St. John's"). */
const LATIN_NAME = /^\p{Lu}[\p{Script=Latin}'.-]*(?: [\p{Script=Latin}'.-]+)*$/u

/** The sorted distinct given names of the lists: one word each. */
export function givenNamesFromFaker(): string[] {
  const names = new Set<string>()
  for (const [locale, definition] of Object.entries(allLocales) as [string, LocaleDefinition][]) {
    if (JOKE_LOCALES.has(locale)) continue
    const lists = definition.person?.first_name
    if (lists === undefined || lists === null) continue
    for (const name of Object.values(lists).flat())
      if (typeof name === 'string' && !name.includes(' ') && LATIN_NAME.test(name)) names.add(name)
  }
  return [...names].sort()
}

/** The kinds of places of the lists, each sorted and distinct: a name may be of several kinds. */
export interface PlaceNames {
  cities: string[]
  regions: string[]
  countries: string[]
}

/** The place names of the lists by kind (cities, their provinces, countries and their other names). */
export function placeNamesFromPackages(): PlaceNames {
  const kinds = {
    cities: new Set<string>(),
    regions: new Set<string>(),
    countries: new Set<string>(),
  }
  const add = (kind: keyof PlaceNames, name: string | undefined) => {
    if (name !== undefined && LATIN_NAME.test(name)) kinds[kind].add(name)
  }
  for (const city of cityTimezones.cityMapping) {
    add('cities', city.city)
    add('regions', city.province)
    add('countries', city.country)
  }
  for (const country of Object.values(countries)) {
    add('countries', country.name)
    add('cities', country.capital)
    for (const alias of 'alias' in country ? (country.alias as string[]) : [])
      add('countries', alias)
  }
  return {
    cities: [...kinds.cities].sort(),
    regions: [...kinds.regions].sort(),
    countries: [...kinds.countries].sort(),
  }
}

/** One list of a generated module: the set it exports, its doc comment and its names. */
interface NameList {
  exported: string
  doc: string
  names: readonly string[]
}

/**
 * A module exporting each list as a set, its names one string per initial, separated by `separator`
 * (a space for one-word names), quoted as prettier quotes them.
 */
export function nameListModule(
  lists: readonly NameList[],
  separator: string,
  header: readonly string[],
  notices: readonly string[],
): string {
  // In double quotes when a name holds an apostrophe ("D'Arcy"), as prettier writes it.
  const quote = (text: string) => (text.includes("'") ? JSON.stringify(text) : `'${text}'`)
  const notice = notices
    .join('\n')
    .trimEnd()
    .split('\n')
    .map((line) => ` *${line.trimEnd() === '' ? '' : ` ${line.trimEnd()}`}`)
  const out = [...header.map((line) => `// ${line}`), '', '/*', ...notice, ' */']
  for (const { exported, doc, names } of lists) {
    const byInitial = new Map<string, string[]>()
    for (const name of names) byInitial.set(name[0]!, [...(byInitial.get(name[0]!) ?? []), name])
    const constant = `${exported}_BY_INITIAL`
    out.push(
      '',
      `const ${constant}: readonly string[] = [`,
      ...[...byInitial.values()].map((group) => `  ${quote(group.join(separator))},`),
      ']',
      '',
      `/** ${doc} */`,
      `export const ${exported}: ReadonlySet<string> = new Set(`,
      `  ${constant}.flatMap((names) => names.split('${separator}')),`,
      ')',
    )
  }
  return [...out, ''].join('\n')
}

export const givenNamesModule = (names: readonly string[]) =>
  nameListModule(
    [
      {
        exported: 'LISTED_GIVEN_NAMES',
        doc: 'Given names of many languages, as written: capitalised ("Kwame", "Harald", "Édouard").',
        names,
      },
    ],
    ' ',
    [
      'Generated by scripts/name-lists.ts from the first-name lists of @faker-js/faker (MIT,',
      'https://github.com/faker-js/faker): every locale but the joke ones, Latin script. Do not edit.',
    ],
    [`@faker-js/faker's LICENSE:`, '', licenceOf('@faker-js/faker')],
  )

export const placeNamesModule = (places: PlaceNames) =>
  nameListModule(
    [
      {
        exported: 'LISTED_CITIES',
        doc: 'Cities and capitals, as written ("Smolensk", "Bahir Dar", "Minneapolis").',
        names: places.cities,
      },
      {
        exported: 'LISTED_REGIONS',
        doc: 'The provinces, states and regions the cities lie in ("Rogaland", "Amhara", "Punjab").',
        names: places.regions,
      },
      {
        exported: 'LISTED_COUNTRIES',
        doc: 'Countries and their other names ("Belize", "Britain", "UAE").',
        names: places.countries,
      },
    ],
    '|',
    [
      'Generated by scripts/name-lists.ts from city-timezones (MIT, https://github.com/kevinroberts/city-timezones):',
      'cities, provinces and countries; and countries-list (MIT, https://github.com/annexare/Countries):',
      'countries, capitals and other names of countries. Latin script. Do not edit.',
    ],
    [
      'city-timezones: MIT licence (its package.json; it ships no LICENSE file), by Kevin Roberts.',
      '',
      `countries-list's LICENSE:`,
      '',
      licenceOf('countries-list'),
    ],
  )

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = givenNamesFromFaker()
  writeFileSync(GIVEN_NAMES_FILE, givenNamesModule(given))
  const places = placeNamesFromPackages()
  writeFileSync(PLACE_NAMES_FILE, placeNamesModule(places))
  const counts = `${places.cities.length} cities, ${places.regions.length} regions, ${places.countries.length} countries`
  console.log(`${given.length} given names; ${counts} written`)
}
