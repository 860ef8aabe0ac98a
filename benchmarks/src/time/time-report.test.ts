import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resultsDir } from '../paths.js'
import type { ConfigResult, SystemResult } from '../run/run-types.js'
import type { ConditionLatency } from './as-of-latency.js'
import { categoryRun } from './run-time-bench.js'
import type { TimedIngestRun } from './timed-ingest.js'
import { lowerCategories, timeReport } from './time-report.js'
import { TIME_CATEGORY_PEER, TIME_COMMAND, type TimeResult } from './time-result.js'

const env = { cpu: 'x', cores: 2, memoryGb: 1, node: 'v20', os: 'linux', date: 'd', load1: 1 }

function system(name: string, r10: Record<string, number>): SystemResult {
  return {
    name,
    label: name,
    role: name === 'engram' ? 'engram' : 'peer',
    status: 'measured',
    metrics: { 'R@10': 0.5 },
    byCategory: Object.fromEntries(
      Object.entries(r10).map(([c, v]) => [c, { queries: 3, metrics: { 'R@10': v } }]),
    ),
  }
}

function run(withR10: Record<string, number>, withoutR10: Record<string, number>): ConfigResult {
  return {
    config: 'locomo-dev.default',
    dataset: 'locomo-dev',
    condition: 'default',
    description: '',
    command: '',
    phases: ['ingest', 'verify', 'search'],
    environment: env,
    corpus: { documents: 10, queries: 6, groups: 1 },
    notes: [],
    indexStatsVerdict: 'OK',
    verdict: 'OK',
    metrics: ['R@10'],
    systems: [system('engram', withR10), system(TIME_CATEGORY_PEER, withoutR10)],
  }
}

const ingestRun = (contradictions: 'with' | 'without', wallMs: number): TimedIngestRun => ({
  contradictions,
  tasks: 100,
  passages: 100,
  relationships: 50,
  ended: contradictions === 'with' ? 10 : 0,
  invalidations: contradictions === 'with' ? 10 : 0,
  wallMs,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:01.000Z',
  cpuMs: wallMs,
  failed: 0,
  load1: 1,
})

const latency = (condition: ConditionLatency['condition'], p50: number): ConditionLatency => ({
  condition,
  latency: { count: 10, p50, p95: p50 * 2, p99: p50 * 3, mean: p50 },
  meanHits: 10,
  changed: condition === 'now' ? 0 : 0.25,
})

const result: TimeResult = {
  environment: env,
  loadBefore: [1, 1, 1],
  loadAfter: [2, 2, 2],
  rounds: 1,
  server: { workers: 5, workersPerBrain: 4, extractorWorkers: 2 },
  ingest: [
    {
      name: 'corpus',
      description: 'SYNTHETIC',
      runs: [ingestRun('with', 500), ingestRun('without', 400)],
    },
  ],
  search: [
    {
      name: 'brain',
      description: 'b',
      passages: 100,
      queries: 10,
      conditions: [latency('now', 2), latency('as_of', 3), latency('known_at', 2.5)],
    },
  ],
  wallMs: 1000,
}

describe('time report', () => {
  it('finds the categories where "with" is below "without", to 4 decimals', () => {
    expect(lowerCategories(run({ '1': 0.5, '2': 0.8 }, { '1': 0.5, '2': 0.8 }))).toEqual([])
    expect(lowerCategories(run({ '1': 0.5, '2': 0.8 }, { '1': 0.50004, '2': 0.81 }))).toEqual([
      '2 temporal R@10',
    ])
  })

  it('gives the verdict, throughput change and latencies, or says what is not measured', () => {
    const same = timeReport(result, run({ '2': 0.8 }, { '2': 0.8 }), TIME_COMMAND)
    expect(same).toContain('**No category lower**')
    expect(same).toContain('| 2 temporal | 3 | 0.8000 | 0.8000 | 0.0000 |')
    // 100 passages in 0.5 s against 0.4 s: 200 against 250 passages/s, 20% fewer.
    expect(same).toContain('| corpus | 200.0 | 250.0 | -20.0% | 5.00 | 4.00 | 25.0% | 10 |')
    expect(same).toContain(
      '| brain | 100 | 10 | as_of | 3.00 / 6.00 / 9.00 | 3.00 | 10.0 | 25.0% |',
    )
    expect(same).not.toContain('only those can make')
    const locomo = { ...result, ingest: [{ ...result.ingest[0]!, name: 'LoCoMo dev turns' }] }
    expect(timeReport(locomo, undefined, TIME_COMMAND)).toContain(
      'end 10 fact(s) (10 relationships)',
    )
    const lower = timeReport(result, run({ '2': 0.7 }, { '2': 0.8 }), TIME_COMMAND)
    expect(lower).toContain('**Lower with contradictions** on: 2 temporal R@10.')
    expect(timeReport(result, undefined, TIME_COMMAND)).toContain('Not measured yet')
  })

  const data = join(resultsDir, 'data', 'time.json')
  // The saved data is committed with the page.
  it('is what its saved data renders (edit the code, not the file)', () => {
    const saved = JSON.parse(readFileSync(data, 'utf8')) as TimeResult
    expect(readFileSync(join(resultsDir, 'time.md'), 'utf8')).toBe(
      timeReport(saved, categoryRun(resultsDir), TIME_COMMAND),
    )
  })
})
