import type { TermWeight } from '../../contracts/search-plugins.js'
import { analyzeBm25 } from '../../analysis/analyze.js'
import { bm25Bytes } from '../index-bytes.js'
import {
  arrayPart,
  combineParts,
  isCount,
  jsonPart,
  partsUnder,
  stringsPart,
  type SnapshotParts,
} from '../snapshot-codec.js'
import { ranges, runWhole, type Sliced } from '../sliced-work.js'
import { DocTermLists } from './doc-term-lists.js'
import { PostingArena } from './posting-arena.js'
import { countAbove, kthLargest } from './top-k.js'
import { pairLength, withLength } from './vint.js'

/**
 * BM25 scoring variants, as defined in Kamphuis, de Vries, Boytsov & Lin, "Which BM25 Do You Mean? A
 * Large-Scale Reproducibility Study of Scoring Variants" (ECIR 2020), with L = dl / avgdl:
 * - `lucene`: idf = ln(1 + (N - df + 0.5) / (df + 0.5)), tf part tf / (tf + k1 (1 - b + b L)) (Lucene 8
 *   drops the constant (k1 + 1) factor, which does not change rankings);
 * - `atire`: idf = ln(N / df), tf part (k1 + 1) tf / (tf + k1 (1 - b + b L)) (Trotman et al. 2014);
 * - `bm25l`: idf = ln((N + 1) / (df + 0.5)), c = tf / (1 - b + b L), tf part (k1 + 1)(c + delta) /
 *   (k1 + c + delta) (Lv & Zhai, "When documents are very long, BM25 fails!", SIGIR 2011; delta 0.5);
 * - `bm25+`: idf = ln((N + 1) / df), tf part (k1 + 1) tf / (tf + k1 (1 - b + b L)) + delta (Lv & Zhai,
 *   "Lower-bounding term frequency normalization", CIKM 2011; delta 1).
 * Robertson's original idf, ln((N - df + 0.5) / (df + 0.5)), is left out: it is negative for terms in
 * more than half the documents, which the pruning below cannot bound.
 */
export const BM25_VARIANTS = ['lucene', 'atire', 'bm25l', 'bm25+'] as const
export type Bm25Variant = (typeof BM25_VARIANTS)[number]

/** Scoring settings of a BM25 index: variant and its parameters. */
export interface Bm25Settings {
  /** Scoring formula (default `bm25+`). */
  variant?: Bm25Variant
  /** Term-frequency saturation, >= 0 (default 2). */
  k1?: number
  /** Length normalisation, 0..1 (default 0.5). */
  b?: number
  /** Lower bound added to the tf part by `bm25l` (default 0.5) and `bm25+` (default 1); unused otherwise. */
  delta?: number
}

export interface Bm25Options extends Bm25Settings {
  analyze?: (text: string) => string[]
}

/** Settings with every default filled in. */
export type ResolvedBm25Settings = Required<Bm25Settings>

/**
 * The built-in defaults, chosen on SciFact train with LoCoMo dev and MuSiQue-100 as checks, with the
 * `analyzeBm25` chain (`npm run bench -- --tune-bm25`, benchmarks/results/bm25-tuning.md). Pyserini's
 * BEIR setting, Lucene k1 0.9 b 0.4, was the default before.
 */
export const DEFAULT_BM25 = { variant: 'bm25+', k1: 2, b: 0.5 } as const satisfies Bm25Settings

/** Lv & Zhai's delta per variant (0: the variant has none). */
const DEFAULT_DELTA: Record<Bm25Variant, number> = { lucene: 0, atire: 0, bm25l: 0.5, 'bm25+': 1 }

