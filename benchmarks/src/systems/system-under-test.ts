import type { BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'

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

/** Creates a fresh, empty system; called once per retrieval group. */
export type SystemFactory = () => Promise<SystemUnderTest>

/**
 * A system the harness knows by name but cannot build yet. `missing` names the capability that does not exist
 * (e.g. "packages/core/src/embedders (no local embedder)"); results show it as pending instead of a number.
 */
export interface PendingSystem {
  readonly name: string
  readonly missing: string
}

export type SystemResolution =
  | { readonly ready: true; readonly create: SystemFactory }
  | { readonly ready: false; readonly missing: string }
