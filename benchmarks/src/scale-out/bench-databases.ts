import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The PostgreSQL a scale-out run uses: the local one with trust auth, unless DATABASE_URL says otherwise. */
export const ADMIN_DATABASE_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

// As adapters/postgres/test/support/ensure-postgres.ts: the local cluster, when nothing listens.
const START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start'

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end().catch(() => {})
  }
}

/** Connects, starting the local cluster on ECONNREFUSED and waiting up to 30 s; throws with the reason. */
export async function ensurePostgres(url = ADMIN_DATABASE_URL): Promise<void> {
  const attempt = () =>
    withClient(url, (c) => c.query('SELECT 1')).then(
      () => null,
      (error: unknown) => error,
    )
  let error = await attempt()
  if (error === null) return
  if ((error as { code?: string }).code === 'ECONNREFUSED') {
    execSync(START, { shell: '/bin/sh', stdio: 'pipe' })
    const deadline = Date.now() + 30_000
    while (error !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      error = await attempt()
    }
    if (error === null) return
  }
  throw new Error(`PostgreSQL is not reachable at ${url}: ${String(error)}`, { cause: error })
}

/** `SHOW server_version`, for the results file. */
export async function postgresVersion(url = ADMIN_DATABASE_URL): Promise<string> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ server_version: string }>('SHOW server_version')
    return rows[0]!.server_version
  })
}

/** Fresh databases (`engram_bench_<random>`) for one run; `dropAll` removes every one it created. */
export function benchDatabases(url = ADMIN_DATABASE_URL) {
  const created: string[] = []
  return {
    async create(): Promise<string> {
      const name = `engram_bench_${randomBytes(6).toString('hex')}`
      await withClient(url, (c) => c.query(`CREATE DATABASE ${name}`))
      created.push(name)
      const next = new URL(url)
      next.pathname = `/${name}`
      return next.toString()
    },
    async dropAll(): Promise<void> {
      if (created.length === 0) return
      await withClient(url, async (c) => {
        for (const name of created.splice(0))
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      })
    },
  }
}
