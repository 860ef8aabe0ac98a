import type { SearchResponse } from '@engram/client'

/** One stage of a search as a piece of the timings bar. */
export interface StageSegment {
  stage: string
  ms: number
  calls: number
  /** Share of the bar, 0..100; the shares of a bar add up to 100 (or 0 when nothing took time). */
  percent: number
  /** Where the stage starts on the search's time axis, 0..100 of the span the stages cover. */
  start: number
  /** How much of that axis it covers, 0..100 (at least a sliver, so a 0.01 ms stage stays visible). */
  width: number
}

/** The narrowest a stage is drawn on the time axis, in percent. */
export const MIN_WIDTH = 0.4

type StageTimings = SearchResponse['stage_timings']

/**
 * The stages of a profiled search, in the server's order: each on the search's time axis (`start`,
 * `width`: from `started_ms` to `ended_ms`, over the span from 0 to `total_ms`), which shows what ran
 * at once (a channel's stage inside `search.retrieve`), and as a share of the stages' summed wall time
 * (`percent`; the sum can exceed `total_ms` because stages overlap).
 */
export function stageSegments(timings: StageTimings): StageSegment[] {
  const stages = timings.stages ?? []
  const sum = stages.reduce((total, s) => total + Math.max(0, s.wall_ms), 0)
  const span = Math.max(timings.total_ms ?? 0, ...stages.map((s) => s.ended_ms))
  const at = (ms: number) => (span > 0 ? Math.min(100, Math.max(0, (ms / span) * 100)) : 0)
  return stages.map((s) => {
    const start = at(s.started_ms)
    return {
      stage: s.stage,
      ms: s.wall_ms,
      calls: s.calls,
      percent: sum > 0 ? (Math.max(0, s.wall_ms) / sum) * 100 : 0,
      start: Math.min(start, 100 - MIN_WIDTH),
      width: Math.max(MIN_WIDTH, Math.min(at(s.ended_ms) - start, 100 - start)),
    }
  })
}

/** A duration for a label: `0.42 ms`, `12.3 ms`, `1,204 ms`. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`
  if (ms < 100) return `${ms.toFixed(1)} ms`
  return `${Math.round(ms).toLocaleString('en-US')} ms`
}
