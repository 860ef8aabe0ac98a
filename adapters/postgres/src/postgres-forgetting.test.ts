import { execFileSync } from 'node:child_process'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'
import { POSTGRES_PURGE_NOTE } from './postgres-brain-store.js'
import { MIGRATIONS } from './postgres-schema.js'

const databases = testDatabases()
afterAll(() => databases.dropAll())

async function opened(connectionString: string) {
  const adapter = postgresAdapter({ connectionString })
  await adapter.open()
  return adapter
}

describe('postgres: sources and forgetting', () => {
  it('migrates a database written before sources: its passages read with a null sourceId', async () => {
    const connectionString = await databases.create()
    const pool = new pg.Pool({ connectionString })
    await pool.query(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    )
    for (const [i, sql] of MIGRATIONS.slice(0, 2).entries()) {
      await pool.query(sql)
      await pool.query('INSERT INTO schema_migrations (version) VALUES ($1)', [i + 1])
    }
    const brain = fixtures.brain('alpha')
    await pool.query(
      'INSERT INTO brains (id, name_key, token_hash, token_last4, created_at) VALUES ($1, $2, $3, $4, $5)',
      [brain.id, brain.nameKey, brain.tokenHash, brain.tokenLast4, brain.createdAt],
    )
    const { sourceId: _, ...legacy } = fixtures.passage({ id: 'old' })
    await pool.query(
      'INSERT INTO passages (brain_id, id, source, inserted_at, data) VALUES ($1, $2, $3, $4, $5)',
      ['alpha', 'old', legacy.source, legacy.insertedAt, JSON.stringify(legacy)],
    )
    await pool.end()

    const adapter = await opened(connectionString)
    const store = await adapter.brain('alpha')
    expect(await store.passages.get(['old'])).toEqual([fixtures.passage({ id: 'old' })])
    expect((await store.passages.scan(null, 10))[0]?.sourceId).toBeNull()
    await store.apply({ passages: [fixtures.passage({ id: 'new', sourceId: 'src' })] })
    expect(
      (await store.passages.list({ limit: 10, skip: 0, sourceId: 'src' })).items.map((p) => p.id),
    ).toEqual(['new'])
    expect(await store.stats()).toMatchObject({ passages: 2, sources: 0 })
    await adapter.close()
  })

  it('announces forgotten passages and observations in the write feed other processes follow', async () => {
    const connectionString = await databases.create()
    const writer = await opened(connectionString)
    const follower = await opened(connectionString)
    await writer.catalog.create(fixtures.brain('alpha'))
    const store = await writer.brain('alpha')
    await store.apply({ passages: [fixtures.passage()], observations: [fixtures.observation()] })
    await store.apply({ deletePassages: ['p1'], deleteObservations: ['o1'] })
    const entries = await follower.coordination!.writes.since('alpha', 0, 10)
    expect(entries.map((e) => e.summary)).toEqual([
      { passages: ['p1'], observations: ['o1'] },
      { deletePassages: ['p1'], deleteObservations: ['o1'] },
    ])
    await writer.close()
    await follower.close()
  })

  it('purges with VACUUM; a dump of the database no longer holds a forgotten passage', async () => {
    const marker = 'zqxjvmarkerword'
    const connectionString = await databases.create()
    const adapter = await opened(connectionString)
    await adapter.catalog.create(fixtures.brain('alpha'))
    const store = await adapter.brain('alpha')
    await store.apply({
      passages: [
        fixtures.passage({ id: 'kept', sourceId: 'kept' }),
        fixtures.passage({ id: 'm1', sourceId: 'gone', text: `Emily said ${marker}.` }),
      ],
      changelog: [fixtures.changelog({ change: { type: 'node_created', quote: marker } })],
      task: fixtures.task({ payload: { text: marker } }),
    })
    const dump = () => execFileSync('pg_dump', ['--data-only', connectionString]).toString()
    expect(dump()).toContain(marker)
    await store.apply({
      deletePassages: ['m1'],
      redactChangelog: [{ id: 'c1', change: { type: 'redacted' } }],
      erasePayloads: ['t1'],
    })
    expect(await store.purge()).toBe(POSTGRES_PURGE_NOTE)
    expect(dump()).not.toContain(marker)
    expect((await store.passages.scan(null, 10)).map((p) => p.id)).toEqual(['kept'])
    await adapter.close()
  })
})
