import type { TermWeight } from '../../contracts/search-plugins.js'
import { analyzeBm25 } from '../../analysis/analyze.js'
import { bm25Bytes } from '../index-bytes.js'
import { kthLargest, TopK } from './top-k.js'

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

/** Growable posting list: parallel arrays of doc numbers and term frequencies. */
class Postings {
  docs = new Int32Array(4)
  tfs = new Float32Array(4)
  length = 0
  push(doc: number, tf: number) {
    if (this.length === this.docs.length) {
      const docs = new Int32Array(this.length * 2)
      docs.set(this.docs)
      this.docs = docs
      const tfs = new Float32Array(this.length * 2)
      tfs.set(this.tfs)
      this.tfs = tfs
    }
    this.docs[this.length] = doc
    this.tfs[this.length] = tf
    this.length++
  }
}

/**
 * An in-memory inverted index with exact BM25 scores (Robertson & Zaragoza, "The Probabilistic
 * Relevance Framework: BM25 and Beyond", 2009) in one of the variants of `BM25_VARIANTS`
 * (`DEFAULT_BM25` unless told). Unlike Lucene, document lengths are kept exactly. The variant and
 * parameters only weigh postings, so `configure` changes them without re-indexing.
 *
 * Deletes are tombstones; `compact()` rebuilds postings when a quarter of the documents are dead.
 * Queries are term-at-a-time with the "continue" pruning of Moffat & Zobel (1996, "Self-indexing
 * inverted files for fast text retrieval"): terms go in decreasing idf order, and once the
 * remaining terms cannot lift an unseen document into the top k, only documents already scored are
 * updated. Every variant's term contribution is non-negative and bounded (`maxTf`), which keeps this
 * exact.
 */
export class Bm25Index {
  private config: ResolvedBm25Settings
  private readonly analyzeText: (text: string) => string[]
  private readonly terms = new Map<string, number>()
  /** The token of each term number (to drop it from `terms` when its last document goes). */
  private readonly tokens: string[] = []
  private postings: Postings[] = []
  private df: number[] = []
  private ids: string[] = []
  private docOf = new Map<string, number>()
  private lengths: number[] = []
  private docTerms: Map<number, number>[] = []
  private alive: boolean[] = []
  private live = 0
  /** Entries in the posting lists (dead documents' included until `compact`). */
  private postingCount = 0
  private totalLength = 0
  private dead = 0
  /** Per-document 1 - b + b * dl / avgdl, dropped whenever a document or `b` changes. */
  private norms: Float64Array | null = null
  /** Zeroed score buffers between queries (see `takeScratch`). */
  private scratch: { scores: Float64Array; seen: Uint8Array } | null = null

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

