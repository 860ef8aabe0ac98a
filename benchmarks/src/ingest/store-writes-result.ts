import type { Environment } from '../run/environment.js'

/** One replay of every recorded store write into a fresh SQLite data directory. */
export interface StoreWritesReplay {
  readonly wallMs: number
  /** User + system CPU of the process (all threads: the checkpoint worker too). */
  readonly cpuMs: number
  readonly load1: number
}

/** WAL frames (one 4 KiB page each) the commits of one kind wrote, over one brain's writes. */
export interface CommitFrames {
  readonly kind: 'batch (store.apply)' | 'task created (tasks.create)' | 'task updated (tasks.put)'
  readonly commits: number
  readonly frames: number
}

/** results/data/store-writes.json: what `--store-writes` measured. */
export interface StoreWritesResult {
  readonly command: string
  readonly environment: Environment
  /** LoCoMo dev turn tasks ingested (one passage each) and the brains (conversations) they went to. */
  readonly tasks: number
  readonly brains: number
  readonly passages: number
  /** The writes recorded while ingesting, in the order the engine made them. */
  readonly writes: { readonly applies: number; readonly creates: number; readonly puts: number }
  readonly replays: readonly StoreWritesReplay[]
  /** Frame counts of one brain's writes, replayed one commit at a time after an emptied WAL. */
  readonly frames: {
    readonly brain: string
    readonly commits: readonly CommitFrames[]
    /** Frames of the batch commits by the table or index (b-tree) their page belongs to. */
    readonly trees: readonly { readonly name: string; readonly frames: number }[]
  }
}
