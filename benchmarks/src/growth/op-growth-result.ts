import type { Environment } from '../run/environment.js'

export const OP_GROWTH_COMMAND = 'npm run bench -- --op-growth'
/** Brain sizes (entities) of issue 29 item 4. */
export const OP_GROWTH_SIZES: readonly number[] = [1_000, 3_000, 10_000, 30_000, 100_000]

/** One operation at one brain size, in milliseconds. */
export interface OpTiming {
  readonly name: string
  readonly shape: string
  /** Timed requests after the first (0 when the operation failed). */
  readonly count: number
  /** The first request at this size (indexes built or caches filled after the growth step). */
  readonly firstMs: number
  readonly p50: number
  /** Nearest-rank p99: with fewer than 100 requests, the slowest one. */
  readonly p99: number
  readonly mean: number
  /**
   * Mean response bytes of the timed requests: when it grows with the brain, so does the answer (more
   * seeds, hits or neighbours found), not only the work behind a same-sized one.
   */
  readonly meanBytes: number
  /** The error of the first failing request, when one failed. */
  readonly error?: string
}

/** The brain at one measured size, and every operation timed on it. */
export interface GrowthStep {
  readonly target: number
  readonly entities: number
  readonly relationships: number
  readonly passages: number
  readonly observations: number
  readonly changelog: number
  readonly sources: number
  /** Wall time spent growing the brain up to this size (cumulative), ms. */
  readonly growMs: number
  /** The process's resident set after the step's measurements, MB. */
  readonly rssMb: number
  readonly ops: readonly OpTiming[]
}

export interface OpGrowthResult {
  readonly command: string
  readonly environment: Environment
  readonly steps: readonly GrowthStep[]
  /** Wall time of the whole run, ms. */
  readonly wallMs: number
}
