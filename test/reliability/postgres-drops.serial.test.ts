import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { postgresServerProcesses } from '../support/postgres-server-processes.js'
import { spawnServer, spawnWorker, type ServerProcess } from '../support/spawn-server.js'

/**
 * The database drops every connection of the cluster's processes (`pg_terminate_backend`, as an
 * administrator, a failover or a restarting pooler does) three times while two `ROLE=api` and one
 * `ROLE=worker` process serve 200 ingestions: once while all are idle, once while tasks run, once idle
 * again. Nothing restarts them (no supervisor): every process must reconnect on its own, keep serving,
 * and every task must end `completed`, its records committed exactly once. No embedder
 * (`EMBEDDER=none`) so the run stays short; the local extractor runs as in production.
 */

const TOKEN = 'spat_postgres-drops-system-token0'
const PER_PHASE = 100
const NAMES = ['Alice', 'Bob', 'Chidi', 'Dana', 'Eleanor', 'Farid']
const { databases, processes } = postgresServerProcesses()

const headers = { ServicePAT: TOKEN, 'content-type': 'application/json' }
const note = (n: number) =>
  `Note ${n}: ${NAMES[n % NAMES.length]} met ${NAMES[(n + 1) % NAMES.length]} in Porto about item${n}.`

/** Every HTTP status the API processes answered, with the 503 envelopes' codes checked on the way. */
const answered = new Map<number, number>()

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, headers: { ...headers, ...init.headers } })
  answered.set(response.status, (answered.get(response.status) ?? 0) + 1)
  if (response.status === 503) {
    // A request that met a dropped connection: the contract's envelope, never a 500.
    const body = (await response.clone().json()) as { error: { code: string } }
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE')
    expect(response.headers.get('retry-after')).not.toBeNull()
  }
  return response
}

/**
 * POST /ingest/ with a client-chosen `Task-Identifier`, so that retrying a request whose answer was
 * lost (503 after the task was stored) cannot create a second task. A 503 is retried, as the contract
 * asks of clients; any other status but 202 fails the test.
 */
async function ingest(api: ServerProcess, n: number): Promise<void> {
  for (;;) {
    const response = await call(`${api.url}/ingest/`, {
      method: 'POST',
      headers: { 'Task-Identifier': `note-${n}` },
      body: JSON.stringify({ text: note(n) }),
    })
    if (response.status === 503) {
      // The client's backoff (the contract's Retry-After, shortened: the database is back at once).
      await new Promise((resolve) => setTimeout(resolve, 100))
      continue
    }
    expect(response.status).toBe(202)
    return
  }
}

/** `url` with `application_name` set: each process's sessions are told apart in pg_stat_activity. */
function named(url: string, name: string): string {
  const next = new URL(url)
  next.searchParams.set('application_name', name)
  return next.toString()
}

/** Fails at once, with its output, when a process has ended. */
function expectRunning(processes: Record<string, ServerProcess>): void {
  for (const [name, p] of Object.entries(processes)) {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(
        `${name} exited (code ${p.child.exitCode}, signal ${p.child.signalCode}):\n${p.output()}`,
      )
  }
}

