import nlp from 'compromise'
import { CARDINAL_WORDS, COMPASS_WORDS, RELIGION_WORDS } from './closed-class-words.js'
import { LISTED_GIVEN_NAMES } from './given-names.js'
import { LISTED_CITIES, LISTED_COUNTRIES, LISTED_REGIONS } from './place-names.js'

/**
 * Types for capitalised noun phrases the tagger left untyped (or typed from its lexicon against their head),
 * from the phrase's head word and its context: the head-word ("trigger word") and preceding-preposition
 * features of rule-based named-entity recognition (Nadeau & Sekine, "A survey of named entity recognition
 * and classification", Lingvisticae Investigationes 30(1), 2007, section 4: word-level and context
 * features; the organisation designators and location keywords of MUC-era systems such as Mikheev,
 * Moens & Grover, EACL 1999). The lists in this file are of common nouns that name a kind of thing, and of
 * initialisms of such nouns and of a few countries; two gazetteers, of given names and of the world's places
 * (given-names.ts, place-names.ts: the list-lookup features of the same survey, section 4.2), are read only
 * where the tagger's lexicon knows none of a name's words as anything else.
 */

/** Last words that make a proper noun phrase an organisation ("Calgary City Council", "Royal Air Force"). */
const ORGANIZATION_HEADS = new Set(
  (
    'university college school academy institute institution council committee commission party company ' +
    'corporation corp inc ltd llc plc group records studios studio band orchestra choir club fc association ' +
    'federation league union society foundation agency ministry department bank army navy force forces ' +
    'police church museum library hospital airlines airways press network newspaper magazine journal team ' +
    'government parliament senate congress court board bureau authority organization organisation trust ' +
    'brigade regiment division battalion squadron fleet corps railway railways entertainment media ' +
    'publishing publishers pictures films productions motors industries laboratories laboratory labs ' +
    'centre center command assembly cabinet administration conservatory seminary brewery guild holdings ' +
    'exchange service unit survey conservatoire conservatorium faculty software television networks ' +
    'broadcasting technologies electronics communications tribune gazette herald partners ventures'
  ).split(' '),
)

/**
 * Designators that open an organisation's name in other languages, as English text quotes them ("Escuela
 * Nacional de Bellas Artes", "Universidad de Chile", "Colegio de San José"): the kind comes first there.
 */
const ORGANIZATION_OPENERS = new Set(
  (
    'escuela colegio universidad universidade università universita universität universitat université ' +
    'universite universiteit école ecole instituto istituto institut hochschule liceo lycée lycee ' +
    'akademie académie academia conservatorio'
  ).split(' '),
)

/** Initialisms of computing's interfaces, formats and protocols ("API", "URL", "JSON", "HTTP"). */
const COMPUTING_INITIALISMS = new Set(
  (
    'API SDK CLI GUI IDE URL URI HTTP HTTPS REST JSON XML HTML CSS CSV PDF SQL YAML TCP UDP IP DNS SSH ' +
    'TLS SSL UUID ID'
  ).split(' '),
)
/**
 * Initialisms of common nouns ("TV", "CD", "CEO", "BCE"), of computing (`COMPUTING_INITIALISMS`) and HTTP
 * methods ("POST"), of the abbreviations of chat and letters ("FYI", "BTW", "ASAP") and of communities
 * ("LGBT", "LGBTQ"): kinds of things or phrases, never an organisation. The acronym rule below types
 * every other unknown all-capital word an organisation.
 */
const COMMON_INITIALISMS = new Set([
  ...COMPUTING_INITIALISMS,
  ...(
    'TV CD CDS DVD LP EP GPS CEO CFO CTO COO VP MP MVP DJ MC PHD BA BSC MA MSC MBA BC BCE AD CE ' +
    'DNA RNA HIV AIDS IQ PC CPU GPU RAM ROM USB SSD HDD LCD LED OS AI ML NLP LLM ' +
    'GET PUT POST PATCH DELETE HEAD ASCII UTF ' +
    'FYI BTW IMO IMHO TBH IDK ASAP DIY FAQ TBA TBD AKA RSVP BRB TTYL AFAIK PS NB ' +
    'LGBT LGBTQ LGBTQI LGBTI'
  ).split(' '),
])

const LEXICON = (
  nlp.world() as unknown as { model: { one: { lexicon: Record<string, string | string[]> } } }
).model.one.lexicon
/** The lexicon's tags of `word` in lower case; none for a word it does not know. */
const lexiconTags = (word: string): string[] =>
  ([] as string[]).concat(LEXICON[word.toLowerCase()] ?? [])
/** Whether the lexicon knows `word` alone as a man's or a woman's given name ("Mary", "Peter"). */
export function isGivenName(word: string): boolean {
  const tags = lexiconTags(word)
  return tags.includes('MaleName') || tags.includes('FemaleName')
}

/** The lexicon's tags of people's names: a word carrying only these may be part of one ("Jordan", "Smith"). */
const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'LastName', 'Person'])

/**
 * Listed names that open other names in English text: a saint's title in Romance languages ("Santa
 * Monica", "Santo Domingo", "Santa Isabel") and the Gaelic "Mac" ("Mac Domhnaill").
 */
const NOT_GIVEN = new Set(['Santa', 'Santo', 'Mac'])

/**
 * Whether `name` opens with a given name the tagger's lexicon does not know ("Harald Thune", "Kwame
 * Nkrumah", "Édouard Manet") from the first-name lists of many languages (given-names.ts), and its other
 * words are unknown to the lexicon or known only as names. A listed name the lexicon knows as anything
 * ("Golden", "Royal", "Sydney", "May") is left to the tagger, as is a name with a common word after it
 * ("Arcade Fire", "Toy Run"): the lists hold such words as names too.
 */
export function opensWithListedGivenName(name: string): boolean {
  const [first, ...rest] = name.split(/\s+/)
  if (rest.length === 0 || !isUnknownListedGivenName(first!)) return false
  return rest.every((word) => lexiconTags(word).every((tag) => NAME_TAGS.has(tag)))
}

/** A listed given name (given-names.ts), known to the lexicon or not, and no saint's title or "Mac". */
export const isListedGivenName = (word: string) =>
  LISTED_GIVEN_NAMES.has(word) && !NOT_GIVEN.has(word)

/** A listed given name (given-names.ts) the lexicon does not know, and no saint's title or "Mac". */
export const isUnknownListedGivenName = (word: string) =>
  isListedGivenName(word) && lexiconTags(word).length === 0

