/**
 * Sentences headed by a place ("Foots Creek is an unincorporated community in Jackson County, in the U.S.
 * state of Oregon"), which open most articles about towns, rivers and regions. The local extractor takes
 * the last mention before the verb as the subject (the subject-verb-object reading of Open IE extractors
 * such as ReVerb: Fader, Soderland & Etzioni, EMNLP 2011) but passes over places there, since a place
 * before the verb is mostly an adjunct ("In Paris, ..."). A place not introduced by a preposition heads
 * the clause instead; when nothing else does, it is the subject.
 */

import { COMPASS_WORDS } from './closed-class-words.js'
import { isDemonym, isPlaceHead, PLACE_RANK, placeRank } from './proper-name-type.js'

/** A preposition (with an optional article) right before a mention: the mention is its object. */
const PREPOSITION_BEFORE =
  /\b(?:in|at|near|from|to|into|onto|on|of|by|across|within|outside|inside|throughout|around|between|along|through|via|for|with|towards?|off|over|under|beyond|upon|among|against|about)\s+(?:the\s+)?$/i

/** Whether a place mention preceded by `before` (the sentence text before it) can be a subject. */
export function placeCanBeSubject(before: string): boolean {
  return !PREPOSITION_BEFORE.test(before)
}

/** A mention as the statement rules read it: its text span in the sentence and its type. */
export interface ClauseMention {
  readonly name: string
  readonly label: string
  readonly start: number
  readonly end: number
}

/**
 * A locative word right before a place, with a compass word between: "in Jackson County", ", Oregon",
 * "state of Oregon", "in northern Poland", ", northeastern Spain", "of central Italy".
 */
const LOCATIVE_BEFORE = new RegExp(
  `(?:\\b(?:in|at|near|within|of)\\s+(?:the\\s+)?|,\\s*)(?:(?:${COMPASS_WORDS})\\s+)?$`,
  'i',
)

/**
 * One to three words in small letters after a nationality, ending its phrase with a place's kind: "a
 * Venezuelan city in ...", "an Austrian river.", "a German mountain village".
 */
const KIND_PHRASE =
  /^\s+((?:\p{Ll}+\s+){0,2}?\p{Ll}+)(?=\s+(?:in|of|on|at|near|from|by|to|with|and|or|that|which|whose|located|situated|where)\b|\s*[,.;:()]|\s*$)/u
const PLACE_KIND_AFTER = (after: string): boolean => {
  const words = KIND_PHRASE.exec(after)?.[1]?.split(/\s+/)
  return words !== undefined && isPlaceHead(words.at(-1)!)
}

/**
 * A comma and a conjunction opening a clause of its own, with its own subject: "Sicily is farther, whilst the
 * island nation of Malta is to the east" says nothing of where Sicily lies after it.
 */
const CLAUSE_BREAK = /,\s*(?:whilst|while|whereas|although|though|but)\b/i

/**
 * What a sentence headed by a place says about it ("Foots Creek is an unincorporated community in
 * Jackson County, in the U.S. state of Oregon"): a description of the place rather than something that
 * happened, so relationships of the place and no event. The first named thing after the verb is its
 * object, under the verb's predicate; each other place after the verb, up to a clause of its own
 * (`CLAUSE_BREAK`), behind a locative word ("in", "of", a comma) is where it lies (`LOCATED_IN`), the
 * place-hierarchy pattern of encyclopaedic definitions (Hearst-style lexico-syntactic patterns: Hearst,
 * COLING 1992), unless the lexicon or the place lists rank it no higher than the subject (`byRank`) or it
 * is a nationality.
 */
export function placeStatements(
  sentence: string,
  mentions: readonly ClauseMention[],
  subject: number,
  verbEnd: number,
  isNamed: (m: ClauseMention) => boolean,
): { object: number; located: boolean }[] {
  const out: { object: number; located: boolean }[] = []
  const self = mentions[subject]!.name.toLowerCase()
  let objectTaken = false
  const clause = CLAUSE_BREAK.exec(sentence.slice(verbEnd))
  const end = clause === null ? sentence.length : verbEnd + clause.index
  mentions.forEach((m, i) => {
    if (i === subject || m.start < verbEnd || m.start >= end || m.name.toLowerCase() === self)
      return
    const after = sentence.slice(m.end)
    // "a small Venezuelan city", "an Austrian river": the subject lies in the country.
    const ofKind = m.label === 'PLACE' && isDemonym(m.name) && PLACE_KIND_AFTER(after)
    // It is the complement: what follows is no object ("... near the border with Brazil").
    if (ofKind) objectTaken = true
    if (m.label === 'PLACE' && (ofKind || LOCATIVE_BEFORE.test(sentence.slice(0, m.start)))) {
      // Not in a place of its rank or lower ("located north of Lahore", "behind Belize City"), nor in
      // a nationality ("people of Scottish descent") but a division's or a place's ("the Indian state
      // of Kerala", "a German village").
      const nationality = isDemonym(m.name) && !ofKind && !DIVISION_AFTER.test(after)
      if (byRank(mentions[subject]!.name, m.name) !== 'not' && !nationality)
        out.push({ object: i, located: true })
    } else if (!objectTaken && isNamed(m)) {
      objectTaken = true
      out.push({ object: i, located: false })
    }
  })
  return out
}