/** Fills defaults (delta per variant) and checks ranges; throws a message naming the bad field. */
export function resolveBm25Settings(settings: Bm25Settings = {}): ResolvedBm25Settings {
  const variant = settings.variant ?? DEFAULT_BM25.variant
  if (!BM25_VARIANTS.includes(variant))
    throw new Error(`bm25 variant must be one of ${BM25_VARIANTS.join(', ')}, got '${variant}'`)
  const k1 = settings.k1 ?? DEFAULT_BM25.k1
  const b = settings.b ?? DEFAULT_BM25.b
  const delta = settings.delta ?? DEFAULT_DELTA[variant]
  if (!Number.isFinite(k1) || k1 < 0) throw new Error(`bm25 k1 must be a number >= 0, got ${k1}`)
  if (!Number.isFinite(b) || b < 0 || b > 1) throw new Error(`bm25 b must be in [0, 1], got ${b}`)
  if (!Number.isFinite(delta) || delta < 0)
    throw new Error(`bm25 delta must be a number >= 0, got ${delta}`)
  return { variant, k1, b, delta }
}

export interface ScoredId {
  id: string
  score: number
}

export interface Explanation {
  value: number
  description: string
  details: Explanation[]
}

/**
 * Per-query buffers sized to the documents: score accumulators, a seen flag (1 scored, 2 filtered out),
 * and the documents scored (a JavaScript array grown by push was a ninth of a default search's
 * allocation on SciFact).
 */
interface Scratch {
  scores: Float64Array
  seen: Uint8Array
  touched: Int32Array
}

/**
 * An in-memory inverted index with exact BM25 scores (Robertson & Zaragoza, "The Probabilistic
 * Relevance Framework: BM25 and Beyond", 2009) in one of the variants of `BM25_VARIANTS`
 * (`DEFAULT_BM25` unless told). Unlike Lucene, document lengths are kept exactly. The variant and
 * parameters only weigh postings, so `configure` changes them without re-indexing.
 *
 * Storage is typed arrays, not objects per term or per posting: the postings of every term in one
 * byte arena (`PostingArena`, delta-encoded doc numbers with their tf), each document's terms in a
 * forward index of the same encoding (`DocTermLists`), document frequencies, lengths and liveness in
 * arrays indexed by term or document number; the dictionary maps a token to its term number.
 *
 * Deletes are tombstones; `compact()` rebuilds postings when a quarter of the documents are dead.
 * Queries are term-at-a-time with the "continue" pruning of Moffat & Zobel (1996, "Self-indexing
 * inverted files for fast text retrieval"): terms go in decreasing idf order, and once the
 * remaining terms cannot lift an unseen document into the top k, only documents already scored are
 * updated. Every variant's term contribution is non-negative and bounded (`maxTf`), which keeps this
 * exact; a search's filter refuses documents as they are first seen, before the stop counts them.
 */
export class Bm25Index {
  private config: ResolvedBm25Settings
  private readonly analyzeText: (text: string) => string[]
  private terms = new Map<string, number>()
  /** The token of each term number (to drop it from `terms` when its last document goes). */
  private tokens: string[] = []
  private postings = new PostingArena()
  /** Live documents holding each term. */
  private df = new Uint32Array(16)
  private ids: string[] = []
  private docOf = new Map<string, number>()
  /** Tokens per document, by document number. */
  private lengths = new Uint32Array(16)
  private alive = new Uint8Array(16)
  private docTerms = new DocTermLists()
  private live = 0
  private totalLength = 0
  private dead = 0
  /** Per-document 1 - b + b * dl / avgdl, dropped whenever a document or `b` changes. */
  private norms: Float64Array | null = null
  /** Zeroed score buffers between queries (see `takeScratch`). */
  private scratch: Scratch | null = null

  constructor(options: Bm25Options = {}) {
    this.config = resolveBm25Settings(options)
    this.analyzeText = options.analyze ?? analyzeBm25
  }

  /** The variant and parameters scores use. */
  get settings(): ResolvedBm25Settings {
    return { ...this.config }
  }

  /** Switches variant or parameters (`resolveBm25Settings` fills the rest); postings stay as they are. */
  configure(settings: Bm25Settings): void {
    this.config = resolveBm25Settings(settings)
    this.norms = null
  }

  get size(): number {
    return this.live
  }

  has(id: string): boolean {
    return this.docOf.has(id)
  }

