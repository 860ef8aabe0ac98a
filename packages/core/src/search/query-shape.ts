/**
 * Whether a question composes look-ups, the second made through the answer of the first: "What is the
 * waterfall in the country where the Bubye River is found?" asks for the country first. Such bridge
 * questions (Yang et al., "HotpotQA", EMNLP 2018; Trivedi et al., "MuSiQue: Multihop Questions via
 * Single-hop Question Composition", TACL 2022) are answered by passages that share no word with part
 * of the question, only an entity with another passage; that is what `rerank=plugin:hops` follows.
 *
 * The test marks the places decomposition methods split such questions (Min et al., "Multi-hop Reading
 * Comprehension through Question Decomposition and Rescoring", ACL 2019; Talmor & Berant, "The Web as a
 * Knowledge-base for Answering Complex Questions", NAACL 2018): a noun phrase, opened by a determiner
 * after the question's first word, that the question describes
 *
 * - by a relative clause: "the country where ...", "the association which published ..." (who, whom,
 *   whose, which, where; not `that` or `when`, which as often open a complement or a time: "the feeling
 *   that dance brings", "the day when");
 * - by its relation to a named thing: "the composer of Aschenbrodel" (`of` then a capitalised word);
 * - by a reduced relative clause: "the country Signmark is from", "the city Kevin Durant played for"
 *   (`the`, one or two lower-case words, then a name);
 * - by a possessive name, the relation to a named thing written the other way round: "Gisvi's city of
 *   birth", "Peter Bonetti's team" (a capitalised name, `'s`, a lower-case word), when the brain tells
 *   that name is specific (`NameSpread`): held by some passages, at most `RARE_NAME_SHARE` of them. A
 *   possessive of a name most passages hold asks about the brain's own subject, not through a bridge:
 *   "Melanie's kids" in a conversation of Melanie's, where she speaks every other turn.
 *
 * A memory question about one person ("What did Caroline research in 2023?") or a declarative claim
 * rarely has any. Chosen on MuSiQue-100 and LoCoMo dev among five variants of these markers, with the
 * halves rule (benchmarks/LOG.md, issue 27); the possessive on the same two sets (LOG, 2026-11-30). Its
 * share is not fitted: any from 0.5% to 30% marks the same questions there, because MuSiQue-100's bridge
 * names are held by at most 3% of its passages and a LoCoMo conversation's speakers by more than half of
 * theirs. 5% sits between, low enough for a memory of many people, high enough that a small brain (40
 * passages) counts a name two of them hold.
 */

const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'his', 'her', 'their', 'whose'])
const RELATIVES = new Set(['who', 'whom', 'whose', 'which', 'where'])
/** Words between a determiner and the marker of the phrase it opens ("the first president who"). */
const MAX_NOUN_PHRASE = 3
/** Lower-case words between `the` and the name of a reduced relative clause ("the home city Ann left"). */
const MAX_REDUCED = 2

/**
 * The largest share of a brain's passages a possessive name may be held by and still mark a bridge; a
 * name one passage holds marks one in a brain of any size.
 */
export const RARE_NAME_SHARE = 0.05

/**
 * How widely a brain's passages hold a name (`TextReader.spread` of the passage index): an upper bound of
 * the passages holding it, and the passages.
 */
export type NameSpread = (name: string) => { holding: number; total: number }

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu
const POSSESSIVE = /^(.+)['’]s$/u
const capitalised = (word: string | undefined) => word !== undefined && /^\p{Lu}/u.test(word)
const lowerCase = (word: string) => !/\p{Lu}/u.test(word)

/**
 * The name a possessive at `i` closes ("Peter Bonetti's" in "for Peter Bonetti's team"): capitalised
 * words back to, not including, the question's first word; undefined when `i` holds no possessive of a
 * capitalised word followed by a lower-case one.
 */
function possessiveName(words: readonly string[], i: number): string | undefined {
  const own = POSSESSIVE.exec(words[i]!)
  const next = words[i + 1]
  if (own === null || !capitalised(own[1]) || next === undefined || !lowerCase(next))
    return undefined
  let first = i
  while (first > 1 && capitalised(words[first - 1])) first--
  return [...words.slice(first, i), own[1]!].join(' ')
}

/**
 * How many composition markers `text` has after its first word (see the header); possessive names count
 * only with `spread`, the brain's reader of how widely its passages hold a name.
 */
export function compositionMarkers(text: string, spread?: NameSpread): number {
  const words = text.match(TOKEN) ?? []
  const lower = words.map((w) => w.toLowerCase())
  let markers = 0
  for (let i = 1; i < words.length; i++) {
    if (spread !== undefined) {
      const name = possessiveName(words, i)
      if (name !== undefined) {
        const { holding, total } = spread(name)
        if (holding > 0 && holding <= Math.max(1, RARE_NAME_SHARE * total)) markers++
        continue
      }
    }
    if (!DETERMINERS.has(lower[i]!)) continue
    const last = Math.min(words.length - 1, i + 1 + MAX_NOUN_PHRASE)
    for (let j = i + 2; j <= last; j++) {
      if (RELATIVES.has(lower[j]!)) {
        markers++
        break
      }
      if (lower[j] === 'of') {
        if (capitalised(lower[j + 1] === 'the' ? words[j + 2] : words[j + 1])) markers++
        break
      }
      if (capitalised(words[j])) {
        const between = words.slice(i + 1, j)
        if (lower[i] === 'the' && j - i - 1 <= MAX_REDUCED && between.every(lowerCase)) markers++
        break
      }
      if (DETERMINERS.has(lower[j]!)) break
    }
  }
  return markers
}

/** True when `text` reads as a question composed of look-ups (at least one marker). */
export function isComposedQuestion(text: string, spread?: NameSpread): boolean {
  return compositionMarkers(text, spread) > 0
}