/**
 * Whether `label` (a conversation turn's, "Priya:") names a person by a listed given name the tagger's
 * lexicon does not know: the name alone ("Priya", "Oluwaseun"), or opening a full name
 * (`opensWithListedGivenName`). A field's label ("City", "Note", "Major") is a word the lexicon knows.
 */
export function isListedGivenNameLabel(label: string): boolean {
  return /\s/.test(label) ? opensWithListedGivenName(label) : isUnknownListedGivenName(label)
}

/**
 * Whether the lexicon knows `word` alone as a first name: a given name, or one it tags only `FirstName`
 * ("Mel", "Grace").
 */
export const isFirstName = (word: string): boolean =>
  isGivenName(word) || lexiconTags(word).includes('FirstName')

const FUNCTION_WORD_TAGS = new Set(['Preposition', 'Conjunction', 'Adverb'])
/**
 * What the lexicon knows `word` (capitalised at a sentence's start) as, when that is no part of a
 * person's name: a function word of four letters or more ("During", "After", "Meanwhile"; not the
 * particles of surnames, "De Silva", nor "Les" of "Les Paul") or a demonym ("Irishman", "American").
 * Adjectives are not: they are nicknames too ("Red Adair", "Big Daddy Kane", "False Dmitri").
 */
export function leadingWordKind(word: string): 'function' | 'demonym' | null {
  const tags = lexiconTags(word)
  if (tags.length === 0) return null
  if (word.length >= 4 && tags.every((t) => FUNCTION_WORD_TAGS.has(t))) return 'function'
  return tags.every((t) => t === 'Demonym') ? 'demonym' : null
}

/** Lexicon tags of names and of words that belong in them (places, peoples, titles). */
const PROPER_TAG =
  /Person|Name|Place|Country|City|Region|Organization|Company|Team|ProperNoun|Demonym|Honorific/
/**
 * Whether the lexicon knows `word` only as a common word ("Chief", "Former", "Senior", "Deputy"): one
 * capitalised because it opens a sentence, not a name's. Unknown words and nationalities are not.
 */
export function isCommonWord(word: string): boolean {
  const tags = lexiconTags(word)
  return tags.length > 0 && !tags.some((tag) => PROPER_TAG.test(tag)) && !isListedDemonym(word)
}

/** Tags of words that name nothing: `FUNCTION_WORD_TAGS`, question words, determiners, auxiliaries. */
const CLOSED_CLASS_TAGS = new Set([
  ...FUNCTION_WORD_TAGS,
  'QuestionWord',
  'Determiner',
  'Pronoun',
  'Copula',
  'Modal',
  'Auxiliary',
])
/**
 * Whether the lexicon knows `word` only as a function word ("while", "Since", "What", "Just"): the
 * tagger's noun at a sentence's opening or after an article ("for a while"), no concept.
 */
export function isFunctionWord(word: string): boolean {
  const tags = lexiconTags(word)
  return tags.length > 0 && tags.every((t) => CLOSED_CLASS_TAGS.has(t))
}

/** Whether the lexicon knows `word` as a nationality or people ("Japanese", "European"). */
export const isLexiconDemonym = (word: string): boolean => lexiconTags(word).includes('Demonym')

/**
 * Countries' one-word nationality adjectives compromise 14.17's lexicon does not tag `Demonym` ("British",
 * "Spanish", "Turkish", "Soviet"; it knows "American", "German", "Italian"), checked word by word against it
 * (benchmarks/LOG.md, 2026-12-01). Taken as demonyms where written with their capital.
 */
const MORE_DEMONYMS = new Set(
  (
    'Andorran Argentinian Azerbaijani Bahamian Bahraini Barbadian Belizean Beninese Bhutanese Botswanan ' +
    'British Bruneian Burkinabe Burmese Burundian Cypriot Danish English Eritrean Fijian Finnish Gabonese ' +
    'Grenadian Guinean Guyanese Irish Kyrgyz Laotian Luxembourgish Malawian Maldivian Malian Maltese ' +
    'Mauritanian Mauritian Moldovan Monegasque Montenegrin Mozambican Nepalese Nepali Polish Salvadoran ' +
    'Slovenian Somali Spanish Surinamese Swazi Swedish Tajik Tanzanian Togolese Tongan Turkish Uruguayan ' +
    'Uzbek Yemeni Antiguan Comorian Djiboutian Kittitian Basotho Liechtensteiner Marshallese Micronesian ' +
    'Nauruan Palauan Sammarinese Santomean Seychellois Tuvaluan Vanuatuan Vincentian Tobagonian Timorese ' +
    'Kosovar Equatoguinean Papuan Soviet Yugoslav Czechoslovak'
  ).split(' '),
)
/** Whether `word` is one of the nationality adjectives the lexicon lacks (`MORE_DEMONYMS`). */
export const isListedDemonym = (word: string): boolean => MORE_DEMONYMS.has(word)
/** A capitalised cardinal compass word opening a nationality: "South American", "North Korean". */
const COMPASS_OPENER = new RegExp(`^(?:${CARDINAL_WORDS})$`, 'i')
/**
 * Whether `name` is a nationality, by the lexicon or `MORE_DEMONYMS` ("Venezuelan", "Polish"), with a
 * capitalised compass word before it or not ("South American", "North Korean", as the nationality mentions
 * are read).
 */
export function isDemonym(name: string): boolean {
  const words = name.split(' ')
  const one = (w: string) => isLexiconDemonym(w) || isListedDemonym(w)
  if (words.length === 2 && /^\p{Lu}/u.test(words[0]!) && COMPASS_OPENER.test(words[0]!))
    return one(words[1]!)
  return words.length === 1 && one(name)
}
/** Whether `word` (lower case) is the kind of a place ("city", "river", "county"). */
export const isPlaceHead = (word: string): boolean => PLACE_HEADS.has(word)

/** Whether the lexicon knows `word` as a verb's base form ("let", "keep", "take", "go"). */
export const isInfinitive = (word: string): boolean => lexiconTags(word).includes('Infinitive')

/** The lexicon's tags of common words: a word carrying only these is no name. */
const COMMON_WORD_TAGS = new Set([
  'Singular',
  'Plural',
  'Uncountable',
  'Noun',
  'Actor',
  'Infinitive',
  'PresentTense',
  'PastTense',
  'Participle',
  'Gerund',
  'Verb',
  'Adjective',
  'Comparative',
  'Superlative',
  'Adverb',
])

