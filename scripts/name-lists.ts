/**
 * Writes the local extractor's two name lists from npm packages that are devDependencies, never loaded
 * by a running engine (proper-name-type.ts reads the lists; docs/local-extractor.md says how):
 *
 * - `given-names.ts`: the first names of @faker-js/faker's locales (MIT), every locale but the two joke
 *   ones (`en_BORK`, `en_AU_ocker`);
 * - `place-names.ts`: the cities, their provinces and countries of city-timezones (MIT; 7,329 cities),
 *   and the countries, their capitals and other names of countries-list (MIT);
 * - `place-containers.ts`: from the same two, the countries and provinces each place lies in
 *   (`placeContainersFromPackages`), and each country's nationality adjective from i18n-nationality
 *   (MIT; "Norwegian" for Norway).
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
import { createRequire } from 'node:module'

const EXTRACT_DIR = '../packages/core/src/ingest/extract/'
export const GIVEN_NAMES_FILE = fileURLToPath(
  new URL(`${EXTRACT_DIR}given-names.ts`, import.meta.url),
)
export const PLACE_NAMES_FILE = fileURLToPath(
  new URL(`${EXTRACT_DIR}place-names.ts`, import.meta.url),
)
export const PLACE_CONTAINERS_FILE = fileURLToPath(
  new URL(`${EXTRACT_DIR}place-containers.ts`, import.meta.url),
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

/** Where places lie, as the packages say it. */
export interface PlaceContainers {
  /** Per country: its ISO code, then its names ("US", "United States", "USA", ...). */
  countries: string[][]
  /** Per country code: its regions ("Michigan"). */
  regions: Map<string, string[]>
  /**
   * Per country code and region (`''` for none known): its cities; the region is given where every city
   * of that name in the country lies in it ("Springfield" lies in the United States, in no one state).
   * Each city name is in one country's lists only.
   */
  cities: Map<string, Map<string, string[]>>
  /** Per nationality adjective: its country's ISO code, then the adjective (`['NO', 'Norwegian']`). */
  demonyms: (readonly [string, string])[]
}

/** Codes whose nationality i18n-nationality gets wrong: Wallis and Futuna's is not "Welsh" (Wales's). */
const MISLISTED_NATIONALITY = new Set(['WF'])

/** i18n-nationality's English list: ISO code -> nationality adjective, or the territory's name. */
const nationalities = (): Record<string, string> =>
  (
    createRequire(import.meta.url)('i18n-nationality/langs/en.json') as {
      nationalities: Record<string, string>
    }
  ).nationalities

/**
 * The countries and regions the places of the packages lie in, by name. A region's name may lie in
 * several countries ("Punjab" in India and Pakistan), and the extractor takes the one its text names; a
 * city's name lies where its most populous city of that name does ("London" in the United Kingdom, not
 * in Canada or the United States, where smaller Londons are), since a text naming Canada and London most
 * likely means the capital. A country's capital the cities do not hold lies in it. No country's name is a
 * region or a city here ("Georgia", "Singapore"). A country's nationality adjectives ("Trinidadian or
 * Tobagonian" are two) are kept where each is no name of the country ("Bermuda"), is written in Latin
 * script as one name ("Congolese (Republic of the Congo)" is not) and no other country has it.
 */
export function placeContainersFromPackages(): PlaceContainers {
  const names = new Map<string, Set<string>>()
  const add = <K>(map: Map<K, Set<string>>, key: K, value: string) =>
    map.set(key, (map.get(key) ?? new Set()).add(value))
  const named = (code: string, name: string | undefined) => {
    if (name !== undefined && LATIN_NAME.test(name)) add(names, code, name)
  }
  const regions = new Map<string, Set<string>>()
  const provinceOf = (city: { province?: string }) =>
    city.province !== undefined && LATIN_NAME.test(city.province) ? city.province : ''
  /** Each city name's places, the most populous first. */
  const places = new Map<string, (typeof cityTimezones.cityMapping)[number][]>()
  // Kosovo and Somaliland have no ISO code in city-timezones: left out.
  for (const city of cityTimezones.cityMapping.filter((c) => c.iso2 !== '')) {
    named(city.iso2, city.country)
    if (provinceOf(city) !== '') add(regions, city.iso2, provinceOf(city))
    if (LATIN_NAME.test(city.city)) places.set(city.city, [...(places.get(city.city) ?? []), city])
  }
  const cityRegion = new Map<string, { code: string; region: string }>()
  for (const [name, list] of places) {
    const [first] = [...list].sort((a, b) => b.pop - a.pop)
    // Its region where every city of the name in that country lies in one.
    const inCountry = new Set(list.filter((c) => c.iso2 === first!.iso2).map(provinceOf))
    const region = inCountry.size === 1 && !inCountry.has(name) ? provinceOf(first!) : ''
    cityRegion.set(name, { code: first!.iso2, region })
  }
  for (const [code, country] of Object.entries(countries)) {
    named(code, country.name)
    for (const alias of 'alias' in country ? (country.alias as string[]) : []) named(code, alias)
    if (LATIN_NAME.test(country.capital) && !cityRegion.has(country.capital))
      cityRegion.set(country.capital, { code, region: '' })
  }
  const countryName = new Set([...names.values()].flatMap((set) => [...set]))
  const cities = new Map<string, Map<string, Set<string>>>()
  for (const [city, { code, region }] of cityRegion) {
    if (countryName.has(city)) continue
    const byRegion = cities.get(code) ?? new Map<string, Set<string>>()
    add(byRegion, countryName.has(region) ? '' : region, city)
    cities.set(code, byRegion)
  }
  const adjectives = Object.entries(nationalities())
    .filter(([code]) => !MISLISTED_NATIONALITY.has(code))
    .flatMap(([code, adjectives]) =>
      adjectives.split(/ (?:-|or|and) /).map((a) => [code, a] as const),
    )
    .filter(([code, adjective]) => LATIN_NAME.test(adjective) && !names.get(code)?.has(adjective))
  const shared = (adjective: string) => adjectives.filter(([, a]) => a === adjective).length > 1
  const sortedMap = <T, U>(map: Map<string, T>, value: (v: T) => U) =>
    new Map([...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, value(v)] as const))
  const sortedList = (set: Set<string>) => [...set].sort()
  return {
    countries: [...sortedMap(names, sortedList)].map(([code, list]) => [code, ...list]),
    regions: sortedMap(regions, (set) => sortedList(set).filter((r) => !countryName.has(r))),
    cities: sortedMap(cities, (byRegion) => sortedMap(byRegion, sortedList)),
    demonyms: adjectives
      .filter(([, adjective]) => !shared(adjective))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  }
}