/**
 * The hierarchy a place statement states: of the places its subject lies in (`placeStatements`'
 * located objects, in text order), each lies in every later one that can hold it (`contains`): "The
 * Foix is a river in Catalonia in the province of Barcelona, northeastern Spain" puts Catalonia and
 * Barcelona in Spain. Encyclopaedic definitions name a place's containers from the smallest to the
 * largest, so each is in all that follow (containment is transitive, the inference a gazetteer's
 * hierarchy supports); a pair is [inner, outer], indexes into `mentions`.
 */
export function statedHierarchy(
  sentence: string,
  mentions: readonly ClauseMention[],
  located: readonly number[],
): [number, number][] {
  const out: [number, number][] = []
  for (let a = 0; a < located.length; a++)
    for (let b = a + 1; b < located.length; b++) {
      const [inner, outer] = [mentions[located[a]!]!, mentions[located[b]!]!]
      if (inner.name.toLowerCase() === outer.name.toLowerCase()) continue
      const between = sentence.slice(inner.end, outer.start)
      // "the Canadian province of Saskatchewan and the U.S. state of Montana": places side by side; "the
      // Indian state of Kerala": the country holds the division, not the other way (`divisionsOf`).
      if (b === a + 1 && sideBySide(between)) continue
      if (DIVISION_OF.test(between)) continue
      if (contains(inner.name, outer.name)) out.push([located[a]!, located[b]!])
      // "a small Venezuelan city in the state of Bolívar": the nationality first holds what follows.
      else if (isDemonym(inner.name) && contains(outer.name, inner.name))
        out.push([located[b]!, located[a]!])
    }
  return out
}

/**
 * Whether what lies between two places makes them a pair of equals: a conjunction with no locative
 * after it ("Saskatchewan and the U.S. state of Montana", not "Cheboygan and Presque Isle counties in
 * northern Michigan").
 */
function sideBySide(between: string): boolean {
  const parts = between.split(/\b(?:and|or)\b|&/i)
  return parts.length > 1 && !/\b(?:in|within)\b|,/i.test(parts[parts.length - 1]!)
}

/**
 * An administrative division's kind between a country (or its nationality) and the division's name:
 * "the U.S. state of Oregon", "the Canadian province of Alberta", "the Swiss canton of Bern"; and a
 * country's between its continent and its name ("the South American country of Venezuela").
 */
const DIVISION_KINDS =
  'states?|provinces?|regions?|county|counties|departments?|prefectures?|oblasts?|cantons?|districts?|' +
  'territory|territories|republics?|voivodeships?|governorates?|municipality|parish|krais?|emirates?|' +
  'autonomous\\s+communit(?:y|ies)|autonomous\\s+regions?|federal\\s+states?|country|countries|nations?'
const DIVISION_OF = new RegExp(`^\\s+(?:${DIVISION_KINDS})\\s+of\\s+(?:the\\s+)?$`, 'i')
/** A division's kind and "of" after a mention: "Indian" of "the Indian state of Kerala". */
export const DIVISION_AFTER = new RegExp(`^\\s+(?:${DIVISION_KINDS})\\s+of\\s+\\p{Lu}`, 'iu')

/**
 * Divisions and the country their kind's phrase names ("the U.S. state of Oregon": Oregon lies in the
 * U.S.; "the Indian state of Kerala": in India, which its nationality stands for): [inner, outer] pairs of
 * places next to each other, indexes into `mentions`. A qualified appositive of a name's kind (Hearst,
 * COLING 1992: "NP_1 such as NP_2" and its kin read the class from the phrase; here the phrase's
 * modifier is the container).
 */
export function divisionsOf(
  sentence: string,
  mentions: readonly ClauseMention[],
): [number, number][] {
  const out: [number, number][] = []
  for (let i = 0; i + 1 < mentions.length; i++) {
    const [outer, inner] = [mentions[i]!, mentions[i + 1]!]
    if (outer.label !== 'PLACE' || inner.label !== 'PLACE') continue
    if (outer.name.toLowerCase() === inner.name.toLowerCase()) continue
    if (DIVISION_OF.test(sentence.slice(outer.end, inner.start))) out.push([i + 1, i])
  }
  return out
}