/**
 * An English word written in capitals ("PERSON", "INSERT", "LOG" in technical text, "STOP" on a sign),
 * not an initialism: compromise's lexicon knows its lower case as a common noun, verb or adjective and as
 * nothing else (no name, abbreviation, pronoun or question word: "WHO" and "IRA" stay initialisms). Of
 * Re-DocRED dev's all-capital gold mentions (251 organisations, 54 places, 71 others, 2 people), none of
 * the organisations is such a word, two places are ("FLOW", "STAR") and one other ("SURREAL").
 */
function isWordInCapitals(name: string): boolean {
  const tags = lexiconTags(name)
  return tags.length > 0 && tags.every((t) => COMMON_WORD_TAGS.has(t))
}

/** An all-capital name that is no acronym of an organisation: a common initialism or a word in capitals. */
const notAnAcronym = (name: string) => COMMON_INITIALISMS.has(name) || isWordInCapitals(name)
/** The acronym rule: an all-capital name is an organisation's acronym unless `notAnAcronym`. */
const acronymType = (name: string) => (notAnAcronym(name) ? 'CONCEPT' : 'ORGANIZATION')

/** Initialisms of countries and unions of them: places ("US", "UK"). */
const PLACE_INITIALISMS = new Set('US USA UK UAE USSR PRC DPRK DRC ROC'.split(' '))

/**
 * Organisation heads no one carries as a surname: a name the tagger took for a person that ends with one
 * is an organisation ("Barry University", "Red Greg Records", "Conservative Party"). "Church", "Bank" or
 * "Press" are surnames too.
 */
const UNMISTAKABLE_ORGANIZATION_HEADS = new Set(
  (
    'university college academy institute institution corporation corp inc ltd llc plc records studios ' +
    'conservatory seminary foundation association federation ministry hospital museum library airlines ' +
    'airways laboratories fc pictures productions conservatoire faculty party'
  ).split(' '),
)

/**
 * Place heads no one carries as a surname: a name the tagger took for a person that ends with one is a
 * place ("Wayne Gretzky Drive", "Bruce Highway", "Franklin Lakes"). "Street", "Lake" or "Hill" are surnames.
 */
const UNMISTAKABLE_PLACE_HEADS = new Set(
  (
    'drive highway avenue boulevard expressway freeway motorway cemetery airport lakes mountains islands ' +
    'county municipality district province prefecture township voivodeship governorate oblast krai ' +
    'okrug raion arrondissement'
  ).split(' '),
)

/**
 * Offices a name may end with but no person's name does: a "person" ending with one, no word of it a
 * given name, is the office ("Prime Minister", "Deputy Director", "Deputy Leader"). Not the
 * offices that are surnames too ("Bishop", "Judge", "Marshal", "Major").
 */
const OFFICE_HEADS = new Set(
  (
    'minister director president emperor empress chairman chairwoman chairperson secretary premier ' +
    'ambassador commissioner spokesman spokeswoman spokesperson leader'
  ).split(' '),
)

/**
 * Last words that make a proper noun phrase a place ("Hudson River", "Salt Lake County"), with the
 * English names of the subdivision categories of ISO 3166-2 that name no organisation ("Masovian
 * Voivodeship", "Giza Governorate", "Perm Krai", "Northern Territory"; not "department").
 */
const PLACE_HEADS = new Set(
  (
    'river mountain mountains lake county province state island islands street avenue road valley bay ' +
    'region district city town village sea ocean peninsula desert forest square bridge canal creek hill ' +
    'hills gulf strait coast municipality parish prefecture oblast canton borough township kingdom ' +
    'republic empire highway airport station harbour harbor falls glacier volcano reservoir archipelago ' +
    'duchy principality voivodeship governorate emirate krai okrug raion shire territory arrondissement'
  ).split(' '),
)

/**
 * Words that open a place's name, the kind first ("Piazza XX Settembre", "Via Nino Bixio", "Río Muni",
 * "Monte Roraima", "Fort Winnebago", "Sierra Norte"), in English and as English text quotes other
 * languages. Not "San", "Santa" or "Saint", which open saints' and churches' names as often as places'.
 */
const PLACE_OPENERS = new Set(
  'piazza via viale corso calle rue plaza lago lac monte mont mount rio río isla île sierra cerro puerto fort'.split(
    ' ',
  ),
)

/** Kinds of road a number names ("U.S. Route 20", "Interstate 287", "Highway 82"). */
const ROAD_KINDS = new Set('route interstate highway motorway autobahn'.split(' '))

/**
 * A proper name of two words or more that opens with a place's kind (`PLACE_OPENERS`; for a name the
 * tagger read as a person's, not a given name: "Monte Irvin") and holds no kind word of another thing
 * ("Mount Sinai Hospital", "Fort Worth Film Festival").
 */
function isPlaceByOpener(name: string, words: readonly string[], person: boolean): boolean {
  return (
    words.length > 1 &&
    PLACE_OPENERS.has(words[0]!) &&
    !(person && isFirstName(name.split(/\s+/)[0]!)) &&
    isProperPhrase(name) &&
    !hasKindWord(name)
  )
}

/**
 * Plural kind words of places ("Miami Shores", "Palm Springs", "Hampton Roads", "Golan Heights"): a name
 * ending with one is no team (`isTeamName`), nor is one ending with a plural of `PLACE_HEADS`.
 */
const PLACE_PLURALS = new Set(
  (
    'shores springs roads heights gardens woods fields meadows keys sands plains parks bluffs points ' +
    'acres dales glens cliffs isles highlands lowlands flats narrows rapids yards docks downs fells ' +
    'catacombs ruins baths'
  ).split(' '),
)
const LEXICON_PLACE_TAGS = new Set(['City', 'Country', 'Region', 'Place'])
/** Whether the lexicon knows `words` (lower case, one phrase) as a city, country, region or place. */
const lexiconPlace = (words: string) => lexiconTags(words).some((t) => LEXICON_PLACE_TAGS.has(t))
/** Tags a word of a listed place's name may carry in the lexicon ("Great Britain", "Siberia"). */
const PLACE_WORD_TAGS = new Set(['Place', 'City', 'Country', 'Region', 'ProperNoun'])

