import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrainStore } from '@engram/core'
import { fixtures } from '@engram/core/testing'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'

/**
 * Lists newest first choose their page from an index and step over index entries, not rows (issue 29:
 * a deep `skip` cost grew with the brain). Checked on the plan of the statement the adapter sends: the
 * page's keys come from an index-only scan backward of the order's index, which neither the old
 * statement (it read `data` for every skipped row) nor a missing index can give.
 */
const recorded: { text: string; values: unknown[] }[] = []
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (typeof args[0] === 'string')
    recorded.push({ text: args[0], values: (args[1] as unknown[] | undefined) ?? [] })
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query

const databases = testDatabases()
const N = 3000
let adapter: ReturnType<typeof postgresAdapter>
let store: BrainStore
let plain: pg.Client

beforeAll(async () => {
  const connectionString = await databases.create()
  adapter = postgresAdapter({ connectionString })
  await adapter.open()
  for (const id of ['alpha', 'beta']) await adapter.catalog.create(fixtures.brain(id))
  store = await adapter.brain('alpha')
  const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + ((i * 7919) % N) * 1000).toISOString()
  const ids = Array.from({ length: N }, (_, i) => String(i).padStart(5, '0'))
  await store.apply({
    entities: ids.map((i, n) =>
      fixtures.entity({ uuid: `e${i}`, name: `E${i}`, lastUpdated: at(n) }),
    ),
    observations: ids.map((i, n) => fixtures.observation({ id: `o${i}`, insertedAt: at(n) })),
    passages: ids.map((i, n) => fixtures.passage({ id: `p${i}`, insertedAt: at(n) })),
    changelog: ids.map((i, n) =>
      fixtures.changelog({ id: `c${i}`, type: n % 2 === 0 ? 'node_created' : 'node_updated' }),
    ),
  })
  plain = new pg.Client({ connectionString })
  await plain.connect()
  await plain.query('VACUUM ANALYZE')
}, 60_000)

afterAll(async () => {
  pg.Client.prototype.query = query
  await plain?.end()
  await adapter?.close()
  await databases.dropAll()
})

/** The plan of the page statement `list` sends (the one that is not the count). */
async function planOf(list: () => Promise<unknown>): Promise<string> {
  recorded.length = 0
  await list()
  const page = recorded.find((r) => !r.text.includes('count(*)'))!
  const { rows } = await plain.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${page.text}`, page.values)
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}

describe('postgres lists newest first (deep page)', () => {
  const skip = Math.floor(N * 0.9)
  it.each([
    ['entities', 'entities_updated', () => store.entities.list({ limit: 20, skip })],
    ['observations', 'observations_inserted', () => store.observations.list({ limit: 20, skip })],
    ['passages', 'passages_inserted', () => store.passages.list({ limit: 20, skip })],
    [
      'changelog of one type',
      'changelog_type',
      () => store.changelog.list({ limit: 20, skip: N / 2 - 30, types: ['node_created'] }),
    ],
  ])('%s walks %s backward over index entries only', async (_, index, list) => {
    expect(await planOf(list)).toContain(`Index Only Scan Backward using ${index}`)
  })

  it('reads the changelog page as a range of seq: the limit rows only', async () => {
    const plan = await planOf(() => store.changelog.list({ limit: 20, skip }))
    expect(plan).toContain('Index Scan Backward using changelog_brain_id_seq_key')
    expect(plan).toMatch(/Index Cond: .*seq <= /)
  })

  it('pages the changelog by seq as by position, and by position once a seq is missing', async () => {
    const newestFirst = Array.from(
      { length: N },
      (_, i) => `c${String(N - 1 - i).padStart(5, '0')}`,
    )
    const pages = async (expected: string[]) => {
      for (const at of [0, 1, 19, 20, skip, expected.length - 5, expected.length]) {
        const page = await store.changelog.list({ limit: 20, skip: at })
        expect(page.total).toBe(expected.length)
        expect(page.items.map((c) => c.id)).toEqual(expected.slice(at, at + 20))
      }
    }
    await pages(newestFirst)
    const other = await adapter.brain('beta')
    for (const id of ['c-first', 'c-gap', 'c-next'])
      await other.apply({ changelog: [fixtures.changelog({ id })] })
    await plain.query(`DELETE FROM changelog WHERE brain_id = 'beta' AND id = 'c-gap'`)
    recorded.length = 0
    expect((await other.changelog.list({ limit: 5, skip: 1 })).items.map((c) => c.id)).toEqual([
      'c-first',
    ])
    expect(recorded.some((r) => r.text.includes('OFFSET'))).toBe(true)
  })

  it('returns the same page as sorting everything', async () => {
    const page = await store.entities.list({ limit: 20, skip })
    const all = await store.entities.list({ limit: 1000, skip: skip - 980 })
    expect(page.items.map((e) => e.uuid)).toEqual(all.items.slice(980).map((e) => e.uuid))
    const sorted = [...all.items].sort((a, b) =>
      a.lastUpdated === b.lastUpdated
        ? b.uuid.localeCompare(a.uuid)
        : b.lastUpdated.localeCompare(a.lastUpdated),
    )
    expect(all.items.map((e) => e.uuid)).toEqual(sorted.map((e) => e.uuid))
    expect(page.total).toBe(N)
  })
})
