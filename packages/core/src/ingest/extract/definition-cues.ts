/**
 * The kind a text gives a name where it defines it: "Roketsan is a Turkish weapons manufacturer",
 * "Everton, an English football club, ...", "Herman is a town in Dodge County". A copula or an
 * apposition right after the name, then an indefinite or definite noun phrase whose head names a kind of
 * organisation, place or person. These are the "X is a Y" and "X, a Y" patterns of Hearst ("Automatic
 * acquisition of hyponyms from large text corpora", COLING 1992) read as the type of a named entity, and
 * the document-centred "one name, one type" of Mikheev, Moens & Grover ("Named entity recognition without
 * gazetteers", EACL 1999): the definition types every mention of that name in the text, over the tagger's
 * lexicon, which knows "Everton" as a town and "Seddon Atkinson" as a person. The lists are common
 * nouns that name a kind of thing; no name is listed. Chosen on Re-DocRED dev (docs/local-extractor.md).
 */

const ORGANIZATION_KINDS =
  'company corporation manufacturer maker firm business conglomerate retailer airline bank band group ' +
  'duo trio quartet ensemble orchestra choir club team franchise party organization organisation ' +
  'association federation league union society foundation charity agency institute institution ' +
  'university college school academy seminary conservatory newspaper magazine journal publisher label ' +
  'studio network broadcaster brewery subsidiary cooperative militia regiment ministry council committee ' +
  'commission legislature denomination'

const PLACE_KINDS =
  'village town city municipality commune county district province region state country island river ' +
  'lake mountain hill valley suburb neighbourhood neighborhood borough parish township hamlet settlement ' +
  'community capital port peninsula bay sea archipelago comune frazione zone woreda locality ward ' +
  'subdistrict prefecture oblast canton voivodeship governorate krai okrug raion shire territory ' +
  'arrondissement creek stream tributary glacier volcano plateau desert forest reservoir strait gulf ' +
  'cape atoll islet fjord lagoon estuary waterfall canyon ridge peak'

/** Role nouns of people (as `person-cues.ts`'s role before a name): "politician", "footballer", "actress". */
const PERSON_KINDS =
  'politician footballer cricketer player singer songwriter actor actress director producer writer author ' +
  'poet novelist journalist painter sculptor architect composer musician rapper dancer designer ' +
  'photographer businessman businesswoman entrepreneur lawyer judge scientist engineer physicist chemist ' +
  'mathematician historian philosopher economist diplomat officer general admiral soldier priest bishop ' +
  'cardinal monk nun king queen prince princess emperor empress duke duchess coach manager wrestler ' +
  'boxer athlete swimmer cyclist skier jockey golfer drummer guitarist bassist pianist violinist ' +
  'television presenter broadcaster model comedian activist'

/** The kinds a definition gives. */
export type DefinedKind = 'ORGANIZATION' | 'PLACE' | 'PERSON'

const KIND = new Map<string, DefinedKind>()
for (const w of PERSON_KINDS.split(' ')) KIND.set(w, 'PERSON')
for (const w of PLACE_KINDS.split(' ')) KIND.set(w, 'PLACE')
// Organisation last: "broadcaster" names a network more often than a presenter in a definition.
for (const w of ORGANIZATION_KINDS.split(' ')) KIND.set(w, 'ORGANIZATION')

/**
 * Words that end a noun phrase: its head is the word before one of them. A determiner opens another
 * phrase: "is the railway station serving the city" stops before "the city", which it does not define.
 */
const PHRASE_END = new Set(
  (
    'of in at on for from with by to and or that which who whose where since as based founded formed ' +
    'located established headquartered known owned operating originally consisting comprising ' +
    'active born best the a an its their his her'
  ).split(' '),
)

/** Kinds that, followed by "of", name a collection of other things. */
const COLLECTIVES = new Set(['group', 'community', 'union', 'league', 'association', 'society'])

/** Determiners that open the defining noun phrase. */
const OPENERS = /^(?:a|an|the|one\s+of\s+the)\s+/i

/** Right after the name: an optional parenthesis ("(Turkish: ...)"), then a copula or an apposition comma. */
const LINK = /^\s*(?:\([^()]{0,120}\)\s*)?(?:,\s*|\s+(?:is|was|are|were|has\s+been|had\s+been)\s+)/i

/** Words a defining phrase may hold before its head (adjectives, nationalities, compounds). */
const MAX_MODIFIERS = 5

/**
 * The label `after` (the sentence text right after a name) defines the name as: `ORGANIZATION`, `PLACE`
 * or `PERSON`, or null when it does not define it. The head is the last word of the noun phrase that
 * follows the copula or comma, before a preposition, a clause, or punctuation ("a band member" is no
 * band; "a football club based in Bergen" is a club).
 */
