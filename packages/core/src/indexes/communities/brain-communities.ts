import type { BrainStore, WriteBatch } from '../../contracts/storage-adapter.js'
import type { GraphIndex } from '../graph/graph-index.js'
import type { LazyGraphIndex } from '../graph/lazy-graph-index.js'
import type { IndexComponent } from '../index-component.js'
import { CommunityIndex } from './community-index.js'
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
 * enough, not on every write"), computed from the brain's one in-memory graph. Nothing is computed
 * until the first request that needs communities: Louvain then runs once, on that request. When at
 * least `minChangeRatio` of the graph changed since the last computation (the graph counts its
 * changes), the next request schedules a recomputation in the background and is answered from the
 * current communities, which the new ones replace when done. Requests never wait for a recomputation.
 */
export class BrainCommunities implements IndexComponent {
  readonly name = 'communities'
  private readonly minChangeRatio: number
  private readonly louvain: LouvainOptions
  private readonly schedule: (task: () => void) => void
  private current: CommunityIndex | null = null
  private computedAt = { changes: 0, edges: 0 }
  private scheduled: Promise<void> | null = null
  /** The error of the last background recomputation, if it failed (null after a success). */
  lastError: unknown = null

  constructor(
    private readonly graph: LazyGraphIndex,
    options: BrainCommunitiesOptions = {},
  ) {
    this.minChangeRatio = options.minChangeRatio ?? 0.05
    this.louvain = options.louvain ?? {}
    this.schedule = options.schedule ?? ((task) => setImmediate(task))
  }

  /** Nothing to read: communities are computed from the graph on first use. */
  async build(): Promise<void> {}

  /**
   * The graph counts its changes, and `index` recomputes when they are enough; but a batch that deletes
   * (a forget) drops the current communities at once: their hubs and extractive summaries may name
   * what was deleted, and must not be served again (docs/forgetting.md). The next request recomputes.
   */
  apply(batch: WriteBatch): void {
    if ((batch.deleteEntities?.length ?? 0) > 0 || (batch.deleteRelationships?.length ?? 0) > 0)
      this.current = null
  }

  /** The current communities' estimate; nothing before the first computation. */
  bytes(): number {
    return this.current?.bytes() ?? 0
  }

  /** The current communities, computed on first use; a stale set triggers a background refresh. */
  async index(store: BrainStore): Promise<CommunityIndex> {
    const graph = await this.graph.get(store)
    if (this.current === null) return this.compute(graph)
    if (this.stale(graph)) this.refreshLater(graph)
    return this.current
  }

  /** Recomputes now, whatever changed (tests, benchmarks, an operator's refresh). */
  async refresh(store: BrainStore): Promise<CommunityIndex> {
    return this.compute(await this.graph.get(store))
  }

  /** Resolves when no background recomputation is scheduled or running. */
  async settled(): Promise<void> {
    while (this.scheduled !== null) await this.scheduled
  }

  /** The graph has changed by at least `minChangeRatio` of its edges since the last computation. */
  stale(graph: GraphIndex): boolean {
    const changed = graph.changes - this.computedAt.changes
    return changed > 0 && changed >= this.minChangeRatio * Math.max(1, this.computedAt.edges)
  }

  private compute(graph: GraphIndex): CommunityIndex {
    const changes = graph.changes
    this.current = CommunityIndex.compute(graph, this.louvain)
    this.computedAt = { changes, edges: this.current.stats.edges }
    return this.current
  }

  private refreshLater(graph: GraphIndex): void {
    if (this.scheduled !== null) return
    this.scheduled = new Promise<void>((resolve) =>
      this.schedule(() => {
        try {
          this.compute(graph)
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