  /**
   * Estimated bytes held (see `index-bytes.ts`), from counts and array lengths: O(1). The per-query
   * caches (length norms, score buffers) are counted per document whether a query built them yet or
   * not, so a search does not change the estimate.
   */
  bytes(): number {
    const typed =
      this.postings.byteLength +
      this.docTerms.byteLength +
      this.df.byteLength +
      this.lengths.byteLength +
      this.alive.byteLength
    return bm25Bytes(this.terms.size, this.tokens.length, this.ids.length, typed)
  }

  /**
   * Adds or replaces a document. Replacing a document by the same terms changes nothing: an entity is
   * written again by every task that cites it, mostly with the text it had, and a replacement left a
   * dead document behind each time (its postings, until `compact` rebuilds them all).
   */
  add(id: string, text: string): void {
    const tokens = this.analyzeText(text)
    const existing = this.docOf.get(id)
    if (existing !== undefined) {
      if (this.holds(existing, tokens)) return
      this.remove(id)
    }
    const counts = new Map<number, number>()
    for (const token of tokens) {
      let term = this.terms.get(token)
      if (term === undefined) {
        term = this.postings.addTerm()
        this.terms.set(token, term)
        this.tokens.push(token)
        this.df = withLength(this.df, term + 1)
      }
      counts.set(term, (counts.get(term) ?? 0) + 1)
    }
    const terms = Uint32Array.from(counts.keys()).sort()
    const tfs = terms.map((term) => counts.get(term)!)
    const doc = this.docTerms.append(terms, tfs)
    this.ids.push(id)
    this.docOf.set(id, doc)
    this.lengths = withLength(this.lengths, doc + 1)
    this.lengths[doc] = tokens.length
    this.alive = withLength(this.alive, doc + 1)
    this.alive[doc] = 1
    for (let i = 0; i < terms.length; i++) {
      this.postings.push(terms[i]!, doc, tfs[i]!)
      this.df[terms[i]!]!++
    }
    this.live++
    this.totalLength += tokens.length
    this.norms = null
  }

  /** Live document `doc` has exactly `tokens`: the same terms, each as often, and so the same length. */
  private holds(doc: number, tokens: string[]): boolean {
    if (this.lengths[doc] !== tokens.length) return false
    const counts = new Map<number, number>()
    for (const token of tokens) {
      const term = this.terms.get(token)
      if (term === undefined) return false
      counts.set(term, (counts.get(term) ?? 0) + 1)
    }
    let held = 0
    for (const [term, tf] of this.docTerms.entries(doc)) {
      if (counts.get(term) !== tf) return false
      held++
    }
    return held === counts.size
  }

  remove(id: string): boolean {
    const doc = this.docOf.get(id)
    if (doc === undefined) return false
    this.docOf.delete(id)
    this.alive[doc] = 0
    for (const [term] of this.docTerms.entries(doc)) {
      // A term no live document holds leaves the dictionary with its postings: a forgotten word is no
      // key of the index (docs/forgetting.md). Its number is reused after the next compaction.
      if (--this.df[term]! === 0) {
        this.terms.delete(this.tokens[term]!)
        this.tokens[term] = ''
        this.postings.clear(term)
      }
    }
    this.docTerms.erase(doc)
    this.ids[doc] = ''
    this.live--
    this.totalLength -= this.lengths[doc]!
    this.dead++
    this.norms = null
    if (this.dead > 1000 && this.dead > this.ids.length / 4) this.compact()
    return true
  }