/**
 * Whether `name` is a city, province or country of the place lists (place-names.ts) that the lexicon
 * does not know as anything else: each word unknown to it or known as (part of) a place's name, and a
 * one-word name not an adjective by its ending (the lists hold "Central", "Cardinal"). The tagger's
 * lexicon knows few places outside the English-speaking world ("Smolensk", "Bahir Dar", "Rogaland") and
 * reads them as untyped nouns; the lists name the places of the world's cities.
 */
export function isListedPlace(name: string): boolean {
  if (listedRanks(name).length === 0) return false
  const words = name.split(/\s+/)
  if (!words.every((w) => lexiconTags(w).every((t) => PLACE_WORD_TAGS.has(t)))) return false
  return words.length > 1 || !nlp(name.toLowerCase()).has('#Adjective')
}

/** Continents and world regions: what a country lies in (the lexicon tags them as any place). */
const CONTINENTS = new Set([
  'africa',
  'asia',
  'europe',
  'oceania',
  'antarctica',
  'americas',
  'north america',
  'south america',
  'latin america',
  'central america',
  'middle east',
])

/** An initialism with its periods ("U.S.", "U.K."): ranked as written without them ("US", "UK"). */
const INITIALISM = /^(?:\p{Lu}\.){2,}$/u

/** A name as the place lists write it: an initialism without its periods ("U.S." as "US"). */
export const withoutInitialismPeriods = (name: string) =>
  INITIALISM.test(name) ? name.replaceAll('.', '') : name

/** Ranks of places, smallest first: a place lies in one of a higher rank. */
export const PLACE_RANK = { city: 1, region: 2, country: 3, continent: 4 } as const

/**
 * A place's rank (`PLACE_RANK`) where the lexicon knows it as a city, a region (a state, a province), a
 * country or a continent, else where the place lists (place-names.ts) hold it as one kind only ("Buchach",
 * "Drohobych": cities; not "Chihuahua", a city and a state); undefined for any other name. A place lies
 * only in one of a higher rank, but for regions within regions ("Sibiu County, Transylvania").
 */
export function placeRank(name: string): number | undefined {
  if (INITIALISM.test(name)) return placeRank(withoutInitialismPeriods(name))
  const words = name.toLowerCase()
  if (CONTINENTS.has(words)) return PLACE_RANK.continent
  const tags = lexiconTags(words)
  if (tags.includes('Country')) return PLACE_RANK.country
  if (tags.includes('Region')) return PLACE_RANK.region
  if (tags.includes('City')) return PLACE_RANK.city
  const listed = listedRanks(name)
  return listed.length === 1 ? listed[0] : undefined
}

/** The ranks (`PLACE_RANK`) of the kinds the place lists hold `name` as, as written: none, one or more. */
function listedRanks(name: string): number[] {
  const ranks: number[] = []
  if (LISTED_CITIES.has(name)) ranks.push(PLACE_RANK.city)
  if (LISTED_REGIONS.has(name)) ranks.push(PLACE_RANK.region)
  if (LISTED_COUNTRIES.has(name)) ranks.push(PLACE_RANK.country)
  return ranks
}

/** A town's kinds, ending a team's home ("Kansas City", "Orange County"). */
const TOWN_KINDS = new Set('city county state province town borough'.split(' '))
/** Whether the lexicon knows `words` as a city or a region (a state, a province): a team's home. */
const lexiconHome = (words: string) =>
  lexiconTags(words).some((t) => t === 'City' || t === 'Region')

/**
 * A sports team's or a newspaper's name: a city or a region, then one capitalised plural ("Edmonton
 * Oilers", "Kansas City Kings", "Beijing Ducks", "Leicester Tigers", "Los Angeles Times"), the convention
 * of club names in English. The home is a city or region the tagger's lexicon knows or a name ending with
 * a town's kind ("Kansas City", `TOWN_KINDS`); not a country ("U.S.-Japan Relations", "Netherlands
 * Antilles"). A plural of a place's kind ("Palm Springs", "Cayman Islands") or of an event's ("Berlin
 * Olympics", "Geneva Conventions") ends none, and a name the lexicon knows as a place ("Buenos Aires") is
 * none. Re-DocRED dev's gold mentions opening with a place the lexicon knows and ending with a capitalised
 * plural: 31 organisations (teams, newspapers, "Academy of Natural Sciences"), 8 events or works and 6
 * places (3 of them ending with a place kind's plural: "Miami Shores", "Hampton Roads").
 */
export function isTeamName(name: string): boolean {
  const words = name.split(/\s+/)
  if (words.length < 2 || words.length > 4 || !isProperPhrase(name)) return false
  const last = words.at(-1)!
  if (!/^\p{Lu}\p{Ll}+s$/u.test(last) || /(?:ss|us|is)$/.test(last)) return false
  const lower = last.toLowerCase()
  const singular = lower.slice(0, -1)
  if (
    PLACE_PLURALS.has(lower) ||
    PLACE_HEADS.has(lower) ||
    PLACE_HEADS.has(singular) ||
    OTHER_HEADS.has(singular) ||
    OTHER_HEADS.has(lower) ||
    lexiconPlace(lower) ||
    lexiconPlace(name.toLowerCase())
  )
    return false
  const home = words.slice(0, -1)
  return (
    (home.length > 1 && TOWN_KINDS.has(home.at(-1)!.toLowerCase())) ||
    lexiconHome(home.join(' ').toLowerCase())
  )
}

/** Place heads that name a state: a name ending with one is a place, whatever the tagger said. */
const REALM_HEADS = new Set(
  'empire republic duchy principality caliphate sultanate khanate emirate'.split(' '),
)

/** Whether a capitalised phrase names a state by its kind ("Dutch Republic", "Ottoman Empire"). */
export const namesRealm = (name: string) =>
  isProperPhrase(name) && REALM_HEADS.has(name.split(/\s+/).at(-1)!.toLowerCase())

/** Heads of named events, works and awards: capitalised, but neither a place nor an organisation. */
const OTHER_HEADS = new Set(
  (
    'olympics games championship championships cup war wars award awards prize festival tournament ' +
    'series season album song single film show novel book treaty act battle election elections ' +
    'revolution crisis medal trophy grand prix open siege massacre invasion conquest declaration ' +
    'convention order'
  ).split(' '),
)

/**
 * Heads of named events and awards that are no one's surname: a name the tagger took for a person that
 * ends with one ("Summer Olympics": "Summer" is a given name) is none. Not "battle", "show" or "book".
 */
