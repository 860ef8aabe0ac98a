import { performance } from 'node:perf_hooks'

export interface StageTiming {
  stage: string
  calls: number
  wall_ms: number
  started_ms: number
  ended_ms: number
}

/** Records wall time per named stage of one request (`stage_timings` when `profile_stages` is on). */
export interface StageTimer {
  time<T>(stage: string, fn: () => Promise<T>): Promise<T>
  timeSync<T>(stage: string, fn: () => T): T
  report(): { profile: true; total_ms: number; stages: StageTiming[] }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000

export function createStageTimer(): StageTimer {
  const origin = performance.now()
  const stages = new Map<string, StageTiming>()
  const record = (stage: string, start: number) => {
    const end = performance.now()
    const entry = stages.get(stage)
    if (entry === undefined) {
      stages.set(stage, {
        stage,
        calls: 1,
        wall_ms: end - start,
        started_ms: start - origin,
        ended_ms: end - origin,
      })
    } else {
      entry.calls++
      entry.wall_ms += end - start
      entry.ended_ms = end - origin
    }
  }
  return {
    async time(stage, fn) {
      const start = performance.now()
      try {
        return await fn()
      } finally {
        record(stage, start)
      }
    },
    timeSync(stage, fn) {
      const start = performance.now()
      try {
        return fn()
      } finally {
        record(stage, start)
      }
    },
    report() {
      return {
        profile: true,
        total_ms: round(performance.now() - origin),
        stages: [...stages.values()].map((s) => ({
          ...s,
          wall_ms: round(s.wall_ms),
          started_ms: round(s.started_ms),
          ended_ms: round(s.ended_ms),
        })),
      }
    },
  }
}
