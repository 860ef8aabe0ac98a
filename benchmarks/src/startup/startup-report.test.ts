import { describe, expect, it } from 'vitest'
import { describeRenderedPage } from '../report/rendered-page.test-helper.js'
import { minMedianMax } from './min-median-max.js'
import { STARTUP_COMMAND } from './run-startup.js'
import { firstSearchVerdict, startupReport, startupVerdicts } from './startup-report.js'
import type { HealthRun, SearchRun, StartupResult } from './startup-result.js'
import { TEST_ENVIRONMENT } from '../run/environment.test-helper.js'

const health = (healthMs: number, rssAfterMb: number): HealthRun => ({
  healthMs,
  cpuAtHealthMs: healthMs * 0.8,
  mainThreadCpuAtHealthMs: healthMs * 0.6,
  rssAtHealthMb: rssAfterMb - 2,
  hwmAtHealthMb: rssAfterMb - 1,
  rssAfterMb,
  hwmAfterMb: rssAfterMb,
  childProcesses: 0,
  stopMs: 100,
  exitCode: 0,
  load1: 0.5,
})

const search = (firstMs: number, laterMs: number): SearchRun => ({
  healthMs: 900,
  cpuAtHealthMs: 800,
  mainThreadCpuAtHealthMs: 600,
  firstQuery: 'q0',
  firstMs,
  laterMs: Array.from({ length: 10 }, (_, i) => laterMs + i),
  hits: Array.from({ length: 11 }, () => 3),
  rssAfterMb: 150,
  hwmAfterMb: 160,
  exitCode: 0,
  load1: 0.5,
})

/** A three-run result: `EMBEDDER=none` meets every target, use-lite starts in 3 s with a 1.9 s first search. */
function result(helpCode = 0): StartupResult {
  return {
    environment: TEST_ENVIRONMENT,
    loadBefore: [0.5, 0.4, 0.3],
    loadAfter: [0.6, 0.4, 0.3],
    runs: 3,
    seededTasks: 6,
    commands: {
      serve: 'node cli.js serve',
      help: 'node cli.js --help',
      npmHelp: 'npm run engram -- --help',
    },
    health: {
      none: [health(900, 120), health(1000, 130), health(2000, 250)],
      'use-lite': [health(3000, 300), health(3100, 310), health(2900, 305)],
    },
    search: {
      none: [search(12, 5), search(14, 5), search(500, 5)],
      'use-lite': [search(1900, 20), search(1850, 20), search(2000, 20)],
    },
    help: [100, 120, 110].map((ms) => ({ ms, code: helpCode, usage: true })),
    npmHelp: [600, 650, 700].map((ms) => ({ ms, code: 0, usage: true })),
  }
}

describe('minMedianMax', () => {
  it('gives a measured value as the median (the lower middle of an even count)', () => {
    expect(minMedianMax([3, 1, 2])).toEqual({ min: 1, median: 2, max: 3 })
    expect(minMedianMax([4, 1, 3, 2])).toEqual({ min: 1, median: 2, max: 4 })
    expect(minMedianMax([]).median).toBeNaN()
  })
})

describe('start-up verdicts', () => {
  it('judges each target on the median of the runs', () => {
    const verdicts = startupVerdicts(result()).map((v) => v.verdict)
    // Medians: health none 1,000 ms, use-lite 3,000 ms; RSS 130 MB; help 110 ms; first search none
    // 14 ms against later ones of 9 ms (limit 59 ms), use-lite 1,900 ms against 24 ms.
    expect(verdicts).toEqual(['OK', 'FAIL', 'OK', 'OK', 'OK', 'FAIL'])
  })

  it('fails --help when a run did not exit with 0, however fast', () => {
    expect(startupVerdicts(result(1))[3]!.verdict).toBe('FAIL')
  })

  it('allows a first search twice the later ones, or 50 ms above them', () => {
    expect(firstSearchVerdict(1900, 10)).toBe('FAIL')
    expect(firstSearchVerdict(59, 10)).toBe('OK')
    expect(firstSearchVerdict(61, 10)).toBe('FAIL')
    expect(firstSearchVerdict(400, 200)).toBe('OK')
    expect(firstSearchVerdict(401, 200)).toBe('FAIL')
  })

  it('reports the counts of missed targets and the load', () => {
    const md = startupReport(result(), STARTUP_COMMAND)
    expect(md).toContain('2 of 6 targets missed.')
    expect(md).toContain('Load average (1 / 5 / 15 min) 0.50 / 0.40 / 0.30 before')
    expect(md).not.toContain('competed for the CPU')
  })
})

describeRenderedPage<StartupResult>('startup', (saved) => startupReport(saved, STARTUP_COMMAND))
