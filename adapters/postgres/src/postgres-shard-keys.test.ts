import pg from 'pg'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { fixtures, runStorageAdapterSuite } from '@engram/core/testing'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { brainScopedTables, unpinnedTables } from '../test/support/shard-key-check.js'
import { postgresAdapter } from './postgres-adapter.js'
import { MIGRATIONS } from './postgres-schema.js'

/**
 * Every statement the adapter sends must run on one shard of a PostgreSQL distributed by `brain_id`
 * (docs/scaling-out.md, "Beyond one PostgreSQL"). Every query of every pg client in this test file
 * (the adapter's pool, its lock pool, its LISTEN connection) is recorded while the conformance suite
 * and the coordination calls below run, then checked by `unpinnedTables`.
 */
const recorded: string[] = []
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first] = args
  const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text
  if (typeof text === 'string') recorded.push(text)
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query
afterAll(() => {
  pg.Client.prototype.query = query
})

/**
 * Statements that touch every brain by design, each with why. Each must be seen in the recording
 * (a fixed statement leaves the list, or the test fails).
 */
const CROSS_SHARD: { match: RegExp; reason: string }[] = [
  {
    match: /^WITH runnable AS \(/,
    reason:
      'tasks.claim: the shared queue takes the oldest task of every brain in turn, with FOR UPDATE ' +
      'SKIP LOCKED; on Citus this needs two steps (docs/scaling-out.md)',
  },
  {
    match: /^SELECT count\(\*\)::int AS total, /,
    reason: 'tasks.pending: counts the queue of every brain (a multi-shard read)',
  },
  {
    match: /^VACUUM /,
    reason: 'purge: VACUUM of the shared tables; Citus runs it on every shard',
  },
]

const databases = testDatabases()
afterAll(() => databases.dropAll())

// The conformance suite of the PostgreSQL adapter (a fresh database per adapter), recorded.
runStorageAdapterSuite({
  name: 'postgres',
  create: async () => postgresAdapter({ connectionString: await databases.create() }),
})

describe('coordination (recorded)', () => {
  it('claims, renews and releases tasks, locks brains and follows the write feed', async () => {
    const adapter = postgresAdapter({ connectionString: await databases.create() })
    await adapter.open()
    for (const id of ['alpha', 'beta']) await adapter.catalog.create(fixtures.brain(id))
    const { coordination } = adapter
    if (coordination === undefined) throw new Error('the postgres adapter has coordination')
    const woken: string[] = []
    await coordination.writes.subscribe((brainId) => woken.push(brainId))
    await coordination.tasks.subscribe(() => {})
    for (const id of ['alpha', 'beta']) {
      const store = await adapter.brain(id)
      await store.tasks.create(fixtures.task({ id: `t-${id}`, brainId: id }))
      await coordination.withBrainLock(id, () =>
        store.apply({ passages: [fixtures.passage()], changelog: [fixtures.changelog()] }),
      )
    }
    const claimed = await coordination.tasks.claim(10, 60_000, [])
    expect(claimed).toHaveLength(2)
    await coordination.tasks.renew(claimed, 60_000)
    expect(await coordination.tasks.pending('alpha')).toEqual({ total: 2, brain: 1, brains: 2 })
    await coordination.tasks.release(claimed)
    expect(await coordination.tasks.claim(10, 60_000, ['beta'])).toEqual([
      { brainId: 'alpha', taskId: 't-alpha' },
    ])
    await vi.waitFor(() => expect(woken).toContain('beta'))
    const heads = await coordination.writes.heads(['alpha', 'beta'])
    expect(heads.get('alpha')?.seq).toBe(1)
    expect(await coordination.writes.since('alpha', 0, 10)).toHaveLength(1)
    expect(await coordination.tryExclusive?.('sweep', async () => 1)).toEqual({
      acquired: true,
      value: 1,
    })
    expect(await coordination.claimSetting('system_token', 'x')).toBe('x')
    await adapter.catalog.delete('beta')
    await adapter.close()
  })
})

describe('shard keys', () => {
  const tables = brainScopedTables(MIGRATIONS)
  const migrations = new Set(MIGRATIONS)

  it('sends every statement on a brain-scoped table with an equality on brain_id', () => {
    const statements = [...new Set(recorded)].filter((sql) => !migrations.has(sql))
    // The recording covers the adapter: reads, batches, tasks, the feed, locks.
    expect(statements.length).toBeGreaterThan(80)
    const seen = new Set<RegExp>()
    const failing = statements.flatMap((sql) => {
      const problems = unpinnedTables(sql, tables)
      if (problems.length === 0) return []
      const allowed = CROSS_SHARD.find((c) => c.match.test(sql.trim()))
      if (allowed !== undefined) {
        seen.add(allowed.match)
        return []
      }
      return [{ sql: sql.replace(/\s+/g, ' ').trim(), problems }]
    })
    expect(failing).toEqual([])
    expect(CROSS_SHARD.filter((c) => !seen.has(c.match)).map((c) => c.reason)).toEqual([])
  })

  it('would fail on a statement without one', () => {
    expect(unpinnedTables('SELECT * FROM passages WHERE id = $1', tables)).toEqual([
      'passages has no brain_id = $n',
    ])
  })
})