describe('processes on one postgres database survive dropped connections', () => {
  it('2 api + 1 worker, connections terminated idle, busy and idle again during 200 ingestions: every task completed once, every process serving', async () => {
    const began = performance.now()
    const marks: string[] = []
    const mark = (what: string) =>
      marks.push(`${what} ${((performance.now() - began) / 1000).toFixed(1)} s`)
    const url = await databases.create()
    const env = {
      STORAGE: 'postgres',
      SERVICEPAT_TOKEN: TOKEN,
      TASK_LEASE_SECONDS: '5',
      WORKERS: '4',
    }
    const [a, b, worker] = await Promise.all([
      spawnServer({ ...env, ROLE: 'api', DATABASE_URL: named(url, 'engram-api-a') }),
      spawnServer({ ...env, ROLE: 'api', DATABASE_URL: named(url, 'engram-api-b') }),
      spawnWorker({ ...env, DATABASE_URL: named(url, 'engram-worker') }),
    ])
    processes.push(a!, b!, worker!)
    const all = { 'api a': a!, 'api b': b!, worker: worker! }
    const db = new pg.Pool({ connectionString: named(url, 'drops-test') })
    const count = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0]!.n
    const completed = () => count("SELECT count(*)::int AS n FROM tasks WHERE status = 'completed'")

    /** Terminates every session of the three processes; returns how many. */
    const terminate = () =>
      count(`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND application_name LIKE 'engram-%'`)
    /**
     * Waits until each process LISTENs again (its notification connection re-established), the sign
     * that it has reconnected; fails as soon as one has exited.
     */
    const listeningAgain = async () => {
      for (;;) {
        expectRunning(all)
        const listening = await count(`SELECT count(DISTINCT application_name)::int AS n
          FROM pg_stat_activity WHERE datname = current_database()
            AND application_name LIKE 'engram-%' AND query LIKE 'LISTEN %'`)
        if (listening === 3) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    const untilCompleted = async (n: number) => {
      while ((await completed()) < n) {
        expectRunning(all)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    /** Submits notes [from, to) over both API processes, 8 requests in flight. */
    const submit = async (from: number, to: number) => {
      let next = from
      const submitter = async () => {
        while (next < to) {
          const n = next++
          await ingest(n % 2 === 0 ? a! : b!, n)
        }
      }
      await Promise.all(Array.from({ length: 8 }, submitter))
    }

    try {
      await listeningAgain()
      mark('started')
      // 1. Idle: nothing runs. The worker has no HTTP server: only its own timers and connections keep
      // it alive (it used to exit, with code 0, at an idle drop).
      const idleDrop = await terminate()
      await listeningAgain()
      mark('idle drop survived')

      // 2. Busy: the first half submitted, the first tasks completed, the others running. The test
      // locks the `brains` table, which every request and every task reads (and every task's commit
      // writes), so that each process has a query in flight when its sessions are terminated: the
      // worker a task's, each API process a request's.
      await submit(0, PER_PHASE)
      await untilCompleted(5)
      const blocker = await db.connect()
      let busyDrop: number
      let outstanding: number
      let probes: Promise<Response>[]
      try {
        await blocker.query('BEGIN')
        await blocker.query('LOCK TABLE brains IN ACCESS EXCLUSIVE MODE')
        outstanding = await count(
          "SELECT count(*)::int AS n FROM tasks WHERE status IN ('queued', 'started')",
        )
        probes = [a!, b!].map((api) => call(`${api.url}/tasks/note-0`))
        for (;;) {
          expectRunning(all)
          // Blocked sessions of each process, not counting the write feed's polls (`= ANY(`).
          const waiting = await count(`SELECT count(DISTINCT application_name)::int AS n
            FROM pg_stat_activity WHERE datname = current_database()
              AND application_name LIKE 'engram-%' AND wait_event_type = 'Lock'
              AND query NOT LIKE '%= ANY(%'`)
          if (waiting === 3) break
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        busyDrop = await terminate()
        mark('busy drop')
      } finally {
        await blocker.query('ROLLBACK')
        blocker.release()
      }
      // A request that met the drop answers 503 in the envelope (checked by `call`); the next succeeds.
      expect((await Promise.all(probes)).map((r) => r.status)).toEqual([503, 503])
      for (const api of [a!, b!]) expect((await call(`${api.url}/tasks/note-0`)).status).toBe(200)
      await untilCompleted(PER_PHASE)
      await listeningAgain()
      mark('first half completed')

      // 3. Idle again, then the second half: the worker must still claim and run tasks.
      const secondIdleDrop = await terminate()
      await listeningAgain()
      mark('second idle drop survived')
      await submit(PER_PHASE, 2 * PER_PHASE)
      await untilCompleted(2 * PER_PHASE)
      expectRunning(all)
      mark('second half completed')

      expect(outstanding).toBeGreaterThan(0)
      for (const dropped of [idleDrop, busyDrop, secondIdleDrop]) expect(dropped).toBeGreaterThan(0)

      // Every task completed (none failed, none left behind, none created twice).
      const statuses = await db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM tasks GROUP BY status',
      )
      expect(Object.fromEntries(statuses.rows.map((r) => [r.status, r.n]))).toEqual({
        completed: 2 * PER_PHASE,
      })
      // Exactly once: each task's passage was committed by one write, not two (every commit appends
      // one entry naming what it wrote to the write feed), and each note is stored once.
      const written = await db.query<{ passages: number; twice: number }>(
        `SELECT count(DISTINCT p)::int AS passages,
           (count(*) - count(DISTINCT p))::int AS twice
         FROM writes, json_array_elements_text(summary->'passages') AS p`,
      )
      expect(written.rows[0]).toEqual({ passages: 2 * PER_PHASE, twice: 0 })
      const passages = await db.query<{ n: number; texts: number }>(
        "SELECT count(*)::int AS n, count(DISTINCT data->>'text')::int AS texts FROM passages",
      )
      expect(passages.rows[0]).toEqual({ n: 2 * PER_PHASE, texts: 2 * PER_PHASE })
      // Entity resolution stayed serialised: one entity per name and labels.
      // Events are left out: one per sentence, never merged by name (entity-resolver.ts), so each
      // note's "Alice met Bob" is an event of its own.
      const duplicates = await db.query(
        `SELECT lower(name), data->>'labels', count(*) FROM entities
         WHERE NOT (data->'labels')::jsonb @> '["EVENT"]'::jsonb
         GROUP BY lower(name), data->>'labels' HAVING count(*) > 1`,
      )
      expect(duplicates.rows).toEqual([])
      const reruns = await count(
        "SELECT count(*) FILTER (WHERE (data->>'attempts')::int > 1)::int AS n FROM tasks",
      )

      // Both API processes still serve, and still follow the worker's writes (their LISTEN
      // connections were dropped three times): the last note ranks first for its own item number.
      for (const api of [a!, b!]) {
        expect((await call(`${api.url}/health`)).status).toBe(200)
        const response = await call(`${api.url}/retrieve/search?query=item${2 * PER_PHASE - 1}`)
        expect(response.status).toBe(200)
        const { hits } = (await response.json()) as { hits: { snippet: string }[] }
        expect(hits[0]?.snippet).toContain(`item${2 * PER_PHASE - 1}.`)
      }
      expect(answered.get(500) ?? 0).toBe(0)
      console.log(
        `postgres drops: sessions terminated ${idleDrop} (idle), ${busyDrop} (busy, ${outstanding} tasks outstanding), ${secondIdleDrop} (idle); ` +
          `${2 * PER_PHASE} tasks completed once each, ${reruns} started more than once; ` +
          `HTTP answers ${JSON.stringify(Object.fromEntries(answered))}; ${marks.join(', ')}`,
      )
    } finally {
      await db.end()
    }
  }, 120_000)
})
