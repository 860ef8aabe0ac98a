import type { TermWeight } from '../../contracts/search-plugins.js'
import type { SnapshotParts } from '../snapshot-codec.js'
import type { Bm25Index, Bm25Settings, ResolvedBm25Settings, ScoredId } from './bm25-index.js'

/**
 * Between a thing's id and the position of one of its other names in an alias document's id: entity
 * uuids are the engine's own (`uuidV4`), so none holds it.
 */
const ALIAS = '\u0000'

/** The entity an index document belongs to: its own id, or the id before an alias document's mark. */
function ownerOf(id: string): string {
  const mark = id.indexOf(ALIAS)
  return mark === -1 ? id : id.slice(0, mark)
}

/**
 * BM25 over things with several names (entities): a document per thing (its name and description)
 * and one per other name (alias), each scored alone in the one index, the thing scoring the best of
 * its documents. This is a disjunction-max over name fields with no tie-breaker (Lucene's
 * `DisjunctionMaxQuery`, Elasticsearch's `dis_max` query): a question naming a thing by its alias
 * ("WINEP") matches it as strongly as a thing whose only name that is, where one text of all its names
 * ("Washington Institute for Near East Policy WINEP") weighed the alias down by the text's length.
 * Shared statistics (document frequency, average length) count every document, alias documents
 * included, so the scores of all documents stay comparable.
 *
 * Results, filters, `heldTerms` and `remove` speak of things (their ids); `size` and the idf behind
 * `termWeights` count index documents.
 */
export class NamesBm25Index {
  constructor(private readonly index: Bm25Index) {}

  /** The index documents, alias documents included (the N of the index's idf). */
  get size(): number {
    return this.index.size
  }

  get settings(): ResolvedBm25Settings {
    return this.index.settings
  }

  configure(settings: Bm25Settings): void {
    this.index.configure(settings)
  }

  bytes(): number {
    return this.index.bytes()
  }

  /**
   * Adds or replaces thing `id`: `text` as its own document, each of `aliases` as one more (an alias
   * equal to none is dropped by the caller). Alias documents beyond the new count are removed.
   */
  put(id: string, text: string, aliases: readonly string[]): void {
    this.index.add(id, text)
    aliases.forEach((alias, i) => this.index.add(`${id}${ALIAS}${i}`, alias))
    this.removeAliases(id, aliases.length)
  }

  /** Removes thing `id` and its alias documents; false when it was not there. */
  remove(id: string): boolean {
    this.removeAliases(id, 0)
    return this.index.remove(id)
  }

  private removeAliases(id: string, from: number): void {
    for (let i = from; this.index.remove(`${id}${ALIAS}${i}`); i++);
  }

  /**
   * Top `k` things by the best score of their documents, best first, ties broken by id; `filter` is
   * asked about things. Exact: a thing whose every document ranks below the `want`-th document scores
   * below each of them, so when `want` documents give `k` things those are the top `k`; otherwise
   * `want` doubles (only alias documents take places twice, so once is the rule).
   */
  search(query: string, k: number, filter?: (id: string) => boolean): ScoredId[] {
    const accept = filter === undefined ? undefined : (id: string) => filter(ownerOf(id))
    for (let want = k; ; want *= 2) {
      const hits = this.index.search(query, want, accept)
      const best = new Map<string, number>()
      for (const { id, score } of hits) {
        const owner = ownerOf(id)
        if (!best.has(owner)) best.set(owner, score)
      }
      if (best.size >= k || hits.length < want) {
        const top = [...best].map(([id, score]) => ({ id, score }))
        top.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        if (top.length > k) top.length = k
        return top
      }
    }
  }

  termWeights(text: string): TermWeight[] {
    return this.index.termWeights(text)
  }

  /** Which of `terms` thing `id` holds in any of its names or its description, in the order given. */
  heldTerms(id: string, terms: readonly string[]): string[] | undefined {
    const own = this.index.heldTerms(id, terms)
    if (own === undefined) return undefined
    const held = new Set(own)
    for (let i = 0; ; i++) {
      const alias = this.index.heldTerms(`${id}${ALIAS}${i}`, terms)
      if (alias === undefined) break
      for (const term of alias) held.add(term)
    }
    return terms.filter((term) => held.has(term))
  }

  /** As `Bm25Index.spread`, counting index documents (alias documents included). */
  spread(text: string): { holding: number; total: number } {
    return this.index.spread(text)
  }

  toParts(): SnapshotParts {
    return this.index.toParts()
  }
}
