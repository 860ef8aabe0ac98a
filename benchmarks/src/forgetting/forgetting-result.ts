import type { Environment } from '../run/environment.js'
import type { ForgetLatencyResult } from './forget-latency.js'
import type { NoGhostsResult } from './no-ghosts.js'

export const FORGETTING_COMMAND = 'npm run bench -- --forgetting'

/** Issue 26: forgetting a one-passage source in a 100,000-passage brain, search no longer returns it. */
export const FORGET_P50_TARGET_MS = 50
/** Passages of the large brain (issue 26's figure). */
export const FORGET_BRAIN_PASSAGES = 100_000
/** One-passage sources ingested then forgotten together, for index memory. */
export const FORGET_BULK = 200

/** Everything `--forgetting` measured: results/data/forgetting.json, rendered to results/forgetting.md. */
export interface ForgettingResult {
  readonly environment: Environment
  readonly loadBefore: readonly number[]
  readonly loadAfter: readonly number[]
  readonly runs: number
  readonly latency: readonly ForgetLatencyResult[]
  readonly ghosts: readonly NoGhostsResult[]
  /** Wall time of each child, ms (what a rerun costs). */
  readonly wallMs: Record<string, number>
}
