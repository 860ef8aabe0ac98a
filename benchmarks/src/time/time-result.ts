import type { Environment } from '../run/environment.js'
import type { ConditionLatency } from './as-of-latency.js'
import type { TimedIngestRun } from './timed-ingest.js'

export const TIME_COMMAND = 'npm run bench -- --time'
/** The per-category run that results/time.md quotes (with against without contradictions). */
export const TIME_CATEGORY_CONFIG = 'locomo-dev.default'
export const TIME_CATEGORY_PEER = 'engram-graph:no-contradictions'
/** The name of the LoCoMo corpus in `TimeResult.ingest`. */
export const LOCOMO_CORPUS = 'LoCoMo dev turns'

/** One corpus ingested with and without contradictions, runs in the order they ran (ABBA...). */
export interface TimeIngestCorpus {
  readonly name: string
  /** What the corpus is, for the table (SYNTHETIC when it is). */
  readonly description: string
  readonly runs: readonly TimedIngestRun[]
}

/** `as_of` / `known_at` search latency on one brain (or set of brains) built with contradictions. */
export interface TimeSearchBrain {
  readonly name: string
  readonly description: string
  readonly passages: number
  readonly queries: number
  readonly conditions: readonly ConditionLatency[]
}

/** Everything `--time` measured: results/data/time.json, rendered to results/time.md. */
export interface TimeResult {
  readonly environment: Environment
  readonly loadBefore: readonly number[]
  readonly loadAfter: readonly number[]
  /** Runs per condition per corpus. */
  readonly rounds: number
  /** The server settings the ingestion ran with. */
  readonly server: {
    readonly workers: number
    readonly workersPerBrain: number
    readonly extractorWorkers: number
  }
  readonly ingest: readonly TimeIngestCorpus[]
  readonly search: readonly TimeSearchBrain[]
  readonly wallMs: number
}
