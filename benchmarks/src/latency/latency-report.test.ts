import { describe, expect, it } from 'vitest'
import { captureEnvironment } from '../run/environment.js'
import type { HttpResult } from './http-scenarios.js'
import { latencyReport } from './latency-report.js'

const http = (name: string, statuses: Record<string, number>, rps: number): HttpResult => ({
  name,
  shape: `GET /${name}`,
  connections: 32,
  seconds: 10,
  requests: rps * 10,
  requestsPerSec: rps,
  p50: 20,
  p90: 30,
  p99: 50,
  statuses,
  errors: 0,
  load1: 1,
  serverCpuMsPerRequest: name.startsWith('search') ? 0.5 : name === 'health' ? 0.05 : null,
})

describe('latencyReport', () => {
  it('lists pending suites by name, and judges HTTP search against issue 4 with its in-process bound', () => {
    const text = latencyReport(
      captureEnvironment(new Date(0)),
      [
        { suite: 'context-pack', task: 'pack', status: 'pending: no context pack' },
        {
          suite: 'engine-search',
          task: 'BM25 passages, as GET /retrieve/search runs it (the HTTP default)',
          status: 'measured',
          latency: { p50: 0.5, p99: 2, mean: 0.8, samples: 100 },
          load1: 1,
        },
      ],
      ['- note'],
      [
        {
          mode: 'child process',
          corpus: {
            brain: 'default',
            passages: 10,
            entities: 2,
            relationships: 1,
            seedMs: 5,
            engineSearch: { searches: 600, meanMs: 0.31, cpuMsPerSearch: 0.3 },
          },
          results: [
            http('health', { '200': 90000 }, 9000),
            http('search (BM25 only)', { '200': 9000 }, 900),
            http('ingest accept', { '202': 500, '503': 100 }, 60),
          ],
        },
      ],
    )
    expect(text).toContain('| context-pack | pack | pending: no context pack | - | - | - | - | - |')
    expect(text).toContain('about 1,250 searches/s')
    expect(text).toContain(
      '0.500 ms of CPU per search response, which bounds one core at about 2,000',
    )
    expect(text).toContain('| 0 | 0.500 | 1.0 |')
    expect(text).toContain('measured 900 requests/s with the server in its own process: NOT met')
    expect(text).toContain('100 requests got 503')
    // 900 / 9000; 0.5 ms = 0.05 (health) + 0.3 (engine) + 0.15; 0.25 x 9000 = 2250 searches/s: 0.444 ms.
    expect(text).toContain('ratio **0.100** (target >= 0.25: NOT met)')
    expect(text).toContain('0.150 ms is what only a search request adds over HTTP')
    expect(text).toContain('one core must serve 2,250 searches/s: at most 0.444 ms per search')
    expect(text).toContain('against 0.300 ms for the engine alone: HTTP handling decides.')
    expect(text).toContain('500 tasks accepted')
  })
})
