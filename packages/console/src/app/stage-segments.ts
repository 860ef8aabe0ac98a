import type { SearchResponse } from '@engram/client'

/** One stage of a search as a piece of the timings bar. */
export interface StageSegment {
  stage: string
  ms: number
  calls: number
  /** Share of the bar, 0..100; the shares of a bar add up to 100 (or 0 when nothing took time). */
  percent: number
}

type StageTimings = SearchResponse['stage_timings']

/**
 * The segments of the stacked timings bar: each stage's wall time as a share of the stages' summed time,
 * in the server's order. Stages may overlap in time (channels run concurrently), so the sum can exceed
 * `total_ms`; a stacked bar of shares stays readable where a time axis would not.
 */
export function stageSegments(timings: StageTimings): StageSegment[] {
  const stages = timings.stages ?? []
  const sum = stages.reduce((total, s) => total + Math.max(0, s.wall_ms), 0)
  return stages.map((s) => ({
    stage: s.stage,
    ms: s.wall_ms,
    calls: s.calls,
    percent: sum > 0 ? (Math.max(0, s.wall_ms) / sum) * 100 : 0,
  }))
}

/** A duration for a label: `0.42 ms`, `12.3 ms`, `1,204 ms`. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`
  if (ms < 100) return `${ms.toFixed(1)} ms`
  return `${Math.round(ms).toLocaleString('en-US')} ms`
}
