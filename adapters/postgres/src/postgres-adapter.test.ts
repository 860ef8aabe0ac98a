import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'
import { MIGRATIONS } from './postgres-schema.js'

const databases = testDatabases()
afterAll(() => databases.dropAll())

// The storage conformance suite runs in postgres-shard-keys.test.ts, which records every statement it
// sends (one run of the suite instead of two keeps `npm test` within its time).

const PER_BRAIN_TABLES = [
  'passages',
  'entities',
  'entity_names',
  'entity_labels',
  'relationships',
  'observations',
  'structured',
  'changelog',
  'tasks',
  'vectors',
  'meta',
  'sources',
  'evidence',
]

describe('postgres adapter', () => {
  it('migrates once when two processes open the same database at once', async () => {
    const connectionString = await databases.create()
    const adapters = [1, 2, 3].map(() => postgresAdapter({ connectionString }))
    await Promise.all(adapters.map((a) => a.open()))
    const pool = new pg.Pool({ connectionString })
    const { rows } = await pool.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    )
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
    await Promise.all(adapters.map((a) => a.close()))
    // Reopening applies nothing new.
    const again = postgresAdapter({ pool })
    await again.open()
    await again.close()
    expect((await pool.query('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n).toBe(
      MIGRATIONS.length,
    )
    await pool.end()
  })

  it('keeps data across a reopen and deletes every row of a brain', async () => {
    const connectionString = await databases.create()
    const first = postgresAdapter({ connectionString })
    await first.open()
    await first.catalog.create(fixtures.brain('alpha'))
    await first.catalog.create(fixtures.brain('beta'))
    const batch = {
      passages: [fixtures.passage()],
      entities: [fixtures.entity(), fixtures.entity({ uuid: 'e2', name: 'London' })],
      relationships: [fixtures.relationship()],
      observations: [fixtures.observation()],
      structured: [fixtures.structured()],
      changelog: [fixtures.changelog()],
      vectors: [{ space: 'passages', id: 'p1', vector: new Float32Array([1, 2]) }],
      sources: [fixtures.source()],
      evidence: [{ kind: 'entity' as const, recordId: 'e1', evidenceId: 'p1' }],
      task: fixtures.task({ brainId: 'alpha' }),
    }
    await (await first.brain('alpha')).apply(batch)
    await (await first.brain('beta')).apply(batch)
    for (const id of ['alpha', 'beta']) await (await first.brain(id)).meta.set('k', 'v')
    await first.close()

    const second = postgresAdapter({ connectionString })
    await second.open()
    expect((await (await second.brain('alpha')).stats()).vectors).toBe(1)
    await second.catalog.delete('alpha')
    const pool = new pg.Pool({ connectionString })
    for (const table of PER_BRAIN_TABLES) {
      const { rows } = await pool.query<{ brain_id: string; n: number }>(
        `SELECT brain_id, count(*)::int AS n FROM ${table} GROUP BY brain_id`,
      )
      expect(
        rows.map((r) => r.brain_id),
        table,
      ).toEqual(['beta'])
    }
    await pool.end()
    await expect(second.brain('alpha')).rejects.toThrow(/does not exist/)
    await second.close()
  })

  it('applies the last of two records with one id in a batch, as SQLite does', async () => {
    const adapter = postgresAdapter({ connectionString: await databases.create() })
    await adapter.open()
    await adapter.catalog.create(fixtures.brain('alpha'))
    const store = await adapter.brain('alpha')
    await store.apply({
      entities: [fixtures.entity({ name: 'A' }), fixtures.entity({ name: 'B', aliases: ['Bee'] })],
      vectors: [
        { space: 's', id: 'x', vector: new Float32Array([1]) },
        { space: 's', id: 'x', vector: new Float32Array([2]) },
      ],
    })
    expect((await store.entities.get(['e1']))[0]?.name).toBe('B')
    expect((await store.entities.findByName('bee')).map((e) => e.uuid)).toEqual(['e1'])
    expect(await store.entities.findByName('a')).toEqual([])
    expect(Array.from((await store.vectors.get('s', ['x']))[0]!.vector)).toEqual([2])
    await adapter.close()
  })

  it('writes a large batch in one transaction', async () => {
    const adapter = postgresAdapter({ connectionString: await databases.create() })
    await adapter.open()
    await adapter.catalog.create(fixtures.brain('alpha'))
    const store = await adapter.brain('alpha')
    const passages = Array.from({ length: 6000 }, (_, i) => fixtures.passage({ id: `p${i}` }))
    const vectors = passages.map((p, i) => ({
      space: 'passages',
      id: p.id,
      vector: new Float32Array([i, -i]),
    }))
    await store.apply({ passages, vectors })
    expect(await store.stats()).toMatchObject({ passages: 6000, vectors: 6000 })
    expect(Array.from((await store.vectors.get('passages', ['p42']))[0]!.vector)).toEqual([42, -42])
    await adapter.close()
  })
})
