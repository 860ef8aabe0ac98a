import { Agent, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'

/** The kinds of request of the mixed load, each reported on its own. */
export type MixedOp = 'search' | 'ingest' | 'model'

/** One request to send: what it is and how (routes and bodies of CONTRACT.md). */
export interface MixedRequest {
  readonly method: 'GET' | 'POST' | 'PUT'
  readonly path: string
  readonly body?: string
}

/**
 * Builds the next request of one kind for one connection. `previous` is the parsed body of that connection's
 * last response of this kind, so a model write can update the entity it created before.
 */
export type MixedRequestFactory = (connection: number, previous: unknown) => MixedRequest

/**
 * The fixed order every connection cycles through, 7 searches, 2 ingestions and 1 model write in 10 (the
 * 70/20/10 mix), spread so that no kind comes twice in a row more than the counts force; each connection
 * starts at a different place in it, so the mix holds at every moment, not only on average.
 */
export const MIXED_SEQUENCE: readonly MixedOp[] = [
  'search',
  'ingest',
  'search',
  'search',
  'model',
  'search',
  'search',
  'ingest',
  'search',
  'search',
]

export interface OpResult {
  readonly op: MixedOp
  /** Responses received within the run (latency samples). */
  readonly requests: number
  readonly latency: LatencySummary & { readonly max: number }
  /** Responses per status code. */
  readonly statuses: Readonly<Record<string, number>>
  /** Requests that got no response (socket errors). */
  readonly errors: number
}

export interface LoadResult {
  readonly seconds: number
  readonly connections: number
  readonly ops: readonly OpResult[]
}

interface Tally {
  samples: number[]
  statuses: Record<string, number>
  errors: number
}

function send(
  agent: Agent,
  url: URL,
  token: string,
  r: MixedRequest,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: r.method,
        path: r.path,
        headers: {
          servicepat: token,
          ...(r.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(r.body)
  })
}

/**
 * A closed-loop load: `connections` keep-alive connections, each sending its next request as soon as the
 * previous response has arrived, cycling through `sequence` (from a different offset per connection) for
 * `seconds`. Every response's latency (request written to response fully read, ms) is kept per kind, so the
 * searches' percentiles are those of searches only, unlike a single autocannon run over mixed requests.
 */
export async function runMixedLoad(
  baseUrl: string,
  token: string,
  factories: Readonly<Partial<Record<MixedOp, MixedRequestFactory>>>,
  sequence: readonly MixedOp[],
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const url = new URL(baseUrl)
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const tallies = new Map<MixedOp, Tally>()
  const tally = (op: MixedOp) => {
    let t = tallies.get(op)
    if (!t) tallies.set(op, (t = { samples: [], statuses: {}, errors: 0 }))
    return t
  }
  const started = performance.now()
  const end = started + seconds * 1000
  const loop = async (connection: number) => {
    const previous = new Map<MixedOp, unknown>()
    for (let i = connection; performance.now() < end; i++) {
      const op = sequence[i % sequence.length]!
      const factory = factories[op]
      if (!factory) throw new Error(`no request factory for '${op}'`)
      const r = factory(connection, previous.get(op))
      const t = tally(op)
      const t0 = performance.now()
      try {
        const res = await send(agent, url, token, r)
        const t1 = performance.now()
        if (t1 > end) break // a response after the end is not part of the run
        t.samples.push(t1 - t0)
        t.statuses[res.status] = (t.statuses[res.status] ?? 0) + 1
        if (res.status < 300) previous.set(op, JSON.parse(res.body) as unknown)
      } catch {
        t.errors++
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, (_, c) => loop(c)))
  agent.destroy()
  const ops = [...tallies.entries()].map(([op, t]) => ({
    op,
    requests: t.samples.length,
    latency: { ...summarizeLatency(t.samples), max: t.samples.reduce((m, x) => Math.max(m, x), 0) },
    statuses: t.statuses,
    errors: t.errors,
  }))
  return { seconds: (performance.now() - started) / 1000, connections, ops }
}
