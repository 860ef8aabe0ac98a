import type { BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import type { BenchVectors } from '../vectors/bench-vectors.js'

/**
 * The one interface the harness drives, for Engram conditions and peers alike. A system indexes one group's
 * documents once, then answers queries. Everything the harness measures goes through these three calls, so an
 * Engram condition and a peer are timed and scored the same way.
 */
export interface SystemUnderTest {
  /** Stable name used in configs, run files and result tables (`engram`, `minisearch`, ...). */
  readonly name: string
  /** Human description for tables, e.g. `SQLite FTS5 bm25() (porter, OR query)`. */
  readonly label: string
  /**
   * False when the system returns a ranking without scores (FlexSearch). The harness then writes 1/rank as the
   * TREC score and says so in the results; rank metrics stay meaningful, score fusion does not.
   */
  readonly scored: boolean
  index(docs: readonly BenchDoc[]): Promise<void>
  search(query: string, k: number): Promise<Hit[]>
  stats(): SystemStats
  close?(): Promise<void>
}

export interface SystemStats {
  readonly documents: number
}

/** What the harness hands every factory. */
export interface SystemDeps {
  /**
   * The run's vectors (one embedder behind the on-disk cache), shared by every system that sets
   * `usesVectors`, so Engram and the vector peers embed documents and queries identically.
   */
  readonly vectors: BenchVectors
}

/** Creates a fresh, empty system; called once per retrieval group. */
export type SystemFactory = (deps: SystemDeps) => Promise<SystemUnderTest>

/**
 * A system the harness knows by name but cannot build yet. `missing` names the capability that does not exist
 * (e.g. "packages/core/src/embedders (no local embedder)"); results show it as pending instead of a number.
 */
export interface PendingSystem {
  readonly name: string
  readonly missing: string
}

export type SystemResolution =
  | {
      readonly ready: true
      readonly create: SystemFactory
      /**
       * The system embeds documents and queries through `deps.vectors`: the harness embeds the whole
       * corpus and query set before any system runs, so index and query timings exclude the model.
       */
      readonly usesVectors?: boolean
    }
  | { readonly ready: false; readonly missing: string }