  /**
   * Rebuilds postings and the forward index without dead documents, and renumbers documents and
   * terms densely (a term no live document holds gives its number up). Two passes over the live
   * documents: the first sizes every new posting list, the second writes them into blocks of exactly
   * that size.
   */
  compact(): void {
    const termCount = this.postings.terms
    const renumber = new Int32Array(termCount)
    const tokens: string[] = []
    const terms = new Map<string, number>()
    for (let term = 0; term < termCount; term++) {
      renumber[term] = this.df[term]! > 0 ? tokens.length : -1
      if (this.df[term]! > 0) {
        terms.set(this.tokens[term]!, tokens.length)
        tokens.push(this.tokens[term]!)
      }
    }
    const df = new Uint32Array(Math.max(16, tokens.length))
    const sizes = new Uint32Array(tokens.length)
    const last = new Int32Array(tokens.length).fill(-1)
    const docCount = this.ids.length
    for (let doc = 0, next = 0; doc < docCount; doc++) {
      if (this.alive[doc] === 0) continue
      for (const [term, tf] of this.docTerms.entries(doc)) {
        const t = renumber[term]!
        sizes[t]! += pairLength(next - last[t]!, tf)
        last[t] = next
        df[t]!++
      }
      next++
    }
    const postings = PostingArena.sized(tokens.length, sizes)
    const docTerms = new DocTermLists()
    const ids: string[] = []
    const docOf = new Map<string, number>()
    const lengths = new Uint32Array(Math.max(16, this.live))
    const alive = new Uint8Array(Math.max(16, this.live))
    const docTermIds: number[] = []
    const docTfs: number[] = []
    for (let doc = 0; doc < docCount; doc++) {
      if (this.alive[doc] === 0) continue
      docTermIds.length = docTfs.length = 0
      for (const [term, tf] of this.docTerms.entries(doc)) {
        docTermIds.push(renumber[term]!)
        docTfs.push(tf)
      }
      const next = docTerms.append(docTermIds, docTfs)
      for (let i = 0; i < docTermIds.length; i++) postings.push(docTermIds[i]!, next, docTfs[i]!)
      ids.push(this.ids[doc]!)
      docOf.set(this.ids[doc]!, next)
      lengths[next] = this.lengths[doc]!
      alive[next] = 1
    }
    this.terms = terms
    this.tokens = tokens
    this.df = df
    this.postings = postings
    this.docTerms = docTerms
    this.ids = ids
    this.docOf = docOf
    this.lengths = lengths
    this.alive = alive
    this.dead = 0
    this.norms = null
    this.scratch = null
  }

  /**
   * The index as snapshot parts (`snapshot-codec.ts`), compacted first when a document was removed,
   * so that a snapshot holds no removed document's id or terms (docs/forgetting.md). Settings are not
   * part of it: the loader configures them. The arrays are views of the index's own: encode them
   * before the index changes.
   */
  toParts(): SnapshotParts {
    if (this.dead > 0) this.compact()
    const docs = this.ids.length
    const own: SnapshotParts = {
      json: { live: this.live, totalLength: this.totalLength },
      arrays: {
        df: this.df.subarray(0, this.postings.terms),
        lengths: this.lengths.subarray(0, docs),
        alive: this.alive.subarray(0, docs),
      },
      strings: { tokens: this.tokens, ids: this.ids },
    }
    return combineParts([
      ['', own],
      ['postings', this.postings.toParts()],
      ['docTerms', this.docTerms.toParts()],
    ])
  }

  /** The index `toParts` described, scoring with `options`; throws on parts that do not fit together. */
  static fromParts(parts: SnapshotParts, options: Bm25Options = {}): Bm25Index {
    return runWhole(Bm25Index.restore(parts, options))
  }

  /**
   * As `fromParts`, in slices (`sliced-work.ts`): the lookups by term and by document id are made a
   * few thousand entries at a time (100,000 ids took tens of milliseconds in one go).
   */
  static *restore(parts: SnapshotParts, options: Bm25Options = {}): Sliced<Bm25Index> {
    const index = new Bm25Index(options)
    const tokens = stringsPart(parts, 'tokens')
    const ids = stringsPart(parts, 'ids')
    const postings = PostingArena.fromParts(partsUnder(parts, 'postings'))
    const docTerms = DocTermLists.fromParts(partsUnder(parts, 'docTerms'))
    const df = arrayPart(parts, 'df', Uint32Array)
    const lengths = arrayPart(parts, 'lengths', Uint32Array)
    const alive = arrayPart(parts, 'alive', Uint8Array)
    if (tokens.length !== postings.terms || df.length !== postings.terms)
      throw new Error('BM25 snapshot parts disagree on the term count')
    if (
      lengths.length !== ids.length ||
      alive.length !== ids.length ||
      docTerms.documents !== ids.length
    )
      throw new Error('BM25 snapshot parts disagree on the document count')
    const { terms, docOf } = index
    yield* ranges(tokens.length, (from, to) => {
      for (let term = from; term < to; term++)
        if (tokens[term] !== '') terms.set(tokens[term]!, term)
    })
    let live = 0
    yield* ranges(ids.length, (from, to) => {
      for (let doc = from; doc < to; doc++)
        if (alive[doc] === 1) {
          docOf.set(ids[doc]!, doc)
          live++
        }
    })
    if (live !== jsonPart<number>(parts, 'live', isCount))
      throw new Error('BM25 snapshot live count disagrees with its documents')
    index.tokens = tokens
    index.ids = ids
    index.postings = postings
    index.docTerms = docTerms
    index.df = withLength(df, 16)
    index.lengths = withLength(lengths, 16)
    index.alive = withLength(alive, 16)
    index.live = live
    index.totalLength = jsonPart<number>(parts, 'totalLength', isCount)
    index.dead = ids.length - live
    return index
  }

