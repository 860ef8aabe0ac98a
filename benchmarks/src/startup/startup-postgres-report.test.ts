import { describe, expect, it } from 'vitest'
import { describeRenderedPage } from '../report/rendered-page.test-helper.js'
import { medianStart, startupPostgresReport } from './startup-postgres-report.js'
import { TEST_ENVIRONMENT } from '../run/environment.test-helper.js'
import type {
  PostgresStart,
  PostgresStartMode,
  StartupPostgresResult,
} from './startup-postgres-result.js'

function start(
  mode: PostgresStartMode,
  sinceProcessStartMs: number,
  feedReplayed = 0,
): PostgresStart {
  return {
    mode,
    passages: 100_000,
    vectors: 100_000,
    vectorOrigin: mode === 'rebuild' ? 'storage' : 'snapshot',
    lexicalOrigin: mode === 'rebuild' ? 'storage' : 'snapshot',
    feedReplayed,
    engineStartMs: 50,
    indexesMs: sinceProcessStartMs - 400,
    snapshotLoadMs: 300,
    lexicalMs: 0,
    vectorRebuildMs: 0,
    otherMs: sinceProcessStartMs - 700,
    indexesMaxStallMs: 80,
    firstSearchMs: 20,
    graphAtFirstSearch: false,
    graphReadyMs: sinceProcessStartMs,
    graphSearchMs: 5,
    searchableMs: sinceProcessStartMs - 300,
    sinceProcessStartMs,
    cpuMs: sinceProcessStartMs * 1.2,
    rssMb: 600,
    firstSearchHits: 10,
    load1: 1,
  }
}

function result(): StartupPostgresResult {
  return {
    command: 'npm run bench -- --startup-postgres',
    environment: TEST_ENVIRONMENT,
    postgres: '15.0',
    databaseBytes: 700 * 2 ** 20,
    seed: {
      passages: 95_000,
      dimension: 512,
      commitMs: 30_000,
      indexMs: 190_000,
      save: { ms: 2000, writeMs: 1500, syncMs: 200, maxStallMs: 50 },
      lexicalSave: { writeMs: 100, syncMs: 10 },
      snapshotBytes: 420 * 2 ** 20,
      load1: 1,
    },
    tailWrites: { commits: 1000, passages: 5000, ms: 12_000, load1: 1 },
    settle: { ...start('tail', 9000, 1000), saveMs: 1800 },
    starts: {
      snapshot: [start('snapshot', 900), start('snapshot', 700), start('snapshot', 800)],
      tail: [start('tail', 9000, 1000), start('tail', 11_000, 1000), start('tail', 8000, 1000)],
      rebuild: [start('rebuild', 210_000)],
    },
    loadAfter: [1, 1, 1],
  }
}

describe('startup-postgres report', () => {
  it('takes the run with the median time to searchable (the lower middle of an even count)', () => {
    expect(medianStart(result().starts.snapshot).sinceProcessStartMs).toBe(800)
    expect(
      medianStart([start('tail', 4), start('tail', 1), start('tail', 3), start('tail', 2)])
        .sinceProcessStartMs,
    ).toBe(2)
    expect(() => medianStart([])).toThrow()
  })

  it('reports the medians, the spread and the brain at every start', () => {
    const md = startupPostgresReport(result())
    expect(md).toContain(
      '| **process start -> searchable** (node, built JavaScript, module loading included) | **0.80** | **9.00** | **210.00** |',
    )
    expect(md).toContain('- snapshots at the feed head: 0.70 / 0.80 / 0.90')
    expect(md).toContain('| feed entries applied | 0 | 1,000 | 0 |')
    expect(md).toContain('same 100,000-passage brain')
    expect(md).toContain('rebuild takes minutes and ran once')
  })
})

describeRenderedPage<StartupPostgresResult>('startup-postgres', (saved) =>
  startupPostgresReport(saved),
)