/**
 * Whether a place the lexicon or the lists rank (`placeRank`) holds `inner`: ranked higher, or `inner`
 * unranked, or both regions (`byRank`). A river, a mountain or an unknown name holds nothing here ("located along the Saint Louis
 * River, opposite the mouth of the Artichoke River" names no container).
 */
const contains = (inner: string, outer: string): boolean => {
  // A nationality stands for its country: it lies in no place here and holds any but a country.
  if (isDemonym(inner)) return false
  if (isDemonym(outer)) return placeRank(inner) !== PLACE_RANK.country
  return placeRank(outer) !== undefined && byRank(inner, outer) !== 'not'
}

/** What joins two places of a list: a comma, or the conjunction before its last item. */
const COMMA = /^\s*,\s*$/
const LIST_CONJUNCTION = /^\s*,?\s*(?:and|or|&)\s+(?:the\s+)?$/i
/**
 * Words that open or close a list: "such as Nagoya, Shizuoka", "Important cities are Buchach, Chernivtsi",
 * "Nagoya, Shizuoka and other cities".
 */
const LIST_BEFORE =
  /\b(?:such\s+as|including|like|e\.g\.,?|(?:cities|towns|villages|countries|states|provinces|regions|districts|counties|municipalities|islands|settlements)\s+(?:are|were|include|included|includes))\s+(?:the\s+)?$/i
const LIST_AFTER = /^\s*,?\s*(?:and|or)\s+(?:other|many|several|various|more)\b/i

/**
 * Whether `a` lies in `b` by what the lexicon knows of both: `'above'` where it ranks `b` higher (a city
 * in a region, a country in a continent), `'not'` where it ranks `b` as high or lower ("Britain, France"),
 * `'unknown'` where it does not rank both, or ranks both regions ("Sibiu County, Transylvania").
 */
function byRank(a: string, b: string): 'above' | 'not' | 'unknown' {
  const [ra, rb] = [placeRank(a), placeRank(b)]
  if (ra === undefined || rb === undefined) return 'unknown'
  const regions = ra === PLACE_RANK.region && rb === PLACE_RANK.region
  return rb > ra ? 'above' : regions ? 'unknown' : 'not'
}

/**
 * Which places of a sentence lie in the next one (indexes into `mentions`, in text order): a comma chain
 * ("Vancouver, British Columbia, Canada") and each pair `inPlace` says a locative joins
 * ("Aetolia-Acarnania in Greece"). A comma chain a conjunction continues is a list of places side by side
 * ("Harrogate, Hull, Scarborough, Sheffield and York"), unless its parts are chains of one length ("Paris,
 * France and London, England"); in a list a place lies in the next only where the lexicon ranks the next
 * higher ("Detroit, Michigan and Toronto"), and so in a chain "such as" or "including" opens or "and
 * other" closes. No place lies in one the lexicon ranks as high ("Denmark, Germany"). On Re-DocRED dev
 * (the development split), of the `LOCATED_IN` relationships between two gold entities, those the gold
 * set relates went from 299 of 470 (0.636) to 295 of 387 (0.762) (benchmarks/LOG.md, 2026-12-06).
 */
export function placeChain(
  sentence: string,
  mentions: readonly ClauseMention[],
  distinct: (i: number) => boolean,
  inPlace: (i: number) => boolean,
): number[] {
  const kinds = mentions.slice(0, -1).map((a, i) => {
    const b = mentions[i + 1]!
    if (a.label !== 'PLACE' || b.label !== 'PLACE' || !distinct(i)) return null
    const between = sentence.slice(a.end, b.start)
    if (COMMA.test(between)) return 'comma'
    if (LIST_CONJUNCTION.test(between)) return 'and'
    return inPlace(i) ? 'in' : null
  })
  const listed = new Set<number>()
  for (let i = 0; i < kinds.length;) {
    let end = i
    while (kinds[end] === 'comma' || kinds[end] === 'and') end++
    const run = kinds.slice(i, end)
    const listCue =
      run.length > 0 &&
      (LIST_BEFORE.test(sentence.slice(0, mentions[i]!.start)) ||
        LIST_AFTER.test(sentence.slice(mentions[end]!.end)))
    if (listCue) for (let j = i; j < end; j++) listed.add(j)
    else if (run.includes('and')) {
      const lengths = [1]
      for (const kind of run)
        if (kind === 'and') lengths.push(1)
        else lengths[lengths.length - 1]!++
      if (lengths[0]! < 2 || lengths.some((n) => n !== lengths[0]))
        for (let j = i; j < end; j++) listed.add(j)
    }
    i = Math.max(end, i + 1)
  }
  const out: number[] = []
  kinds.forEach((kind, i) => {
    if (kind !== 'comma' && kind !== 'in') return
    const rank = byRank(mentions[i]!.name, mentions[i + 1]!.name)
    if (rank === 'above' || (rank === 'unknown' && !listed.has(i))) out.push(i)
  })
  return out
}