  private idf(term: number): number {
    const df = this.df[term]!
    const n = this.live
    switch (this.config.variant) {
      case 'lucene':
        return Math.log(1 + (n - df + 0.5) / (df + 0.5))
      case 'atire':
        return Math.log(n / df)
      case 'bm25l':
        return Math.log((n + 1) / (df + 0.5))
      case 'bm25+':
        return Math.log((n + 1) / df)
    }
  }

  /**
   * The tf part of a term's weight for the index's variant, given tf and the document's length
   * normalisation `norm` = 1 - b + b * dl / avgdl (see the variants' formulas at `BM25_VARIANTS`).
   */
  private tfWeight(): (tf: number, norm: number) => number {
    const { variant, k1, delta } = this.config
    switch (variant) {
      case 'lucene':
        return (tf, norm) => tf / (tf + k1 * norm)
      case 'atire':
        return (tf, norm) => ((k1 + 1) * tf) / (tf + k1 * norm)
      case 'bm25l':
        return (tf, norm) => {
          const c = tf / norm + delta
          return ((k1 + 1) * c) / (k1 + c)
        }
      case 'bm25+':
        return (tf, norm) => ((k1 + 1) * tf) / (tf + k1 * norm) + delta
    }
  }

  /** An upper bound of `tfWeight` over every tf and document: its limit as tf grows. */
  private maxTf(): number {
    const { variant, k1, delta } = this.config
    if (variant === 'lucene') return 1
    return variant === 'bm25+' ? k1 + 1 + delta : k1 + 1
  }

  /** Query terms (analysed) with their query frequency. */
  private queryTerms(query: string): { term: number; qtf: number; idf: number }[] {
    const qtf = new Map<number, number>()
    for (const token of this.analyzeText(query)) {
      const term = this.terms.get(token)
      if (term !== undefined && this.df[term]! > 0) qtf.set(term, (qtf.get(term) ?? 0) + 1)
    }
    return [...qtf]
      .map(([term, n]) => ({ term, qtf: n, idf: this.idf(term) }))
      .sort((a, b) => b.idf - a.idf)
  }

  /**
   * The distinct terms of `text` after the index's own analysis that some live document holds, each with
   * its idf under the index's variant; highest idf first, ties by term. What a stage needs to weigh a
   * query's words as BM25 does, or to see which of them a document contains, through the brain's
   * analysis chain rather than a copy of it.
   */
  termWeights(text: string): TermWeight[] {
    const out = new Map<string, number>()
    for (const token of this.analyzeText(text)) {
      if (out.has(token)) continue
      const term = this.terms.get(token)
      if (term !== undefined && this.df[term]! > 0) out.set(token, this.idf(term))
    }
    return [...out]
      .map(([term, idf]) => ({ term, idf }))
      .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
  }

