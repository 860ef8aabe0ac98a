import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'

/** Lets other work run between slices of a long synchronous job (see `loop-yielder.ts`). */
export type Pause = () => Promise<void> | undefined

/**
 * One in-memory index of a brain, owned by the index manager (in the spirit of Orama's components:
 * every index is built, updated and persisted through the same few members). The manager builds a
 * brain's components from storage on first use, hands each committed batch to every component in
 * commit order, and is the only caller of these members.
 */
export interface IndexComponent {
  /** For logs: `lexical`, `vectors`, `graph`, `communities`. */
  readonly name: string
  /**
   * Fills the index from the brain's stored records, calling `pause` between records so requests are
   * served meanwhile. A lazy component (one most brains never need) may only remember `store` here
   * and read it on first use, replaying the batches `apply` received in between.
   */
  build(store: BrainStore, pause: Pause): Promise<void>
  /** Follows a committed batch (puts, then deletes, as the store applied them). */
  apply(batch: WriteBatch, pause: Pause): Promise<void> | void
  /** Writes a snapshot the next process can `load` instead of building (vector indexes). */
  save?(store: BrainStore): Promise<void>
  /** Restores from a snapshot before `build`; false when there is none (or it is stale). */
  load?(store: BrainStore): Promise<boolean>
  /**
   * Estimated bytes the component holds (heap and native), from sizes it keeps anyway: cheap enough
   * to call on every request (see `index-bytes.ts`). Absent: counted as nothing by the memory budget.
   */
  bytes?(): number
}
