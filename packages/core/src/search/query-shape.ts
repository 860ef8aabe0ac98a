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
 *   (`the`, one or two lower-case words, then a name).
 *
 * A memory question about one person ("What did Caroline research in 2023?") or a declarative claim
 * rarely has any. Chosen on MuSiQue-100 and LoCoMo dev among five variants of these markers, with the
 * halves rule (benchmarks/LOG.md, issue 27); there is no weight to fit.
 */

const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'his', 'her', 'their', 'whose'])
const RELATIVES = new Set(['who', 'whom', 'whose', 'which', 'where'])
/** Words between a determiner and the marker of the phrase it opens ("the first president who"). */
const MAX_NOUN_PHRASE = 3
/** Lower-case words between `the` and the name of a reduced relative clause ("the home city Ann left"). */
const MAX_REDUCED = 2

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu
const capitalised = (word: string | undefined) => word !== undefined && /^\p{Lu}/u.test(word)
const lowerCase = (word: string) => !/\p{Lu}/u.test(word)

/** How many composition markers `text` has after its first word (see the header). */
export function compositionMarkers(text: string): number {
  const words = text.match(TOKEN) ?? []
  const lower = words.map((w) => w.toLowerCase())
  let markers = 0
  for (let i = 1; i < words.length; i++) {
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
export function isComposedQuestion(text: string): boolean {
  return compositionMarkers(text) > 0
}
