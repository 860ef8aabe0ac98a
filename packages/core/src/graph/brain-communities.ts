import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { CommunityIndex } from './community-index.js'
import { KnowledgeGraph } from './knowledge-graph.js'
import type { LouvainOptions } from './louvain-communities.js'

export interface BrainCommunitiesOptions {
  /**
   * Share of the edges (as counted at the last computation) that must have changed before the
   * communities are recomputed (default 0.05). Node additions, removals and renames count as changes.
   */
  minChangeRatio?: number
  louvain?: LouvainOptions
  /** Runs a background recomputation later (default `setImmediate`). */
  schedule?: (task: () => void) => void
}

/**
 * The communities of one brain over time (DESIGN.md section 4: "recomputed when the graph has changed
 * enough, not on every write"). Nothing is built until the first request that needs communities: then
 * the graph is read from the store and Louvain runs once, on that request. From then on the graph
 * follows committed batches; when at least `minChangeRatio` of it changed since the last computation,
 * the next request schedules a recomputation in the background and is answered from the current
 * communities, which the new ones replace when done. Requests never wait for a recomputation.
 */
export class BrainCommunities {
  private readonly minChangeRatio: number
  private readonly louvain: LouvainOptions
  private readonly schedule: (task: () => void) => void
  private building: Promise<KnowledgeGraph> | null = null
  private kg: KnowledgeGraph | null = null
  private pending: WriteBatch[] = []
  private current: CommunityIndex | null = null
  private computedAt = { changes: 0, edges: 0 }
  private scheduled: Promise<void> | null = null
  /** The error of the last background recomputation, if it failed (null after a success). */
  lastError: unknown = null

  constructor(options: BrainCommunitiesOptions = {}) {
    this.minChangeRatio = options.minChangeRatio ?? 0.05
    this.louvain = options.louvain ?? {}
    this.schedule = options.schedule ?? ((task) => setImmediate(task))
  }

  /** Follows a committed batch (kept for replay while the graph is being read). */
  apply(batch: WriteBatch): void {
    if (this.kg !== null) this.kg.apply(batch)
    else if (this.building !== null) this.pending.push(batch)
  }

  /** The current communities, computed on first use; a stale set triggers a background refresh. */
  async index(store: BrainStore): Promise<CommunityIndex> {
    const kg = await this.graph(store)
    if (this.current === null) return this.compute(kg)
    if (this.stale(kg)) this.refreshLater(kg)
    return this.current
  }

  /** Recomputes now, whatever changed (tests, benchmarks, an operator's refresh). */
  async refresh(store: BrainStore): Promise<CommunityIndex> {
    return this.compute(await this.graph(store))
  }

  /** Resolves when no background recomputation is scheduled or running. */
  async settled(): Promise<void> {
    while (this.scheduled !== null) await this.scheduled
  }

  /** The graph has changed by at least `minChangeRatio` of its edges since the last computation. */
  stale(kg: KnowledgeGraph): boolean {
    const changed = kg.changes - this.computedAt.changes
    return changed > 0 && changed >= this.minChangeRatio * Math.max(1, this.computedAt.edges)
  }

  private graph(store: BrainStore): Promise<KnowledgeGraph> {
    if (this.building === null) {
      this.pending = []
      this.building = KnowledgeGraph.build(store).then(
        (kg) => {
          // Batches committed while the store was read: puts are upserts, so replaying is safe.
          for (const batch of this.pending) kg.apply(batch)
          this.pending = []
          this.kg = kg
          return kg
        },
        (error: unknown) => {
          this.building = null
          throw error
        },
      )
    }
    return this.building
  }

  private compute(kg: KnowledgeGraph): CommunityIndex {
    const changes = kg.changes
    this.current = CommunityIndex.compute(kg, this.louvain)
    this.computedAt = { changes, edges: kg.graph.size }
    return this.current
  }

  private refreshLater(kg: KnowledgeGraph): void {
    if (this.scheduled !== null) return
    this.scheduled = new Promise<void>((resolve) =>
      this.schedule(() => {
        try {
          this.compute(kg)
          this.lastError = null
        } catch (error) {
          // Keep serving the previous communities; the next stale request tries again.
          this.lastError = error
        } finally {
          this.scheduled = null
          resolve()
        }
      }),
    )
  }
}
