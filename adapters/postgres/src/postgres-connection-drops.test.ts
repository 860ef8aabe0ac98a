import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import type { StorageAdapter, StorageRuntime } from '@engram/core'
import { DATABASE_URL, testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'

/**
 * The adapter when the server ends its sessions (`pg_terminate_backend`, as an administrator, a
 * failover or a restart does): queries in flight throw `StorageUnavailableError` and the next ones
 * work; a brain lock's session ending neither crashes the process nor lets a write built under the
 * lost lock commit over another process's; LISTEN comes back by itself; a database that is gone for
 * good is reported as fatal. Each adapter names its sessions (`application_name`) so that only its
 * own are ended. `test/reliability/postgres-drops.serial.test.ts` does the same to whole processes.
 */

const databases = testDatabases()
const admin = new pg.Pool({ connectionString: DATABASE_URL })
const opened: StorageAdapter[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()))
})
afterAll(async () => {
  await admin.end()
  await databases.dropAll()
})

function runtime() {
  const lines: string[] = []
  let fatal: (error: Error) => void = () => {}
  const fatalError = new Promise<Error>((resolve) => (fatal = resolve))
  const at = (level: string) => (_obj: object, msg?: string) => void lines.push(`${level}: ${msg}`)
  const given: StorageRuntime = {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    fatal: (error) => fatal(error),
  }
  return { given, lines, fatalError }
}

/** An open adapter on `url` whose sessions are named `name`. */
async function adapter(url: string, name: string, given?: StorageRuntime) {
  const named = new URL(url)
  named.searchParams.set('application_name', name)
  const opening = postgresAdapter({ connectionString: named.toString() })
  await opening.open(given)
  opened.push(opening)
  return opening
}

const uniqueName = (what: string) => `${what}-${randomBytes(4).toString('hex')}`

/** Ends every session named `name`; resolves once the server has ended them (new ones may open). */
async function terminate(name: string): Promise<number> {
  // The sessions first, then the ends: in one statement the planner may call pg_terminate_backend on
  // rows before the name filter has dropped them.
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [name],
  )
  await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
    rows.map((r) => r.pid),
  ])
  const pids = rows.map((r) => r.pid)
  await until(`sessions of ${name} ended`, async () => {
    const left = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])', [
      pids,
    ])
    return left.rowCount === 0
  })
  return pids.length
}

async function sessions(name: string, where: string): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND ${where}`,
    [name],
  )
  return rows[0]!.n
}

/** Polls `condition` (a server-side state this test cannot be told of) until it holds, for 10 s. */
async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('postgres adapter: dropped connections', () => {
  it('throws StorageUnavailableError (503) for a query whose session ends, and serves the next one', async () => {
    const url = await databases.create()
    const name = uniqueName('engram-drop')
    const storage = await adapter(url, name)
    await storage.catalog.create(fixtures.brain('alpha'))
    // Hold the query in flight: it waits for a lock the test holds, then its session is ended.
    const holder = new pg.Client({ connectionString: url })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('LOCK TABLE brains IN ACCESS EXCLUSIVE MODE')
      const pending = storage.catalog.get('alpha').then(
        () => null,
        (error: unknown) => error,
      )
      await until(
        'the query to wait',
        async () => (await sessions(name, "wait_event_type = 'Lock'")) === 1,
      )
      expect(await terminate(name)).toBeGreaterThan(0)
      await holder.query('ROLLBACK')
      expect(await pending).toMatchObject({
        name: 'StorageUnavailableError',
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        retryAfter: 1,
      })
    } finally {
      await holder.end()
    }
    expect(await storage.catalog.get('alpha')).toMatchObject({ id: 'alpha' })
  })

  it('survives the end of a brain lock’s session and commits no write built under the lost lock', async () => {
    const url = await databases.create()
    const [nameA, nameB] = [uniqueName('engram-lock-a'), uniqueName('engram-lock-b')]
    const a = await adapter(url, nameA)
    const b = await adapter(url, nameB)
    await a.catalog.create(fixtures.brain('alpha'))
    const [storeA, storeB] = [await a.brain('alpha'), await b.brain('alpha')]
    const result = await a.coordination!.withBrainLock('alpha', async () => {
      // A's lock session ends while A works (its checked-out client emits 'error': not a crash)...
      await terminate(nameA)
      // ...so B can take the brain's lock and commit a write of its own...
      await b.coordination!.withBrainLock('alpha', () =>
        storeB.apply({ passages: [fixtures.passage({ id: 'by-b' })] }),
      )
      // ...and A's write, built from what A read under its lock, must not land over it.
      await expect(
        storeA.apply({ passages: [fixtures.passage({ id: 'by-a' })] }),
      ).rejects.toMatchObject({ name: 'StorageUnavailableError', code: 'SERVICE_UNAVAILABLE' })
      return 'worked'
    })
    expect(result).toBe('worked')
    const ids = (await storeA.passages.list({ limit: 10, skip: 0 })).items.map((p) => p.id)
    expect(ids).toEqual(['by-b'])
    // Taken again, the lock fences from the brain's current write number: A's next write commits.
    await a.coordination!.withBrainLock('alpha', () =>
      storeA.apply({ passages: [fixtures.passage({ id: 'by-a' })] }),
    )
    expect((await storeA.passages.list({ limit: 10, skip: 0 })).total).toBe(2)
  })

  it('re-opens its LISTEN connection after it is ended, and hears announcements again', async () => {
    const url = await databases.create()
    const [nameA, nameB] = [uniqueName('engram-listen-a'), uniqueName('engram-listen-b')]
    const watched = runtime()
    const a = await adapter(url, nameA, watched.given)
    const b = await adapter(url, nameB)
    await a.catalog.create(fixtures.brain('alpha'))
    const heard: number[] = []
    let hear: () => void = () => {}
    await a.coordination!.writes.subscribe((brainId, seq) => {
      heard.push(seq)
      hear()
    })
    const listening = async () => (await sessions(nameA, "query LIKE 'LISTEN %'")) === 1
    await until('LISTEN', listening)
    await terminate(nameA)
    await until('LISTEN again', listening)
    const announced = new Promise<void>((resolve) => (hear = resolve))
    await (await b.brain('alpha')).apply({ passages: [fixtures.passage()] })
    await announced
    expect(heard).toEqual([1])
    expect(watched.lines).toContain(
      'warn: database notifications connection lost; reconnecting (announcements are polled meanwhile)',
    )
    expect(watched.lines).toContain('info: database notifications connection restored')
  })

  it('reports a database dropped for good as fatal', async () => {
    const url = await databases.create()
    const watched = runtime()
    const storage = await adapter(url, uniqueName('engram-fatal'), watched.given)
    await storage.coordination!.tasks.subscribe(() => {})
    const database = new URL(url).pathname.slice(1)
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`)
    const error = await watched.fatalError
    expect(error.message).toMatch(
      /^The database refuses this process: database ".*" does not exist$/,
    )
  })
})
