import type { BrainStore, WriteBatch } from '../../contracts/storage-adapter.js'
import type { IndexComponent } from '../index-component.js'
import { GraphIndex } from './graph-index.js'

/**
 * A {@link GraphIndex} built on first use from the store, following commits from then on. Batches
 * committed while the build reads the store are replayed after it (puts are upserts, so a batch the
 * scan already saw is harmless). A failed build is retried by the next caller. A graph restored from
 * a valid snapshot (`index-snapshots.ts`) is that first use's answer: no build.
 */
export class LazyGraphIndex implements IndexComponent {
  readonly name = 'graph'
  private building: Promise<GraphIndex> | null = null
  private ready: GraphIndex | null = null
  private pending: WriteBatch[] = []
  /** Restored from a snapshot: never built from the store. */
  readonly restored: boolean

  constructor(restored?: GraphIndex) {
    this.restored = restored !== undefined
    if (restored === undefined) return
    this.ready = restored
    this.building = Promise.resolve(restored)
  }

  /** The graph once built or restored, without building it (what a snapshot save writes). */
  get built(): GraphIndex | null {
    return this.ready
  }

  /** Nothing to read yet: the graph is built by the first `get` (most searches never need it). */
  async build(): Promise<void> {}

  get(store: BrainStore): Promise<GraphIndex> {
    if (this.building === null) {
      this.pending = []
      this.building = GraphIndex.build(store).then(
        (graph) => {
          for (const batch of this.pending) graph.apply(batch)
          this.pending = []
          this.ready = graph
          return graph
        },
        (error: unknown) => {
          this.building = null
          throw error
        },
      )
    }
    return this.building
  }

  apply(batch: WriteBatch): void {
    if (this.ready !== null) this.ready.apply(batch)
    else if (this.building !== null) this.pending.push(batch)
  }

  /** The graph's estimate once built; nothing before (batches waiting for a build are not counted). */
  bytes(): number {
    return this.ready?.bytes() ?? 0
  }
}
