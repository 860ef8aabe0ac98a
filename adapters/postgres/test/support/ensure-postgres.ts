import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The server the tests use: a local PostgreSQL with trust authentication, unless DATABASE_URL says otherwise. */
export const DATABASE_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

const START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start'

async function canConnect(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return null
  } catch (error) {
    return error
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Connects to DATABASE_URL, starting the local cluster when nothing listens (ECONNREFUSED) and waiting
 * up to 30 s for it. Never skips: when PostgreSQL cannot be reached the tests fail with the reason.
 */
export async function ensurePostgres(url = DATABASE_URL): Promise<void> {
  let error = await canConnect(url)
  if (error === null) return
  if ((error as { code?: string }).code === 'ECONNREFUSED') {
    try {
      execSync(START, { shell: '/bin/sh', stdio: 'pipe' })
    } catch (startError) {
      error = startError
    }
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      error = await canConnect(url)
      if (error === null) return
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  throw new Error(
    `PostgreSQL is not reachable at ${url} and could not be started with \`${START}\`: ${String(error)}. ` +
      'Start it (or set DATABASE_URL) and run the tests again.',
    { cause: error },
  )
}

/** DATABASE_URL pointing at another database on the same server. */
export function databaseUrl(name: string, url = DATABASE_URL): string {
  const next = new URL(url)
  next.pathname = `/${name}`
  return next.toString()
}

/**
 * Creates a fresh database (`engram_test_<random>`) so runs never collide; `dropAll` drops every
 * database this process created.
 */
export function testDatabases(url = DATABASE_URL) {
  const created: string[] = []
  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return await work(client)
    } finally {
      await client.end()
    }
  }
  return {
    async create(): Promise<string> {
      await ensurePostgres(url)
      const name = `engram_test_${randomBytes(6).toString('hex')}`
      await admin((c) => c.query(`CREATE DATABASE ${name}`))
      created.push(name)
      return databaseUrl(name, url)
    },
    /**
     * Each DROP DATABASE waits for a checkpoint (about a second on a busy machine): dropping several
     * at once, over their own connections, lets them share checkpoints.
     */
    async dropAll(): Promise<void> {
      const names = created.splice(0)
      const drop = async () => {
        for (let name = names.pop(); name !== undefined; name = names.pop()) {
          const dropped = name
          await admin((c) => c.query(`DROP DATABASE IF EXISTS ${dropped} WITH (FORCE)`))
        }
      }
      await Promise.all(Array.from({ length: Math.min(8, names.length) }, drop))
    },
  }
}
