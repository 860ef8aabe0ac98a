import { analyze as defaultAnalyze } from '../../analysis/analyze.js'
import { bm25Bytes } from '../index-bytes.js'
import { kthLargest, TopK } from './top-k.js'

export interface Bm25Options {
  /** Term-frequency saturation (default 0.9, Pyserini's BEIR setting). */
  k1?: number
  /** Length normalisation (default 0.4, Pyserini's BEIR setting). */
  b?: number
  analyze?: (text: string) => string[]
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
 * An in-memory inverted index with exact Okapi BM25 scores (Robertson & Zaragoza, "The Probabilistic
 * Relevance Framework: BM25 and Beyond", 2009) in Lucene's form: idf = ln(1 + (N - df + 0.5)/(df + 0.5)),
 * score = idf * tf / (tf + k1 * (1 - b + b * dl / avgdl)) (Lucene 8 dropped the constant (k1 + 1)
 * factor, which does not change rankings). Unlike Lucene, document lengths are kept exactly.
 *
 * Deletes are tombstones; `compact()` rebuilds postings when a quarter of the documents are dead.
 * Queries are term-at-a-time with the "continue" pruning of Moffat & Zobel (1996, "Self-indexing
 * inverted files for fast text retrieval"): terms go in decreasing idf order, and once the remaining
 * terms cannot lift an unseen document into the top k, only documents already scored are updated.
 */
export class Bm25Index {
  readonly k1: number
  readonly b: number
  private readonly analyzeText: (text: string) => string[]
  private readonly terms = new Map<string, number>()
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
  /** Per-document length normalisation, dropped whenever a document is added or removed. */
  private norms: Float64Array | null = null
  /** Zeroed score buffers between queries (see `takeScratch`). */
  private scratch: { scores: Float64Array; seen: Uint8Array } | null = null

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 0.9
    this.b = options.b ?? 0.4
    this.analyzeText = options.analyze ?? defaultAnalyze
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

  /** Adds or replaces a document. */
  add(id: string, text: string): void {
    if (this.docOf.has(id)) this.remove(id)
    const counts = new Map<number, number>()
    const tokens = this.analyzeText(text)
    for (const token of tokens) {
      let term = this.terms.get(token)
      if (term === undefined) {
        term = this.postings.length
        this.terms.set(token, term)
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

  remove(id: string): boolean {
    const doc = this.docOf.get(id)
    if (doc === undefined) return false
    this.docOf.delete(id)
    this.alive[doc] = false
    for (const term of this.docTerms[doc]!.keys()) this.df[term]!--
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
    return Math.log(1 + (this.live - df + 0.5) / (df + 0.5))
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

  /** Top `k` documents by BM25, best first, ties broken by id. `filter` drops ids before ranking. */
  search(query: string, k: number, filter?: (id: string) => boolean): ScoredId[] {
    if (k <= 0 || this.live === 0) return []
    const terms = this.queryTerms(query)
    if (terms.length === 0) return []
    const norms = this.lengthNorms()
    const alive = this.alive
    const { scores, seen } = this.takeScratch()
    const touched: number[] = []
    // Upper bound of a term's contribution: tf/(tf + norm) < 1, so at most qtf * idf.
    const remaining = terms.map((t) => t.qtf * t.idf)
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
        const tf = tfs[p]!
        scores[doc]! += (weight * tf) / (tf + norms[doc]!)
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
   * k1 * (1 - b + b * dl / avgdl) per document: it depends on the collection only through avgdl, so it
   * is computed once per change of the collection rather than once per posting of every query.
   */
  private lengthNorms(): Float64Array {
    if (this.norms !== null) return this.norms
    const avgdl = this.totalLength / this.live || 1
    const norms = new Float64Array(this.ids.length)
    for (let doc = 0; doc < norms.length; doc++)
      norms[doc] = this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / avgdl)
    this.norms = norms
    return norms
  }

  /** Why `id` scores what it does for `query` (STYLE item 5). */
  explain(query: string, id: string): Explanation {
    const doc = this.docOf.get(id)
    if (doc === undefined) return { value: 0, description: `no document '${id}'`, details: [] }
    const avgdl = this.totalLength / this.live || 1
    const details: Explanation[] = []
    for (const { term, qtf, idf } of this.queryTerms(query)) {
      const tf = this.docTerms[doc]!.get(term) ?? 0
      if (tf === 0) continue
      const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / avgdl)
      const value = (qtf * idf * tf) / (tf + norm)
      const token = [...this.terms].find(([, t]) => t === term)![0]
      details.push({
        value,
        description: `weight(${token}) = qtf * idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))`,
        details: [
          { value: qtf, description: 'qtf, occurrences in the query', details: [] },
          {
            value: idf,
            description: `idf = ln(1 + (N - df + 0.5) / (df + 0.5)), N=${this.live}, df=${this.df[term]}`,
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
    return {
      value: details.reduce((sum, d) => sum + d.value, 0),
      description: `bm25(k1=${this.k1}, b=${this.b}), sum of:`,
      details,
    }
  }
}