/** A string as prettier quotes it: in double quotes when it holds an apostrophe ("D'Arcy"). */
const quote = (text: string) => (text.includes("'") ? JSON.stringify(text) : `'${text}'`)

/** Licence notices as one block comment, a line each. */
const noticeComment = (notices: readonly string[]) => [
  '/*',
  ...notices
    .join('\n')
    .trimEnd()
    .split('\n')
    .map((line) => ` *${line.trimEnd() === '' ? '' : ` ${line.trimEnd()}`}`),
  ' */',
]

/** What a file carrying data of city-timezones and countries-list must include. */
const placeNotices = () => [
  'city-timezones: MIT licence (its package.json; it ships no LICENSE file), by Kevin Roberts.',
  '',
  `countries-list's LICENSE:`,
  '',
  licenceOf('countries-list'),
]

/** What place-containers.ts must include: also i18n-nationality's data. */
const containerNotices = () => [
  ...placeNotices(),
  '',
  `i18n-nationality's LICENSE:`,
  '',
  licenceOf('i18n-nationality'),
]

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
  const out = [...header.map((line) => `// ${line}`), '', ...noticeComment(notices)]
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
    placeNotices(),
  )

/**
 * The module of `placeContainersFromPackages`: one string per country, its code and names; one per
 * country's regions, `CODE>Region|Region`; one per region's cities, `CODE>Region>City|City` (`CODE>>`
 * for the cities of no one region); one per nationality adjective, `CODE|Adjective`. gazetteer.ts reads
 * them.
 */
export function placeContainersModule(places: PlaceContainers): string {
  const countryLines = places.countries.map((names) => `  ${quote(names.join('|'))},`)
  const regionLines = [...places.regions].map(
    ([code, list]) => `  ${quote(`${code}>${list.join('|')}`)},`,
  )
  const cityLines = [...places.cities].flatMap(([code, byRegion]) =>
    [...byRegion].map(([region, list]) => `  ${quote(`${code}>${region}>${list.join('|')}`)},`),
  )
  const demonymLines = places.demonyms.map((pair) => `  ${quote(pair.join('|'))},`)
  return [
    '// Generated by scripts/name-lists.ts from city-timezones (MIT, https://github.com/kevinroberts/city-timezones)',
    '// and countries-list (MIT, https://github.com/annexare/Countries): the countries and regions places lie in.',
    '// Nationalities from i18n-nationality (MIT, https://github.com/sourcecode911/i18n-nationality). Latin',
    '// script. Do not edit.',
    '',
    ...noticeComment(containerNotices()),
    '',
    "/** Each country's ISO code, then its names: 'US|America|US|USA|United States|United States of America'. */",
    'export const COUNTRY_NAMES: readonly string[] = [',
    ...countryLines,
    ']',
    '',
    "/** Each country's regions: 'US>Alabama|Alaska|...'. */",
    'export const COUNTRY_REGIONS: readonly string[] = [',
    ...regionLines,
    ']',
    '',
    "/** Each region's cities: 'US>Michigan>Ann Arbor|Detroit|...'; 'US>>...' those of no one region. */",
    'export const REGION_CITIES: readonly string[] = [',
    ...cityLines,
    ']',
    '',
    "/** Each country's nationality adjectives, one a line: 'NO|Norwegian'. */",
    'export const COUNTRY_DEMONYMS: readonly string[] = [',
    ...demonymLines,
    ']',
    '',
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = givenNamesFromFaker()
  writeFileSync(GIVEN_NAMES_FILE, givenNamesModule(given))
  const places = placeNamesFromPackages()
  writeFileSync(PLACE_NAMES_FILE, placeNamesModule(places))
  writeFileSync(PLACE_CONTAINERS_FILE, placeContainersModule(placeContainersFromPackages()))
  const counts = `${places.cities.length} cities, ${places.regions.length} regions, ${places.countries.length} countries`
  console.log(`${given.length} given names; ${counts} written`)
}