  /**
   * Which of `terms` (analysed terms, as `termWeights` gives them) document `id` holds, in the order
   * given; undefined when `id` is no live document. Read from the forward term lists: the document's
   * text is neither read nor analysed again, and the answer is what `termWeights(text)` of the text it
   * was indexed with would contain.
   */
  heldTerms(id: string, terms: readonly string[]): string[] | undefined {
    const doc = this.docOf.get(id)
    if (doc === undefined) return undefined
    const known: { token: string; term: number }[] = []
    for (const token of terms) {
      const term = this.terms.get(token)
      if (term !== undefined) known.push({ token, term })
    }
    if (known.length === 0) return []
    const sorted = [...new Set(known.map((k) => k.term))].sort((a, b) => a - b)
    const flags = this.docTerms.holds(doc, sorted)
    const held = new Set(sorted.filter((_, i) => flags[i]))
    return known.filter((k) => held.has(k.term)).map((k) => k.token)
  }

  /**
   * How widely the live documents hold `text`: `holding` is the document frequency of its rarest
   * analysed term (0 when a term is in no live document), an upper bound of the documents holding every
   * term; `total` the live documents. A text with no term after analysis (stopwords only) is held by all.
   */
  spread(text: string): { holding: number; total: number } {
    let holding = this.live
    for (const token of this.analyzeText(text)) {
      const term = this.terms.get(token)
      const df = term === undefined ? 0 : this.df[term]!
      if (df < holding) holding = df
    }
    return { holding, total: this.live }
  }

