import type { Environment } from '../run/environment.js'
import type { SnapshotSave } from '../scale/measure-startup.js'

/**
 * How a new process gets a PostgreSQL brain's indexes: `snapshot` loads every snapshot of a local
 * `INDEX_SNAPSHOT_DIR` whose labels are the feed's head (nothing to apply); `tail` loads snapshots
 * labelled before another process's writes and applies those feed entries first; `rebuild` has no
 * snapshot directory and builds everything from PostgreSQL.
 */
export type PostgresStartMode = 'snapshot' | 'tail' | 'rebuild'
export const POSTGRES_START_MODES: readonly PostgresStartMode[] = ['snapshot', 'tail', 'rebuild']

/** Passages a tail write commits: a small write, one write-feed entry each. */
export const TAIL_COMMIT_PASSAGES = 5

/** The first process: passages with SYNTHETIC vectors committed, every index built, snapshots saved. */
export interface PostgresSeed {
  readonly passages: number
  readonly dimension: number
  /** `engram.commit` of the passages and vectors, 1,000 a batch. */
  readonly commitMs: number
  /** `engram.indexes.get`: every index built from PostgreSQL (BM25 + HNSW inserts). */
  readonly indexMs: number
  readonly save: SnapshotSave
  readonly lexicalSave: { readonly writeMs: number; readonly syncMs: number }
  readonly snapshotBytes: number
  readonly load1: number
}

/** Another process's writes after the save (no snapshot directory): small commits, one feed entry each. */
export interface PostgresTailWrites {
  readonly commits: number
  readonly passages: number
  readonly ms: number
  readonly load1: number
}

/** One start in a new process, until its first search (then once more after the HNSW graph is in). */
export interface PostgresStart {
  readonly mode: PostgresStartMode
  readonly passages: number
  readonly vectors: number
  readonly vectorOrigin: string
  readonly lexicalOrigin: string
  /** Feed entries applied on top of the snapshots before the brain served (0 without a tail). */
  readonly feedReplayed: number
  /** `createEngine` + `start()`: pool, migrations check, default brain ensured, write follower. */
  readonly engineStartMs: number
  /** `engram.indexes.get(brainId)`, the feed tail applied included. */
  readonly indexesMs: number
  /** Parts of `indexesMs`, from the engine's `brain indexes built` log line. */
  readonly snapshotLoadMs: number
  readonly lexicalMs: number
  readonly vectorRebuildMs: number
  /** The rest of `indexesMs`: for a `tail` start mostly the entries read back and applied. */
  readonly otherMs: number
  readonly indexesMaxStallMs: number
  readonly firstSearchMs: number
  readonly graphAtFirstSearch: boolean
  readonly graphReadyMs: number
  readonly graphSearchMs: number
  readonly searchableMs: number
  /** Process start -> first search answered (node, built JavaScript, module loading included). */
  readonly sinceProcessStartMs: number
  readonly cpuMs: number
  readonly rssMb: number
  readonly firstSearchHits: number
  readonly load1: number
}

/** What `npm run bench -- --startup-postgres` saves in results/data/startup-postgres.json. */
export interface StartupPostgresResult {
  /** The command that produced it (`npm run bench -- --startup-postgres [runs]`). */
  readonly command: string
  readonly environment: Environment
  readonly postgres: string
  /** `pg_database_size` once every write was in. */
  readonly databaseBytes: number
  readonly seed: PostgresSeed
  readonly tailWrites: PostgresTailWrites
  /** The untimed start that brought a copy of the snapshots to the feed's head (and saved them). */
  readonly settle: PostgresStart & { readonly saveMs: number }
  readonly starts: Readonly<Record<PostgresStartMode, readonly PostgresStart[]>>
  readonly loadAfter: readonly number[]
}
