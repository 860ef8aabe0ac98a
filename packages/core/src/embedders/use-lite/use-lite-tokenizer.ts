/**
 * The SentencePiece (unigram) tokenizer of the Universal Sentence Encoder lite, in linear time, with
 * truncation. Ported from the tokenizer that @energetic-ai/embeddings ships (itself from Google's
 * tfjs-models `universal-sentence-encoder/src/tokenizer`, Apache-2.0): the same normalisation (NFKC,
 * spaces as U+2581), the same Viterbi over vocabulary pieces with the same tie-breaking, the same
 * merging of consecutive unknowns, so it returns the same ids. The original calls
 * `symbols.slice(i)` at every position, which makes it quadratic in the length of the text: 32,000
 * characters without a space took 3 s, a megabyte never finished. Here each position walks the trie
 * only as deep as its longest vocabulary piece (16 symbols).
 *
 * USE-lite has no published input limit; `maxTokens` bounds what the model runs on (the first
 * `maxTokens` pieces are kept, as Hugging Face tokenizers truncate). Chunks of the default chunker
 * (at most 256 words, 4,096 characters) stay well under the default of 1,024 pieces.
 */

export type Vocabulary = ReadonlyArray<readonly [string, number]>

interface TrieNode {
  children: Map<string, TrieNode>
  /** Vocabulary index of the piece ending here, or -1. */
  index: number
  score: number
}

const SEPARATOR = '\u2581'
/** The first vocabulary entries are control symbols, never matched (`RESERVED_SYMBOLS_COUNT`). */
const RESERVED = 6
/** Pieces a text may become before it is cut (see the file comment). */
export const USE_LITE_MAX_TOKENS = 1024

const node = (): TrieNode => ({ children: new Map(), index: -1, score: 0 })

export class UseLiteTokenizer {
  readonly #vocabulary: Vocabulary
  readonly #root = node()

  constructor(vocabulary: Vocabulary) {
    this.#vocabulary = vocabulary
    for (let i = RESERVED; i < vocabulary.length; i++) {
      let at = this.#root
      for (const symbol of vocabulary[i]![0]) {
        let next = at.children.get(symbol)
        if (next === undefined) at.children.set(symbol, (next = node()))
        at = next
      }
      at.index = i
      at.score = vocabulary[i]![1]
    }
  }

  /** Vocabulary ids of `input`, at most `maxTokens` of them. */
  encode(input: string, maxTokens = USE_LITE_MAX_TOKENS): number[] {
    const normalized = input.normalize('NFKC')
    if (normalized.length === 0) return []
    const symbols = Array.from(SEPARATOR + normalized.replaceAll(' ', SEPARATOR))
    const n = symbols.length
    // best[e]: score of the best segmentation of symbols[0, e); word[e]: its last piece.
    const best = new Float64Array(n + 1)
    const word = new Int32Array(n + 1)
    // Relaxing forward from each start in increasing order compares the pieces ending at a position
    // in increasing start order, as the original's pass over its lattice does (`>=`: the last wins).
    const relax = (end: number, score: number, index: number) => {
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score
        word[end] = index
      }
    }
    for (let start = 0; start < n; start++) {
      let at = this.#root.children.get(symbols[start]!)
      let matched = false
      for (let end = start + 1; at !== undefined; end++) {
        if (at.index >= 0) {
          matched = true
          relax(end, at.score + best[start]!, at.index)
        }
        if (end >= n) break
        at = at.children.get(symbols[end]!)
      }
      // No piece starts here: the symbol alone, as the unknown piece (index 0, score 0).
      if (!matched) relax(start + 1, best[start]!, 0)
    }
    const pieces: number[] = []
    // Steps back by the piece's length in UTF-16 units, as the original does.
    for (let at = n; at > 0; at -= this.#vocabulary[word[at]!]![0].length) pieces.push(word[at]!)
    const ids: number[] = []
    let previousUnknown = false
    for (let i = pieces.length - 1; i >= 0; i--) {
      const id = pieces[i]!
      if (!(previousUnknown && id === 0)) ids.push(id)
      previousUnknown = id === 0
    }
    return ids.length > maxTokens ? ids.slice(0, maxTokens) : ids
  }
}
