import { operationsOf, toolOperations, type Operation } from './operations.js'
import { requestCase, type CaseContext, type RequestCase } from './request-cases.js'
import type { Schema } from './schema-values.js'
import { sendCase, type Outcome } from './send-case.js'

export interface RunOptions {
  /** Server root, e.g. `http://127.0.0.1:8000`. */
  url: string
  systemToken: string
  seed: number
  requests: number
  /** Requests in flight at once (default 8). */
  concurrency?: number
  /** Only cases whose index is in this list (to replay failures). */
  only?: number[]
}

export interface Failure {
  index: number
  label: string
  transport: string
  target: string
  why: string
  status: number
  body: string
}

export interface RunReport {
  seed: number
  requests: number
  failures: Failure[]
  /** Responses by status (0: no response). */
  statuses: Record<number, number>
  transports: Record<string, number>
  operations: number
  durationMs: number
}

const BRAIN = 'fuzz'

interface Envelope {
  detail?: unknown
  error?: { code?: unknown; message?: unknown; resolution?: unknown; request_id?: unknown }
}

/** Why an outcome breaks the rules of the run, or null: no 5xx, no reset, the envelope on non-2xx. */
export function judge(c: RequestCase, outcome: Outcome): string | null {
  if (outcome.error !== null) return `transport error ${outcome.error}`
  if (outcome.status === 0) return 'no response'
  if (outcome.status >= 500) return `status ${outcome.status}`
  if (outcome.status < 400) return null
  let body: Envelope & { jsonrpc?: unknown }
  try {
    body = JSON.parse(outcome.body) as Envelope & { jsonrpc?: unknown }
  } catch {
    return 'a non-2xx body that is not JSON'
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return 'not the error envelope'
  // The MCP endpoints answer protocol errors as JSON-RPC error objects, as MCP clients expect.
  if (c.target.startsWith('/mcp') && body.jsonrpc === '2.0') return null
  const e = body.error
  if (
    !('detail' in body) ||
    typeof e?.code !== 'string' ||
    typeof e.message !== 'string' ||
    typeof e.resolution !== 'string' ||
    typeof e.request_id !== 'string'
  )
    return 'not the error envelope'
  if (e.request_id !== outcome.requestId)
    return `request_id ${String(e.request_id)} is not X-Request-ID ${String(outcome.requestId)}`
  return null
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init)
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** The operations of `/openapi.json` and the tools of both MCP servers. */
async function discover(
  url: string,
  systemToken: string,
): Promise<{ ops: Operation[]; root: unknown }> {
  const doc = await json<Parameters<typeof operationsOf>[0]>(`${url}/openapi.json`)
  const ops = operationsOf(doc)
  for (const endpoint of ['/mcp', '/mcp/brain']) {
    const listed = await json<{ result: { tools: { name: string; inputSchema: Schema }[] } }>(
      `${url}${endpoint}`,
      {
        method: 'POST',
        headers: {
          ServicePAT: systemToken,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      },
    )
    ops.push(...toolOperations(endpoint, listed.result.tools))
  }
  return { ops, root: doc }
}

/** A brain and its token for the run (the brain may exist from an earlier run on the same data). */
async function brainToken(url: string, systemToken: string): Promise<string> {
  const headers = { ServicePAT: systemToken, 'content-type': 'application/json' }
  const created = await fetch(`${url}/system/brains`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ brain_id: BRAIN }),
  })
  if (created.status === 201) return ((await created.json()) as { pat: string }).pat
  await created.text()
  return (
    await json<{ pat: string }>(`${url}/system/brains/${BRAIN}/rotate-token`, {
      method: 'POST',
      headers: { ServicePAT: systemToken },
    })
  ).pat
}

/**
 * The malformed-input run: `requests` cases generated from the server's own OpenAPI document (and
 * its MCP tools), sent over real HTTP with `concurrency` in flight, each judged by `judge`. Case `i`
 * depends only on (`seed`, `i`), so `only: [i]` replays it.
 */
export async function runMalformedInput(options: RunOptions): Promise<RunReport> {
  const started = performance.now()
  const { ops, root } = await discover(options.url, options.systemToken)
  const ctx: CaseContext = {
    operations: ops,
    systemToken: options.systemToken,
    brainToken: await brainToken(options.url, options.systemToken),
    brainId: BRAIN,
  }
  const indexes = options.only ?? Array.from({ length: options.requests }, (_, i) => i)
  const failures: Failure[] = []
  const statuses: Record<number, number> = {}
  const transports: Record<string, number> = {}
  let next = 0
  const worker = async () => {
    while (next < indexes.length) {
      const index = indexes[next++]!
      const c = requestCase(options.seed, index, ctx, root)
      const outcome = await sendCase(options.url, c)
      statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1
      transports[c.transport] = (transports[c.transport] ?? 0) + 1
      const why = judge(c, outcome)
      if (why !== null)
        failures.push({
          index,
          label: c.label,
          transport: c.transport,
          target: `${c.method} ${c.target.slice(0, 200)}`,
          why,
          status: outcome.status,
          body: outcome.body.slice(0, 300),
        })
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker))
  return {
    seed: options.seed,
    requests: indexes.length,
    failures: failures.sort((a, b) => a.index - b.index),
    statuses,
    transports,
    operations: ops.length,
    durationMs: Math.round(performance.now() - started),
  }
}