  /** Top `k` documents by BM25, best first, ties broken by id: the top `k` of those `filter` accepts. */
  search(query: string, k: number, filter?: (id: string) => boolean): ScoredId[] {
    if (k <= 0 || this.live === 0) return []
    const terms = this.queryTerms(query)
    if (terms.length === 0) return []
    const norms = this.lengthNorms()
    const weigh = this.tfWeight()
    const alive = this.alive
    const anyDead = this.dead > 0
    const { bytes, start: starts, used } = this.postings
    const scratch = this.takeScratch()
    const { scores, seen, touched } = scratch
    /** `touched[0, count)`: the documents scored, in the order first seen. */
    let count = 0
    /** Documents `filter` refused (`seen` 2), to clear with the rest. */
    const dropped: number[] = []
    // Upper bound of a term's contribution: qtf * idf * maxTf (idf >= 0 in every variant).
    const maxTf = this.maxTf()
    const remaining = terms.map((t) => t.qtf * t.idf * maxTf)
    let rest = remaining.reduce((a, b) => a + b, 0)
    let acceptNew = true
    for (let i = 0; i < terms.length; i++) {
      const { term, qtf, idf } = terms[i]!
      rest -= remaining[i]!
      const weight = qtf * idf
      // Inline decoding of the (doc delta, tf) pairs (`vint.ts`): the hot loop of every query.
      let pos = starts[term]!
      const to = pos + used[term]!
      let doc = -1
      while (pos < to) {
        // Most pairs are one byte: a delta below 64 with tf 1.
        let v = bytes[pos++]!
        if (v >= 0x80) {
          let byte = v
          v &= 0x7f
          for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
            byte = bytes[pos++]!
            v += (byte & 0x7f) * scale
          }
        }
        let tf = 1
        if ((v & 1) === 0) {
          tf = bytes[pos++]!
          if (tf >= 0x80) {
            let byte = tf
            tf &= 0x7f
            for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
              byte = bytes[pos++]!
              tf += (byte & 0x7f) * scale
            }
          }
        }
        doc += v >>> 1
        if (anyDead && alive[doc] === 0) continue
        if (seen[doc] !== 1) {
          if (seen[doc] === 2 || !acceptNew) continue
          // The filter decides at admission, so that the early stop counts only documents it accepts.
          if (filter !== undefined && !filter(this.ids[doc]!)) {
            seen[doc] = 2
            dropped.push(doc)
            continue
          }
          seen[doc] = 1
          touched[count++] = doc
        }
        scores[doc]! += weight * weigh(tf, norms[doc]!)
      }
      // A document not seen yet can score at most `rest`; once k documents score above it (the k-th best
      // beats it), stop admitting.
      if (acceptNew && i < terms.length - 1 && countAbove(scores, touched, count, rest, k) >= k)
        acceptNew = false
    }
    // Only documents scoring at least the k-th best can rank; ties at that score are all kept and
    // ordered by id, so the first k are the top k (score desc, id asc).
    const threshold = kthLargest(scores, touched, count, k)
    const top: ScoredId[] = []
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!
      if (scores[doc]! >= threshold) top.push({ id: this.ids[doc]!, score: scores[doc]! })
    }
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!
      scores[doc] = 0
      seen[doc] = 0
    }
    for (const doc of dropped) seen[doc] = 0
    this.scratch = scratch
    top.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    if (top.length > k) top.length = k
    return top
  }

  /**
   * Score accumulators sized to the documents, reused across queries: allocating (and zeroing) them
   * per query costs in proportion to the collection, while a query touches only its postings, which
   * it clears again at the end. A query that runs while another holds them (a `filter` that searches)
   * gets fresh ones.
   */
  private takeScratch(): Scratch {
    const scratch = this.scratch
    this.scratch = null
    if (scratch !== null && scratch.scores.length >= this.ids.length) return scratch
    const size = Math.max(16, Math.ceil(this.ids.length * 1.25))
    return {
      scores: new Float64Array(size),
      seen: new Uint8Array(size),
      touched: new Int32Array(size),
    }
  }

  /**
   * 1 - b + b * dl / avgdl per document: it depends on the collection only through avgdl, so it is
   * computed once per change of the collection (or of b) rather than once per posting of every query.
   */
  private lengthNorms(): Float64Array {
    if (this.norms !== null) return this.norms
    const avgdl = this.totalLength / this.live || 1
    const { b } = this.config
    const norms = new Float64Array(this.ids.length)
    for (let doc = 0; doc < norms.length; doc++)
      norms[doc] = 1 - b + (b * this.lengths[doc]!) / avgdl
    this.norms = norms
    return norms
  }

  /** Why `id` scores what it does for `query` (STYLE item 5). */
  explain(query: string, id: string): Explanation {
    const doc = this.docOf.get(id)
    if (doc === undefined) return { value: 0, description: `no document '${id}'`, details: [] }
    const { variant, k1, b, delta } = this.config
    const avgdl = this.totalLength / this.live || 1
    const weigh = this.tfWeight()
    const details: Explanation[] = []
    for (const { term, qtf, idf } of this.queryTerms(query)) {
      const tf = this.docTerms.tf(doc, term)
      if (tf === 0) continue
      const norm = 1 - b + (b * this.lengths[doc]!) / avgdl
      const token = this.tokens[term]!
      details.push({
        value: qtf * idf * weigh(tf, norm),
        description: `weight(${token}) = qtf * idf * ${TF_FORMULA[variant]}, norm = 1 - b + b * dl / avgdl`,
        details: [
          { value: qtf, description: 'qtf, occurrences in the query', details: [] },
          {
            value: idf,
            description: `idf = ${IDF_FORMULA[variant]}, N=${this.live}, df=${this.df[term]}`,
            details: [],
          },
          { value: tf, description: 'tf, occurrences in the document', details: [] },
          {
            value: this.lengths[doc]!,
            description: `dl, document length (avgdl=${avgdl})`,
            details: [],
          },
        ],
      })
    }
    const params = variant === 'bm25l' || variant === 'bm25+' ? `, delta=${delta}` : ''
    return {
      value: details.reduce((sum, d) => sum + d.value, 0),
      description: `bm25 ${variant} (k1=${k1}, b=${b}${params}), sum of:`,
      details,
    }
  }
}

const IDF_FORMULA: Record<Bm25Variant, string> = {
  lucene: 'ln(1 + (N - df + 0.5) / (df + 0.5))',
  atire: 'ln(N / df)',
  bm25l: 'ln((N + 1) / (df + 0.5))',
  'bm25+': 'ln((N + 1) / df)',
}

const TF_FORMULA: Record<Bm25Variant, string> = {
  lucene: 'tf / (tf + k1 * norm)',
  atire: '(k1 + 1) * tf / (tf + k1 * norm)',
  bm25l: '(k1 + 1) * (c + delta) / (k1 + c + delta), c = tf / norm',
  'bm25+': '((k1 + 1) * tf / (tf + k1 * norm) + delta)',
}