export function definedKind(after: string): DefinedKind | null {
  const link = LINK.exec(after)
  if (link === null) return null
  let rest = after.slice(link[0].length)
  const opener = OPENERS.exec(rest)
  if (opener === null) return null
  rest = rest.slice(opener[0].length)
  const words: string[] = []
  let next = ''
  for (const match of rest.matchAll(/[\p{L}\p{N}'’.-]+|[^\s\p{L}\p{N}]/gu)) {
    const word = match[0].toLowerCase().replace(/\.+$/, '')
    if (!/^[\p{L}\p{N}]/u.test(word) || PHRASE_END.has(word)) {
      next = word
      break
    }
    words.push(word)
    if (words.length > MAX_MODIFIERS + 1) return null
  }
  const head = words.at(-1)
  if (head === undefined) return null
  // "a group of islands", "a community of monks": a collection of something else, not that kind.
  if (next === 'of' && COLLECTIVES.has(head)) return null
  return KIND.get(head) ?? KIND.get(singular(head)) ?? null
}

/** A lower-case kind noun right before a name: "the publisher Enix", "the band Queen". */
const KIND_BEFORE = /(?:^|[\s(])(\p{Ll}+)\s+$/u

/**
 * A kind noun, then "such as" or "including", opening a list of names: "hard rock bands such as"; in
 * lower case, or capitalised at the start of the sentence ("Bands such as"). No two quantifiers of
 * spaces meet: a long run of them costs linear time, not quadratic.
 */
const KINDS_LISTED =
  /(?:^\s*(\p{Lu}\p{Ll}+)|(?:^|\s)(\p{Ll}+))(?:\s*,)?\s+(?:such\s+as|including)\s+$/u

/** What lies between two names of one list: a comma, "and" or "or". */
const LIST_GAP = /^\s*(?:,\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s+)$/

/**
 * The kind a text gives a name just before it: a kind noun in lower case right before the name
 * ("the publisher Enix", "the band Queen"), or a kind noun opening a list with "such
 * as" or "including" ("bands such as Kamikaze, Alakran and Rata Blanca": the first name here, the others
 * by {@link continuesList}). The lexico-syntactic patterns of Hearst (COLING 1992, "NP such as NP, NP
 * and NP" and the appositive kind) read as the type of a named entity; `before` is the sentence text
 * before the name.
 */
export function kindBefore(before: string): DefinedKind | null {
  const listed = KINDS_LISTED.exec(before)
  if (listed !== null) return KIND.get(singular((listed[1] ?? listed[2]!).toLowerCase())) ?? null
  const kind = KIND_BEFORE.exec(before)
  return kind === null ? null : (KIND.get(kind[1]!) ?? null)
}

/** Whether `gap`, the text between two names, keeps them in one list ("A, B and C"). */
export function continuesList(gap: string): boolean {
  return LIST_GAP.test(gap)
}

/** "banks" -> "bank", "companies" -> "company", "cities" -> "city". */
function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

/** Small words a title holds in lower case between capitalised ones ("Tears for Fears", "Alice in Wonderland"). */
const TITLE_SMALL_WORDS = new Set(
  'of the for and or in on at to a an with from by de du des la le von van der y &'.split(' '),
)
/** A sentence opening with capitalised words and small ones up to a copula and an article. */
const OPENING_TITLE =
  /^(?:The\s+)?([^\s,;:()"“”]+(?:\s+[^\s,;:()"“”]+)+?)\s+(?:is|was|are|were)\s+(?:a|an|the)\s/u

/**
 * A title that opens a sentence defining it, where the tagger cut it at its small words: "Rage Against the
 * Machine is an American rap metal band" gave "Against" and "Machine", "Tears for Fears are an English pop
 * rock band" "Tears" and "Fears", "The Lord of the Rings is an epic novel" "Lord" and "Rings". The words up to
 * the copula are one name when every one is capitalised or a small word, one at least is small, and the
 * mentions inside are all concepts or one-word names, none a person or a place: "Danny White of the Dallas
 * Cowboys was a quarterback" and "France and Germany are the largest economies" name two each. The name is
 * typed as the definition says (`definedKind`, where the caller reads it). The same "X is a Y" pattern as
 * `definedKind` (Hearst, COLING 1992), read for the extent of X. Returns the title's span, or null.
 */
export function definedTitle(
  sentence: string,
  mentions: readonly { start: number; end: number; name: string; label: string }[],
): { name: string; start: number; end: number } | null {
  const m = OPENING_TITLE.exec(sentence)
  if (m === null) return null
  const name = m[1]!
  const words = name.split(/\s+/)
  const small = words.filter((w) => TITLE_SMALL_WORDS.has(w)).length
  if (small === 0 || !/^\p{Lu}/u.test(words.at(-1)!)) return null
  if (!words.every((w) => TITLE_SMALL_WORDS.has(w) || /^[\p{Lu}0-9]/u.test(w))) return null
  const start = m[0].indexOf(name)
  const end = start + name.length
  const inside = mentions.filter((x) => x.start < end && x.end > start)
  if (inside.length === 0 || inside.some((x) => x.start < start || x.end > end)) return null
  if (inside.some((x) => x.name === name)) return null
  const pieceOk = (x: { name: string; label: string }) =>
    x.label === 'CONCEPT' || (x.label === 'ORGANIZATION' && !/\s/.test(x.name))
  return inside.every(pieceOk) ? { name, start, end } : null
}

/** A span in double quotation marks, straight or curly, within one line. */
const QUOTED = /["“]([^"“”\n]{1,160})["”]/gu
/** The rest of a quotation that opened before the sentence: its first words up to the closing mark. */
const OPENED_BEFORE = /^([^"“”\n]{1,160})["”]/u
/** A capitalised word of a title, or one of digits or punctuation ("Cyberpunk 2077", "Three - Self"). */
const TITLE_WORD = /^(?:[\p{Lu}0-9]|[^\p{L}\p{N}]+$)/u
/** Words that quoted alone name nothing: "That", "This", "Yes". */
const NO_TITLE = new Set(
  'that this these those it yes no ok okay me you we they he she i'.split(' '),
)

/**
 * Titles a text puts in quotation marks: `reading "The Name of the Wind"`, `"Brave" by Sara Bareilles`,
 * `a piece called "Finding Freedom."`, `the single "Two Doors Down"`. The quoted words are one name when
 * the first is capitalised and every other is capitalised, digits, punctuation or a title's small word
 * (`TITLE_SMALL_WORDS`, never the last), as title case writes them; a full stop or comma inside the
 * closing quote is not part of it. The tagger cut them at their small words and typed their parts ("The
 * Lord of the Rings" gave "Lord" and "Rings", "Becoming Nicole" the person "Nicole", "Harry Potter and
 * the Philosopher's Stone" the person "Harry Potter", "Cyberpunk 2077" a date). Not a quotation of a
 * sentence ("Always look on the bright side of life": words in lower case), nor a lone pronoun or
 * interjection ("That"). A nickname between a first name and a surname (`Wilfried "Willi" Schneider`)
 * is read before (coreference's `NICKNAME`) and names the person. Returns each title's span in `sentence`.
 */
export function quotedTitles(
  sentence: string,
  openedBefore = false,
): { name: string; start: number; end: number }[] {
  const titles: { name: string; start: number; end: number }[] = []
  // Each quotation's text and the offset it starts at. The tagger starts a sentence after its opening
  // quotation mark (`Thanks! "The Alchemist" is ...`): `openedBefore` says the sentence opens inside one.
  const opening = openedBefore ? OPENED_BEFORE.exec(sentence) : null
  const quotes = opening === null ? [] : [{ raw: opening[1]!, at: 0 }]
  const rest = opening === null ? 0 : opening[0].length
  for (const q of sentence.slice(rest).matchAll(QUOTED))
    quotes.push({ raw: q[1]!, at: rest + q.index + 1 })
  for (const { raw, at } of quotes) {
    const name = raw
      .trim()
      .replace(/[.,;:!?]+$/, '')
      .trimEnd()
    if (name === '') continue
    const words = name.split(/\s+/)
    if (words.length > 12 || !/^[\p{Lu}0-9]/u.test(words[0]!)) continue
    if (!words.every((w) => TITLE_WORD.test(w) || TITLE_SMALL_WORDS.has(w))) continue
    if (TITLE_SMALL_WORDS.has(words.at(-1)!)) continue
    if (words.length === 1 && NO_TITLE.has(name.toLowerCase())) continue
    const start = at + raw.indexOf(name)
    titles.push({ name, start, end: start + name.length })
  }
  return titles
}

/** A title's opening article: "The Lord of the Rings", "A Dance with Dragons". */
const LEADING_ARTICLE = /^(?:The|A|An)\s/

/**
 * Where a title the text defined earlier (`definedTitle`) is written again in `sentence`, exactly, as a
 * whole word sequence, and the tagger cut it again: spans whose mentions all lie inside them, none the
 * whole title already. "The Lord of the Rings is an epic novel. ... the Lord of the Rings was adapted"
 * names one work twice, not "Lord" and "Rings" a second time.
 */
export function laterTitleSpans(
  sentence: string,
  title: string,
  mentions: readonly { start: number; end: number; name: string }[],
): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = []
  // Every sentence is asked about every title of its text: no pattern compiled where the title is absent.
  if (!sentence.includes(title.slice(1))) return spans
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  // A quoted title's opening article may be written in small letters later ("the Lord of the Rings").
  const written = LEADING_ARTICLE.test(title)
    ? `[${title[0]}${title[0]!.toLowerCase()}]${escaped.slice(1)}`
    : escaped
  const at = new RegExp(`(?<![\\p{L}\\p{N}])${written}(?![\\p{L}\\p{N}])`, 'gu')
  for (const m of sentence.matchAll(at)) {
    const start = m.index
    const end = start + title.length
    const inside = mentions.filter((x) => x.start < end && x.end > start)
    if (inside.length === 0 || inside.some((x) => x.start < start || x.end > end)) continue
    if (inside.some((x) => x.name === title)) continue
    spans.push({ start, end })
  }
  return spans
}
