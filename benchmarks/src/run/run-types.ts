import type { Verdict } from '../config/verdict.js'
import type { CategoryScores } from '../metrics/evaluate-by-category.js'
import type { LatencySummary } from '../metrics/percentiles.js'
import type { EmbeddingSummary } from '../vectors/bench-vectors.js'
import type { Environment } from './environment.js'

export type Phase = 'ingest' | 'verify' | 'search'
export const ALL_PHASES: readonly Phase[] = ['ingest', 'verify', 'search']

/** What one system did in one config run. Pending systems carry only `missing`. */
export interface SystemResult {
  readonly name: string
  readonly label: string
  readonly role: 'engram' | 'peer'
  readonly status: 'measured' | 'pending'
  readonly missing?: string
  readonly scored?: boolean
  readonly documents?: number
  readonly indexMs?: number
  readonly latency?: LatencySummary
  readonly metrics?: Readonly<Record<string, number>>
  /**
   * The metrics per query category, when the dataset's queries carry one (LoCoMo's question categories);
   * reported, not judged (the verdict reads `metrics`).
   */
  readonly byCategory?: Readonly<Record<string, CategoryScores>>
  readonly verdicts?: Readonly<Record<string, Verdict>>
  readonly statsVerdict?: Verdict
  readonly runFile?: string
}

/** The record of one config run; saved as results/data/<config>.json and rendered into results/*.md. */
export interface ConfigResult {
  readonly config: string
  readonly dataset: string
  readonly condition: string
  readonly description: string
  readonly command: string
  readonly phases: readonly Phase[]
  readonly environment: Environment
  readonly corpus: { readonly documents: number; readonly queries: number; readonly groups: number }
  readonly notes: readonly string[]
  /** The embedding step, when a system used vectors: texts found in the cache and embedded, and its time. */
  readonly embedding?: EmbeddingSummary
  readonly indexStatsVerdict: Verdict
  readonly verdict: Verdict
  readonly metrics: readonly string[]
  readonly systems: readonly SystemResult[]
}
