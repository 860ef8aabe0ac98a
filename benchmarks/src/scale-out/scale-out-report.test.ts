import { describe, expect, it } from 'vitest'
import type { HttpResult } from '../latency/http-scenarios.js'
import { summarizeLatency } from '../metrics/percentiles.js'
import { captureEnvironment } from '../run/environment.js'
import type { IngestMeasurement, IngestSetup } from './measure-ingest.js'
import type { SearchSide } from './measure-search.js'
import { coresBusy, scaleOutReport, scalingVerdict } from './scale-out-report.js'

const ingest = (
  where: Pick<IngestSetup, 'storage' | 'workerProcesses'>,
  docsPerSec: number,
  failed = 0,
  embedder = 'none',
): IngestMeasurement => ({
  setup: { ...where, embedder, docs: 100, warmUpDocs: 20, brains: 1 },
  docs: 100,
  completed: 100 - failed,
  failed,
  passages: 130,
  entities: 4000,
  wallMs: (100 / docsPerSec) * 1000,
  docsPerSec,
  passagesPerSec: docsPerSec * 1.3,
  firstError: failed > 0 ? 'boom' : null,
  submitMs: 500,
  retried: 0,
  cpuSeconds: { http: 1, workers: where.workerProcesses > 0 ? 6 : null, postgres: 2 },
  load1: 1.5,
})

const http = (rps: number): HttpResult => ({
  name: 'search (BM25 only)',
  shape: 'GET /retrieve/search',
  connections: 32,
  seconds: 10,
  requests: rps * 10,
  requestsPerSec: rps,
  p50: 20,
  p90: 30,
  p99: 50,
  statuses: { '200': rps * 10 },
  errors: 0,
  load1: 1,
  serverCpuMsPerRequest: 0.7,
})

const side = (storage: 'sqlite' | 'postgres', ms: number, rps: number): SearchSide => ({
  storage,
  seed: ingest({ storage, workerProcesses: 0 }, 200),
  restartMs: [900, 950],
  firstSearchMs: [ms * 100],
  secondSearchMs: [ms],
  rounds: [{ latency: summarizeLatency([ms, ms * 2]), load1: 1 }],
  latency: summarizeLatency([ms, ms, ms * 2]),
  http: [{ result: http(rps), postgresCpuMsPerRequest: storage === 'postgres' ? 0.2 : null }],
})

describe('scaleOutReport', () => {
  const base = {
    environment: captureEnvironment(new Date(0)),
    postgres: '15.14',
    queries: 300,
    search: [side('sqlite', 2, 1000), side('postgres', 3, 800)],
    totalMinutes: 4.2,
  }

  it('compares 2 worker processes with 1 and PostgreSQL with SQLite from the measured figures', () => {
    const text = scaleOutReport({
      ...base,
      ingest: [
        ingest({ storage: 'postgres', workerProcesses: 1 }, 10),
        ingest({ storage: 'postgres', workerProcesses: 2 }, 15),
        ingest({ storage: 'postgres', workerProcesses: 1 }, 12),
        ingest({ storage: 'postgres', workerProcesses: 2 }, 18),
        ingest({ storage: 'sqlite', workerProcesses: 0 }, 20),
        ingest({ storage: 'postgres', workerProcesses: 1 }, 1, 0, 'use-lite'),
        ingest({ storage: 'postgres', workerProcesses: 2 }, 0.5, 0, 'use-lite'),
      ],
    })
    expect(text).toMatch(/^<!-- GENERATED FILE/)
    expect(text).toContain('| postgres, ROLE=api + 2 ROLE=worker | none | 1 | 100 | 20 | 100 | 0 |')
    expect(text).toContain(
      '- EMBEDDER=none, one brain, 2 worker processes against 1: 15.0, 18.0 against 10.0, 12.0 documents/s (means: 1.50x)',
    )
    expect(text).toContain('Faster in every run.')
    expect(text).toContain(
      '- EMBEDDER=use-lite, one brain, 2 worker processes against 1: 0.5 against 1.0 documents/s (means: 0.50x)',
    )
    expect(text).toContain('Every task of every setup completed')
    expect(text).toContain(
      '- Reference, sqlite, one ROLE=all process, EMBEDDER=none: 20.0 documents/s',
    )
    expect(text).toContain('SciFact corpus (100 documents)')
    expect(text).toContain('one-client p50 3.00 against 2.00 ms (1.50x)')
    expect(text).toContain('800 against 1,000 req/s on average (0.80x)')
    expect(text).toContain("PostgreSQL's processes used 0.200 ms of CPU per search response")
  })

  it('names the setups whose tasks did not all complete', () => {
    const text = scaleOutReport({
      ...base,
      ingest: [ingest({ storage: 'postgres', workerProcesses: 1 }, 10, 3)],
    })
    expect(text).toContain('postgres, ROLE=api + 1 ROLE=worker: 3 (first error: boom)')
  })

  it('compares repeated runs by their ranges and single runs by a 10% band', () => {
    expect(scalingVerdict([10, 11], [12, 13])).toBe('Faster in every run.')
    expect(scalingVerdict([10, 11], [8, 9])).toMatch(/^Slower in every run/)
    expect(scalingVerdict([10, 12], [11, 13])).toMatch(/^The runs overlap/)
    expect(scalingVerdict([10], [10.5])).toBe('One run each: within 10%, no clear difference.')
    expect(scalingVerdict([10], [12])).toBe('One run each: faster by more than 10%.')
  })

  it('counts busy cores over every measured process', () => {
    expect(coresBusy(ingest({ storage: 'postgres', workerProcesses: 1 }, 10))).toBeCloseTo(0.9)
  })
})
