import { percentile } from '../metrics/percentiles.js'

/** The spread of a handful of runs: every figure of the start-up report is given as these three. */
export interface MinMedianMax {
  readonly min: number
  readonly median: number
  readonly max: number
}

/**
 * Smallest, median and largest of `values`. The median is the nearest-rank one (`percentile(50)`), so it is
 * always a measured value; with an even count it is the lower middle. NaN for no values.
 */
export function minMedianMax(values: readonly number[]): MinMedianMax {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    min: sorted[0] ?? Number.NaN,
    median: percentile(sorted, 50),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  }
}