const UNMISTAKABLE_OTHER_HEADS = new Set(
  (
    'olympics games championship championships cup war wars award awards prize festival tournament ' +
    'treaty election elections revolution medal trophy massacre invasion'
  ).split(' '),
)

/** Lower-case words a proper name may hold between capitalised ones ("University of Alberta"). */
const CONNECTORS = new Set([
  'of',
  'the',
  'de',
  'du',
  'des',
  'la',
  'le',
  'for',
  'and',
  'on',
  'von',
  'van',
  'der',
  'y',
  '&',
  'di',
  'del',
  'della',
  'delle',
  'dei',
  'degli',
  'da',
  'do',
  'dos',
  'das',
  'los',
  'las',
  'el',
])

/** Whether a word names a kind of organisation or realm ("College", "Party", "Kingdom"). */
export function isOrganizationHead(word: string): boolean {
  const w = word.toLowerCase()
  return (
    ORGANIZATION_HEADS.has(w) || ORGANIZATION_OPENERS.has(w) || w === 'kingdom' || w === 'house'
  )
}

/**
 * The type of a name "<kind> of <name>" read as one ("University of Alberta", "Duchy of Burgundy", "Battle
 * of Midway", "War of the Spanish Succession"), from the kind word before "of": an organisation, a place, or
 * a named event, work or award (`CONCEPT`); null when the word names no kind.
 */
export function ofPhraseLabel(kind: string): 'ORGANIZATION' | 'PLACE' | 'CONCEPT' | null {
  const w = kind.toLowerCase()
  if (isOrganizationHead(w)) return 'ORGANIZATION'
  if (PLACE_HEADS.has(w)) return 'PLACE'
  return OTHER_HEADS.has(w) ? 'CONCEPT' : null
}

/** Whether a word names a kind of event, work or award ("War", "Act", "Cup"): its numbering follows it. */
export function isEventOrWorkHead(word: string): boolean {
  return OTHER_HEADS.has(word.toLowerCase())
}

/** Whether a word of the phrase names a kind of organisation, place, event or work ("Records", "River", "Cup"). */
export function hasKindWord(name: string): boolean {
  return name
    .toLowerCase()
    .split(/\s+/)
    .some((w) => ORGANIZATION_HEADS.has(w) || PLACE_HEADS.has(w) || OTHER_HEADS.has(w))
}

/** Every word capitalised (or a digit-led word, or a connector inside), first and last capitalised. */
export function isProperPhrase(name: string): boolean {
  const words = name.split(/\s+/)
  const cap = (w: string) => /^[\p{Lu}0-9]/u.test(w)
  return (
    cap(words[0]!) &&
    /^\p{Lu}/u.test(words.at(-1)!) &&
    words.every((w, i) => cap(w) || (i > 0 && i < words.length - 1 && CONNECTORS.has(w)))
  )
}

/**
 * The abbreviations sports clubs carry before or after their name ("FK Teleoptik", "AFC Bournemouth", "SC
 * Freiburg", "Puskás Akadémia FC": Fudbalski klub, Sport-Club, Idrottsförening, ...), written as they are:
 * a club designator is an organisation head that precedes the name as often as it follows it. Two-letter
 * abbreviations that are also common initials of people ("AC", "AJ", "CJ") are not listed.
 */
const CLUB_DESIGNATORS = new Set(
  (
    'FC AFC CF SC FK SK BK IF IK HC NK KV SV VfB VfL VfR TSV FSV MSV KSV BSC SpVgg ' +
    'EK HK PFC GNK SSC'
  ).split(' '),
)

/** A name of two words or more opening or ending with a club designator, as written. */
function isClubName(name: string): boolean {
  const words = name.split(/\s+/)
  return (
    words.length > 1 &&
    isProperPhrase(name) &&
    (CLUB_DESIGNATORS.has(words[0]!) || CLUB_DESIGNATORS.has(words.at(-1)!))
  )
}

/** The labels of names, typed by the tagger or not (not dates, amounts or events). */
export const NAME_LABELS: ReadonlySet<string> = new Set([
  'CONCEPT',
  'PERSON',
  'PLACE',
  'ORGANIZATION',
])

/**
 * One word with a capital inside it after a small letter ("PostgreSQL", "GitHub", "JavaScript",
 * "iPhone"): the word shape of product, brand and software names (the shape feature of Ratinov & Roth,
 * CoNLL 2009), which name no place after "in" or "at" ("lives in PostgreSQL"). Of Re-DocRED dev's gold
 * mentions of this shape, 21 are MISC, 10 ORG, 5 PER and 3 LOC, of which two are surnames' prefixes
 * ("McConachie"): names opening with one (Mc, Mac, De, La, Le, Di, Du, Van, Von, O') keep the context rule
 * ("McAllen", "DeKalb", "LaSalle").
 */
