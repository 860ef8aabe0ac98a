import { loadavg } from 'node:os'
import autocannon from 'autocannon'

/** One autocannon scenario against a real Engram server (routes and parameters of CONTRACT.md). */
export interface HttpScenario {
  readonly name: string
  readonly method: 'GET' | 'POST'
  /** Shown in the results; `next` fills in the varying part per request. */
  readonly shape: string
  /** The path (and body, for POST) of the next request; rotates over real queries or texts. */
  readonly next: () => { path: string; body?: string }
}

/** CONTRACT.md section 8: `/health`, no token, no work: the cost of HTTP alone, to relate the others to. */
export function healthScenario(): HttpScenario {
  return {
    name: 'health',
    method: 'GET',
    shape: 'GET /health',
    next: () => ({ path: '/health' }),
  }
}

/** CONTRACT.md section 7: `query` and `k`; BM25 only because the server runs with EMBEDDER=none. */
export function searchScenario(queries: readonly string[]): HttpScenario {
  let i = 0
  return {
    name: 'search (BM25 only)',
    method: 'GET',
    shape: 'GET /retrieve/search?query=<SciFact query>&k=10',
    next: () => ({
      path: `/retrieve/search?query=${encodeURIComponent(queries[i++ % queries.length]!)}&k=10`,
    }),
  }
}

/** CONTRACT.md section 6: `/retrieve/entities` with `limit`/`skip` pagination. */
export function entityListScenario(): HttpScenario {
  let i = 0
  return {
    name: 'entity list',
    method: 'GET',
    shape: 'GET /retrieve/entities?limit=20&skip=<0..180>',
    next: () => ({ path: `/retrieve/entities?limit=20&skip=${(i++ % 10) * 20}` }),
  }
}

/** CONTRACT.md section 3: `POST /ingest/` with `text`; 202 when accepted, 503 when the queue is saturated. */
export function ingestScenario(texts: readonly string[]): HttpScenario {
  let i = 0
  return {
    name: 'ingest accept',
    method: 'POST',
    shape: 'POST /ingest/ {"text": <LoCoMo turn>}',
    next: () => ({
      path: '/ingest/',
      body: JSON.stringify({ text: texts[i++ % texts.length]! }),
    }),
  }
}

export interface HttpResult {
  readonly name: string
  readonly shape: string
  readonly connections: number
  readonly seconds: number
  readonly requests: number
  readonly requestsPerSec: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  /** Responses per status code. */
  readonly statuses: Readonly<Record<string, number>>
  /** Connection errors and timeouts. */
  readonly errors: number
  /** 1-minute load average when the scenario started. */
  readonly load1: number
  /**
   * CPU time the server process used per response during the run (ms, all its threads), when it runs in
   * a process of its own; null otherwise. Unlike req/s, it hardly depends on what else the machine runs.
   */
  readonly serverCpuMsPerRequest: number | null
}

/**
 * Runs one scenario for `seconds` with `connections`, authenticating with the `ServicePAT` header
 * (CONTRACT.md section 1). On loopback the load generator and the server share the machine's cores.
 * `serverCpuMs` reads the server process's CPU time so far (ms), to report it per response.
 */
export async function runHttpScenario(
  baseUrl: string,
  token: string,
  scenario: HttpScenario,
  seconds = 10,
  connections = 32,
  serverCpuMs: () => number | null = () => null,
): Promise<HttpResult> {
  const load1 = loadavg()[0]!
  const cpuBefore = serverCpuMs()
  const r = await autocannon({
    url: baseUrl,
    duration: seconds,
    connections,
    requests: [
      {
        method: scenario.method,
        headers: {
          servicepat: token,
          ...(scenario.method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        setupRequest: (request) => ({ ...request, ...scenario.next() }),
      },
    ],
  })
  const cpuAfter = serverCpuMs()
  const responses = r.requests.total
  const statuses: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {}))
    statuses[code] = Number(count)
  return {
    name: scenario.name,
    shape: scenario.shape,
    connections,
    seconds: r.duration,
    requests: r.requests.total,
    requestsPerSec: r.requests.average,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    statuses,
    errors: r.errors,
    load1,
    serverCpuMsPerRequest:
      cpuBefore === null || cpuAfter === null || responses === 0
        ? null
        : (cpuAfter - cpuBefore) / responses,
  }
}