  /** Estimated bytes held (see `index-bytes.ts`), from counts kept as documents come and go: O(1). */
  bytes(): number {
    return bm25Bytes(this.postings.length, this.postingCount, this.ids.length)
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
        term = this.postings.length
        this.terms.set(token, term)
        this.tokens.push(token)
        this.postings.push(new Postings())
        this.df.push(0)
      }
      counts.set(term, (counts.get(term) ?? 0) + 1)
    }
    const doc = this.ids.length
    this.ids.push(id)
    this.docOf.set(id, doc)
    this.lengths.push(tokens.length)
    this.alive.push(true)
    this.docTerms.push(counts)
    for (const [term, tf] of counts) {
      this.postings[term]!.push(doc, tf)
      this.df[term]!++
    }
    this.postingCount += counts.size
    this.live++
    this.totalLength += tokens.length
    this.norms = null
  }

  /** Live document `doc` has exactly `tokens`: the same terms, each as often, and so the same length. */
  private holds(doc: number, tokens: string[]): boolean {
    if (this.lengths[doc] !== tokens.length) return false
    const held = this.docTerms[doc]!
    const counts = new Map<number, number>()
    for (const token of tokens) {
      const term = this.terms.get(token)
      if (term === undefined || !held.has(term)) return false
      counts.set(term, (counts.get(term) ?? 0) + 1)
    }
    if (counts.size !== held.size) return false
    for (const [term, tf] of counts) if (held.get(term) !== tf) return false
    return true
  }

  remove(id: string): boolean {
    const doc = this.docOf.get(id)
    if (doc === undefined) return false
    this.docOf.delete(id)
    this.alive[doc] = false
    for (const term of this.docTerms[doc]!.keys()) {
      // A term no live document holds leaves the dictionary: a forgotten word is no key of the index
      // (docs/forgetting.md). Its number is not reused; its emptied postings go at the next compaction.
      if (--this.df[term]! === 0) {
        this.terms.delete(this.tokens[term]!)
        this.tokens[term] = ''
      }
    }
    this.docTerms[doc] = new Map()
    this.live--
    this.totalLength -= this.lengths[doc]!
    this.dead++
    this.norms = null
    if (this.dead > 1000 && this.dead > this.ids.length / 4) this.compact()
    return true
  }

  /** Rebuilds postings without dead documents. */
  compact(): void {
    const docs: [string, Map<number, number>, number][] = []
    for (let doc = 0; doc < this.ids.length; doc++) {
      if (this.alive[doc]) docs.push([this.ids[doc]!, this.docTerms[doc]!, this.lengths[doc]!])
    }
    this.postings = this.postings.map(() => new Postings())
    this.ids = []
    this.docOf = new Map()
    this.lengths = []
    this.docTerms = []
    this.alive = []
    this.postingCount = 0
    for (const [id, counts, length] of docs) {
      const doc = this.ids.length
      this.ids.push(id)
      this.docOf.set(id, doc)
      this.lengths.push(length)
      this.alive.push(true)
      this.docTerms.push(counts)
      for (const [term, tf] of counts) this.postings[term]!.push(doc, tf)
      this.postingCount += counts.size
    }
    this.dead = 0
    this.norms = null
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

  /** Top `k` documents by BM25, best first, ties broken by id. `filter` drops ids before ranking. */
  search(query: string, k: number, filter?: (id: string) => boolean): ScoredId[] {
    if (k <= 0 || this.live === 0) return []
    const terms = this.queryTerms(query)
    if (terms.length === 0) return []
    const norms = this.lengthNorms()
    const weigh = this.tfWeight()
    const alive = this.alive
    const { scores, seen } = this.takeScratch()
    const touched: number[] = []
    // Upper bound of a term's contribution: qtf * idf * maxTf (idf >= 0 in every variant).
    const maxTf = this.maxTf()
    const remaining = terms.map((t) => t.qtf * t.idf * maxTf)
    let rest = remaining.reduce((a, b) => a + b, 0)
    let acceptNew = true
    for (let i = 0; i < terms.length; i++) {
      const { term, qtf, idf } = terms[i]!
      rest -= remaining[i]!
      const list = this.postings[term]!
      const { docs, tfs, length } = list
      const weight = qtf * idf
      for (let p = 0; p < length; p++) {
        const doc = docs[p]!
        if (!alive[doc]) continue
        if (seen[doc] === 0) {
          if (!acceptNew) continue
          seen[doc] = 1
          touched.push(doc)
        }
        scores[doc]! += weight * weigh(tfs[p]!, norms[doc]!)
      }
      // A document not seen yet can score at most `rest`; if the current k-th best beats it, stop admitting.
      if (acceptNew && i < terms.length - 1 && kthLargest(scores, touched, k) > rest)
        acceptNew = false
    }
    const candidates =
      filter === undefined ? touched : touched.filter((doc) => filter(this.ids[doc]!))
    // Only documents scoring at least the k-th best can rank; ties at that score are all kept, so the
    // heap still orders them by id.
    const threshold = kthLargest(scores, candidates, k)
    const top = new TopK(k)
    for (const doc of candidates) {
      if (scores[doc]! >= threshold) top.push(doc, scores[doc]!, this.ids[doc]!)
    }
    for (const doc of touched) {
      scores[doc] = 0
      seen[doc] = 0
    }
    this.scratch = { scores, seen }
    return top.sorted().map(({ doc, score }) => ({ id: this.ids[doc]!, score }))
  }

  /**
   * Score accumulators sized to the documents, reused across queries: allocating (and zeroing) them
   * per query costs in proportion to the collection, while a query touches only its postings, which
   * it clears again at the end. A query that runs while another holds them (a `filter` that searches)
   * gets fresh ones.
   */
  private takeScratch(): { scores: Float64Array; seen: Uint8Array } {
    const scratch = this.scratch
    this.scratch = null
    if (scratch !== null && scratch.scores.length >= this.ids.length) return scratch
    const size = Math.max(16, Math.ceil(this.ids.length * 1.25))
    return { scores: new Float64Array(size), seen: new Uint8Array(size) }
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
      const tf = this.docTerms[doc]!.get(term) ?? 0
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
