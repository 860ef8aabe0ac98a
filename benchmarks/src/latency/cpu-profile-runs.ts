import { percentile } from '../metrics/percentiles.js'
import type { CpuProfile } from './cpu-profile-summary.js'

/** Stretches of consecutive profile samples inside a frame, ms. */
export interface SampleRuns {
  readonly count: number
  readonly totalMs: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Stretches longer than 20 ms, and their summed time. */
  readonly over20: number
  readonly over20Ms: number
}

/**
 * Runs of consecutive samples whose stack holds a frame named `name` (V8 samples every ~1 ms; a sample
 * is charged the time to the next one, as in cpu-profile-summary.ts). A synchronous call shows as one
 * run, so for a function that never yields (a better-sqlite3 transaction) each run is one call and its
 * length is how long it held the thread: on a shared machine that includes time the thread was not
 * scheduled, as any wall-clock stall does.
 */
export function sampleRuns(profile: CpuProfile, name: RegExp): SampleRuns {
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const inside = new Map<number, boolean>()
  const within = (id: number): boolean => {
    let known = inside.get(id)
    if (known === undefined) {
      const up = parent.get(id)
      known = name.test(byId.get(id)!.callFrame.functionName) || (up !== undefined && within(up))
      inside.set(id, known)
    }
    return known
  }
  const runs: number[] = []
  let current = -1
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0
    if (within(profile.samples[i]!)) current = (current < 0 ? 0 : current) + us / 1000
    else if (current >= 0) {
      runs.push(current)
      current = -1
    }
  }
  if (current >= 0) runs.push(current)
  const sorted = runs.sort((a, b) => a - b)
  const long = sorted.filter((ms) => ms > 20)
  return {
    count: sorted.length,
    totalMs: sorted.reduce((a, b) => a + b, 0),
    p50: sorted.length ? percentile(sorted, 50) : 0,
    p99: sorted.length ? percentile(sorted, 99) : 0,
    max: sorted.at(-1) ?? 0,
    over20: long.length,
    over20Ms: long.reduce((a, b) => a + b, 0),
  }
}
