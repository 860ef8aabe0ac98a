import { describe, expect, it } from 'vitest'
import { formatMs, MIN_WIDTH, stageSegments } from './stage-segments.js'

const stage = (name: string, wall: number) => ({
  stage: name,
  calls: 1,
  wall_ms: wall,
  started_ms: 0,
  ended_ms: wall,
})

describe('stageSegments', () => {
  it('gives each stage its share of the summed wall time, in order', () => {
    const segments = stageSegments({
      profile: true,
      total_ms: 5,
      stages: [stage('search.channels', 3), stage('search.fuse', 1), stage('search.hydrate', 4)],
    })
    expect(segments.map((s) => [s.stage, s.percent])).toEqual([
      ['search.channels', 37.5],
      ['search.fuse', 12.5],
      ['search.hydrate', 50],
    ])
    expect(segments.reduce((sum, s) => sum + s.percent, 0)).toBeCloseTo(100)
  })

  it('places each stage on the time axis from its start to its end', () => {
    const segments = stageSegments({
      total_ms: 10,
      stages: [
        { stage: 'search.retrieve', calls: 1, wall_ms: 6, started_ms: 1, ended_ms: 7 },
        { stage: 'search.bm25', calls: 1, wall_ms: 2, started_ms: 2, ended_ms: 4 },
        { stage: 'search.fusion', calls: 1, wall_ms: 0.001, started_ms: 7, ended_ms: 7.001 },
      ],
    })
    expect(segments.map((s) => [s.start, s.width])).toEqual([
      [10, 60],
      [20, 20],
      [70, MIN_WIDTH],
    ])
  })

  it('is empty without profiling and zero-width when nothing took time', () => {
    expect(stageSegments({})).toEqual([])
    expect(stageSegments({ stages: [stage('a', 0), stage('b', 0)] }).map((s) => s.percent)).toEqual(
      [0, 0],
    )
  })
})

describe('formatMs', () => {
  it('keeps two, one or no decimals by size', () => {
    expect(formatMs(0.421)).toBe('0.42 ms')
    expect(formatMs(12.34)).toBe('12.3 ms')
    expect(formatMs(1204.4)).toBe('1,204 ms')
  })
})