const INNER_CAPITAL = /^(?!(?:Mc|Mac|De|Di|Du|La|Le|Van|Von|O')\p{Lu})\p{L}*\p{Ll}\p{Lu}\p{L}*$/u
/**
 * Capitals, then small letters ("SQLite", "URLs", "PDFs", "MPs"): a software name or an acronym's plural.
 * Re-DocRED dev's gold mentions holding a word of this shape are 8 ORG and 6 MISC, none a place.
 */
/** A name in capitals only, as an acronym is written ("NASA", "JSON", "QUANTITY"). */
export const CAPITALS_ONLY = /^\p{Lu}{2,}$/u
const CAPITALS_THEN_SMALL = /^\p{Lu}{2,}\p{Ll}+$/u
/**
 * One word of a product's, a program's or an acronym plural's shape (`INNER_CAPITAL`,
 * `CAPITALS_THEN_SMALL`). Of the distinct one-word gold names of either shape in Re-DocRED dev, one is
 * a place ("FiDi", a district's nickname), 12 are organisations and 18 others.
 */
const productShaped = (name: string) => INNER_CAPITAL.test(name) || CAPITALS_THEN_SMALL.test(name)

/** Prepositions of location before a name: "born in Mediaș", "near the Hudson". */
const PLACE_CONTEXT = /\b(?:in|near|at|outside|across|throughout)\s+(?:the\s+)?$/i

/**
 * "in" governed by a prize or a degree: the name after it is the field, not a place ("the Nobel Prize in
 * Physics", "a PhD in Economics"). The noun a preposition attaches to decides what its object denotes
 * (the context features of Nadeau & Sekine 2007); nouns that also take a place ("a medal in London",
 * "professor in Berlin") are not listed.
 */
const FIELD_CONTEXT =
  /\b(?:prize|prizes|degree|degrees|doctorate|phd|ph\.d\.|diploma|master's|masters|bachelor's|bachelors|bsc|msc)\s+in\s+$/i

/** Nouns of a place's surroundings ("the Kasso area", "the Paris suburbs"). */
const AREA_NOUNS = new Set(
  (
    'area areas suburb suburbs outskirts vicinity ' +
    'neighbourhood neighborhood metropolitan countryside'
  ).split(' '),
)
const WORD_AFTER = /^\s+(\p{Ll}[\p{Ll}'-]*)/u
/**
 * Whether the name modifies the common noun right after it ("in the Allow header", "in the Kurdish
 * language", "in Drosophila cells") or owns it ("at Padden's request"): then the phrase a preposition
 * governs is that noun's, and the preposition says nothing of the name. The tagger reads the word in
 * context, since its lexicon alone holds few nouns' plurals. On Re-DocRED dev: LOC-P 0.8266 -> 0.8341,
 * LOC-R 0.7706 -> 0.7671 (benchmarks/LOG.md, 2026-12-06).
 */
function modifiesNounAfter(name: string, after: string): boolean {
  // "At Padden's request": the preposition governs what the name's possessive determines.
  if (POSSESSIVE_AFTER.test(after)) return true
  const word = WORD_AFTER.exec(after)?.[1]
  // "in the Kasso area", "in the Hudson valley": a place's kind or its surroundings name the place.
  if (word === undefined || PLACE_HEADS.has(word) || AREA_NOUNS.has(word)) return false
  const tags = nlp(`the ${name} ${word}`).terms().last().json()[0]?.terms?.[0]?.tags ?? []
  return tags.includes('Noun') && !tags.includes('Pronoun')
}

/**
 * Verbs and prepositions an organisation follows: "published by", "produced by", "signed to", "played for",
 * "by the", "aired on" (a person the cues of `personByCue` found is typed before this is read).
 * Chosen on Re-DocRED dev (gold mentions' preceding words; docs/local-extractor.md).
 */
const ORGANIZATION_CONTEXT =
  /(?:\b(?:published|released|developed|produced|distributed|owned|operated|acquired|manufactured|marketed|broadcast|signed|played|playing|plays|joined|joining|founded|co-founded|formed|sponsored|employed|hired)\s+(?:by|to|with|for|on|from)?\s*(?:the\s+)?|\b(?:by|from)\s+the\s+|\b(?:aired|airs|airing)\s+on\s+(?:the\s+)?|\bsigned\s+)$/i

/**
 * Work before a name: "works at Spotify", "a job at Zalando", "worked for Halliburton", "an engineer at
 * Stripe". The tagger takes an unknown name after "at" for a place; one works at an organisation. A place
 * the lexicon knows stays a place ("worked for Canada"). Our evaluation sets write few such phrases
 * (Re-DocRED dev: ORG-R 0.6039 -> 0.6047; LoCoMo dev: two, "a job at Door"); notes about people write more.
 */
const EMPLOYER_CONTEXT =
  /\b(?:(?:work(?:s|ed|ing)?|jobs?|internship|interned)\s+(?:at|for)|(?:engineers?|developers?|researchers?|scientists?|interns?|colleagues?|co-?workers?|employees?|managers?|staff|professors?)\s+at)\s+(?:the\s+)?$/i

/**
 * A club's name where a city's or a person's would otherwise be read: a footballer's transfers ("his
 * career with Porto", "on loan at Rio Ave", "loaned him to Everton", "signed by Chelsea", "signed for
 * Málaga"). A club is named by its city, so a place the lexicon knows is no exception here, unlike
 * `EMPLOYER_CONTEXT` ("worked for Canada"). Not "played for" ("played for England": a national team, which
 * the gold sets call by the country) nor "career at" ("his career at Craiova", the city in Re-DocRED).
 */
const CLUB_CONTEXT =
  /\b(?:(?:his|her|their)\s+(?:professional\s+|senior\s+|playing\s+)?career\s+with|on\s+loan\s+(?:at|to|with|from)|loaned\s+(?:\w+\s+)?(?:to|from)|signed\s+(?:by|for))\s+(?:the\s+)?$/i

/**
 * A capitalised name closing `before` as an item of a list: "Vitesse Arnhem, ", "Everton and ", "St.
 * Pauli, ". A period ends only a short word ("St."), so a sentence's end ("Chelsea. Paris, ") is no item.
 */
const LIST_ITEM_BEFORE =
  /\p{Lu}(?:\p{L}{0,2}\.|[\p{L}\p{M}'’-]*)(?:\s+\p{Lu}(?:\p{L}{0,2}\.|[\p{L}\p{M}'’-]*))*\s*(?:,\s*(?:and\s+)?|\s+and\s+)$/u

const CLUB_LIST_CHARS = 400

/**
 * Whether a club's cue (`CLUB_CONTEXT`) comes right before the name, or before a list the name
 * continues ("loaned him to Vitesse Arnhem, Everton and Málaga": three clubs, where the list rule left
 * "Everton" the town and "Málaga" untyped, its typed items disagreeing).
 */
function clubBefore(before: string): boolean {
  // The list's tail only: a cue and a few clubs fit in it, and a long run of capitalised words costs
  // the unanchored item pattern time quadratic in its length.
  for (let text = before.slice(-CLUB_LIST_CHARS), items = 0; items <= 8; items++) {
    if (CLUB_CONTEXT.test(text)) return true
    const item = LIST_ITEM_BEFORE.exec(text)
    if (item === null) return false
    text = text.slice(0, item.index)
  }
  return false
}

/**
 * Schooling before a name: "graduated from Tulane", "educated at Eton", "a degree from Harvard", "an
 * alumnus of Stanford". A place the lexicon knows stays a place, as with `EMPLOYER_CONTEXT`: "educated at
 * Montreal" is the city in Re-DocRED's gold set.
 */
const SCHOOL_CONTEXT =
  /\b(?:graduated\s+from|graduate\s+of|educated\s+at|degrees?\s+from|alumn(?:us|a|i|ae)\s+of)\s+(?:the\s+)?$/i

/**
 * Membership, and the offices that head an organisation, before its name: "a member of", "CEO of",
 * "founder of". Not "president of" (of a country as often) or "director of" (of a film). A name
 * followed by a possessive is not the body one belongs to ("a member of Plymouth's team").
 */
const MEMBERSHIP_CONTEXT =
  /\b(?:members?|CEO|chairman|chairwoman|chairperson|founder|co-founder)\s+of\s+(?:the\s+)?$/i
const POSSESSIVE_AFTER = /^['’](?:s\b|\s)/

/**
 * Whether the words around a name say it is an organisation's: a verb or preposition an organisation
 * follows (`ORGANIZATION_CONTEXT`: "developed by", "signed to") or membership of it ("a member of").
 */
export function organizationByContext(before: string, after: string): boolean {
  return (
    (ORGANIZATION_CONTEXT.test(before) && !PLACE_CONTEXT.test(before)) ||
    (MEMBERSHIP_CONTEXT.test(before) && !POSSESSIVE_AFTER.test(after))
  )
}

/** Words that address someone right before a name ("Hey Mel, Paris was lovely", "Thanks Jon, ..."). */
const ADDRESS_BEFORE =
  /(?:^|[:!?.]\s*|\b(?:hey|hi|hello|thanks|thank you|dear|oh|yes|no|well|bye|congrats|congratulations|wow|ok|okay)[\s,!]*)$/i
/** "in" after a verb or noun that takes a person with it ("believe in", "confided in", "interest in"). */
const PERSON_AFTER_IN =
  /\b(?:believ\w*|confid\w*|interest\w*|trust\w*|faith|pride|proud|invest\w*)\s+in\s+$/i
const PLACE_BEFORE_NAME = /\b(?:in|near)\s+$/i
const REALM_AFTER = /^,\s*(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*)/u

/**
 * Where a one-word "person" of the tagger (a first name, "Nancy", "Troy", "Victoria") is a place: followed by
 * a comma and a state or country the lexicon knows ("Troy, New York", "Sullivan, Missouri"), unless it is
 * addressed ("Hey Mel, France was ..."), or after "in" or "near" ("died in Nancy"), unless that "in"
 * goes with believing or confiding ("confided in Nancy") or a possessive follows ("in Mel's room"). A
 * one-word name that is part of a person's full name in the text was read as that person before.
 */
function placeByItsSurroundings(before: string, after: string): boolean {
  const realm = REALM_AFTER.exec(after)?.[1]?.replace(/\.$/, '')
  if (
    realm !== undefined &&
    lexiconTags(realm.toLowerCase()).some((t) => t === 'Region' || t === 'Country') &&
    !ADDRESS_BEFORE.test(before)
  )
    return true
  return (
    PLACE_BEFORE_NAME.test(before) && !PERSON_AFTER_IN.test(before) && !POSSESSIVE_AFTER.test(after)
  )
}

/**
 * The label a mention should carry: `label` as tagged, unless the head of a proper noun phrase or the
 * preposition before it says otherwise. `before` is the sentence text up to the mention, `after` the text
 * after it; `places` are names already typed as places in the text (for "Mediaș, Transylvania").
 */
export function properNameType(
  name: string,
  label: string,
  before: string,
  after: string,
  isPlace: (name: string) => boolean,
): string {
  if (!NAME_LABELS.has(label)) return label
  // A club's designator outranks every tag, a person's included ("FK Teleoptik").
  if (isClubName(name)) return 'ORGANIZATION'
  // A country's initialism, with or without its periods ("US", "U.S", "U.K."), is a place whatever the tagger said.
  if (PLACE_INITIALISMS.has(name.replace(/\./g, ''))) return 'PLACE'
  // A person or a place is named: a phrase without a capital the tagger called a person ("first woman")
  // or a place ("cork", "fridge", "guinea" of "guinea pig") is a concept. A "person" ending with an
  // organisation head no one has as a surname is an organisation (`UNMISTAKABLE_ORGANIZATION_HEADS`, or
  // opening with one in another language), one ending with such a place head a place
  // (`UNMISTAKABLE_PLACE_HEADS`).
  const words = name.toLowerCase().split(/\s+/)
  const head = words.at(-1)!
  const numbered = words.length > 1 && /^(?:[ivxlc]+|\d+)$/.test(head)
  const kind = numbered ? words.at(-2)! : head
  if (label === 'PERSON') {
    if (!/\p{Lu}/u.test(name)) return 'CONCEPT'
    const written = name.split(/\s+/)
    // Nor one ending with a word in small letters: "Navy rear admiral" (the tagger's, from its titles).
    if (/^\p{Ll}/u.test(written.at(-1)!)) return 'CONCEPT'
    // No one's name holds a computing initialism: "REST API", "PostgreSQL URL", "Streamable HTTP" (the
    // tagger's people in this repository's docs). Other initialisms may be a stage name's ("DJ Shadow").
    if (written.some((w) => COMPUTING_INITIALISMS.has(w))) return 'CONCEPT'
    // Nor a word of a religion ("Roman Catholic", "Eastern Orthodox"): the name of a faith or church.
    if (written.some((w) => RELIGION_WORDS.has(w))) return 'CONCEPT'
    // Nor is one word of a product's shape ("PostgreSQL", "GitHub", "iPhone"; not "McAllen", "DeShawn"),
    // nor a name opening with a number word ("Two MCP servers", "Three Dog Night").
    if (words.length === 1 && productShaped(name)) return 'CONCEPT'
    if (lexiconTags(words[0]!).includes('Cardinal')) return 'CONCEPT'
    // Nor is one word in capitals the tagger knows as a first name ("STAN", "ARIA"): an acronym.
    if (words.length === 1 && CAPITALS_ONLY.test(name) && name.length >= 3) return acronymType(name)
    if (words.length > 1 && UNMISTAKABLE_OTHER_HEADS.has(kind)) return 'CONCEPT'
    if (OFFICE_HEADS.has(head) && !written.some(isFirstName)) return 'CONCEPT'
    if (words.length > 1 && UNMISTAKABLE_PLACE_HEADS.has(head)) return 'PLACE'
    if (isPlaceByOpener(name, words, true)) return 'PLACE'
    if (words.length === 1 && clubBefore(before)) return 'ORGANIZATION'
    if (words.length === 1 && placeByItsSurroundings(before, after)) return 'PLACE'
    return words.length > 1 &&
      (UNMISTAKABLE_ORGANIZATION_HEADS.has(head) || ORGANIZATION_OPENERS.has(words[0]!))
      ? 'ORGANIZATION'
      : label
  }
  if (label === 'PLACE' && !/\p{Lu}/u.test(name)) return 'CONCEPT'
  // Nor is a nationality before a place's kind ("Venezuelan city", "German village"): a common phrase,
  // whose nationality is a place of its own.
  const written = name.split(/\s+/)
  const nationality = written.length > 2 && isDemonym(written.slice(0, 2).join(' ')) ? 2 : 1
  if (
    label === 'PLACE' &&
    written.length > nationality &&
    /^\p{Ll}+$/u.test(written.at(-1)!) &&
    isDemonym(written.slice(0, nationality).join(' '))
  )
    return 'CONCEPT'
  // Nor is a word of a product's shape the tagger calls a place ("graphologyView", "TeX").
  if (label === 'PLACE' && productShaped(name)) return 'CONCEPT'
  // "reading the JSON": the tagger calls an acronym after "the" an organisation; a data format's or a
  // common noun's never is one.
  if (label === 'ORGANIZATION' && CAPITALS_ONLY.test(name) && notAnAcronym(name)) return 'CONCEPT'
  // A numbered road ("U.S. Route 20", "Interstate 287"), whose number ends no proper phrase.
  if (numbered && ROAD_KINDS.has(kind) && /^\p{Lu}/u.test(name)) return 'PLACE'
  // The tagger's organisation lexicon also fires on common nouns ("school board", "Cuban government").
  if (!isProperPhrase(name)) return label === 'ORGANIZATION' ? 'CONCEPT' : label
  // An acronym the tagger does not know ("ASCAP", "MKEK") names an organisation far more often than not
  // (a country's initialism returned a place above).
  if (label === 'CONCEPT' && /^\p{Lu}{2,6}$/u.test(name)) return acronymType(name)
  // A named event, work or award keeps its type, its numbering ("World War I", "Super Bowl 50") or its
  // "of" part ("Battle of Midway") after the kind word included: "in" before it makes no place of it.
  if (
    OTHER_HEADS.has(kind) ||
    words.some((w, i) => OTHER_HEADS.has(w) && (words[i + 1] === 'of' || /\d/.test(name)))
  )
    return label
  // A head word alone opening a sentence is the common noun capitalised ("Records come back as ...",
  // a heading "Records deeper than ..."), not a name.
  if (ORGANIZATION_HEADS.has(head) && (words.length > 1 || before.trim() !== ''))
    return 'ORGANIZATION'
  if (words.length > 1 && ORGANIZATION_OPENERS.has(words[0]!)) return 'ORGANIZATION'
  // A state named by its kind ("Roman Empire", "Dutch Republic"), which the tagger's lexicon calls an
  // organisation, is a place.
  if (words.length > 1 && REALM_HEADS.has(head)) return 'PLACE'
  // "University of Alberta", "Royal Bank of Scotland"; "House of Commons", "Washington House of
  // Representatives" and "House of Hohenzollern" (chambers, a dynasty), which the tagger takes for places.
  const ofHead = (w: string, i: number) =>
    words[i + 1] === 'of' && i + 2 < words.length && (ORGANIZATION_HEADS.has(w) || w === 'house')
  if (words.some(ofHead)) return 'ORGANIZATION'
  // "Kings College London", "Loyola University Chicago": an organisation head, then the city it is in.
  if (words.length >= 3 && ORGANIZATION_HEADS.has(words.at(-2)!) && !PLACE_HEADS.has(head))
    return 'ORGANIZATION'
  if ((label === 'CONCEPT' || label === 'PLACE') && isTeamName(name)) return 'ORGANIZATION'
  if ((label === 'CONCEPT' || label === 'PLACE') && clubBefore(before)) return 'ORGANIZATION'
  if (
    (label === 'CONCEPT' || label === 'PLACE') &&
    (EMPLOYER_CONTEXT.test(before) || SCHOOL_CONTEXT.test(before)) &&
    !lexiconPlace(name.toLowerCase())
  )
    return 'ORGANIZATION'
  if (label !== 'CONCEPT') return label
  if (words.length > 1 && PLACE_HEADS.has(head)) return 'PLACE'
  if (isPlaceByOpener(name, words, false)) return 'PLACE'
  if (/\d/.test(name)) return label
  if (organizationByContext(before, after)) return 'ORGANIZATION'
  if (isListedPlace(name)) return 'PLACE'
  // An identifier ("ENGRAM_PLUGINS") is no place either.
  if (productShaped(name) || name.includes('_')) return label
  // "Mediaș, Transylvania": a name beside a place, separated by a comma, is a place of that list.
  const next = /^,\s*(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*)/u.exec(after)?.[1]
  const previous = /(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*),\s*$/u.exec(before)?.[1]
  if (
    (PLACE_CONTEXT.test(before) &&
      !FIELD_CONTEXT.test(before) &&
      !modifiesNounAfter(name, after)) ||
    (next !== undefined && isPlace(next)) ||
    (previous !== undefined && isPlace(previous))
  )
    return 'PLACE'
  return label
}

/** "country of Venezuela", "nation of Tonga": kinds a place's phrase may name it by, besides `PLACE_HEADS`. */
const PHRASE_ONLY_PLACE_HEADS = ['country', 'nation']
const KIND_OF = new RegExp(
  `^(?:.*\\s)?(?:${[...PLACE_HEADS, ...PHRASE_ONLY_PLACE_HEADS].join('|')})\\s+of\\s+(\\p{Lu}[\\p{L}.'-]*(?:\\s+\\p{Lu}[\\p{L}.'-]*)*)$`,
  'u',
)
const DIRECTION = new RegExp(
  `^(?:${COMPASS_WORDS}|upper|lower|greater|downtown|rural)\\s+(\\p{Lu}[\\p{L}.'-]*(?:\\s+\\p{Lu}[\\p{L}.'-]*)*)$`,
  'u',
)

/**
 * The place a descriptive phrase names: "town of Guilderland", "Canadian province of Alberta" ->
 * "Guilderland", "Alberta"; "northern England" -> "England". Null when the phrase is not of that shape.
 * The apposition of a place's kind and its name (Nadeau & Sekine 2007, context features).
 */
export function placeInPhrase(name: string): string | null {
  return KIND_OF.exec(name)?.[1] ?? DIRECTION.exec(name)?.[1] ?? null
}
