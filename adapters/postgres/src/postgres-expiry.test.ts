import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  createEngine,
  EXPIRY_SWEEP_LOCK,
  FORGET_SOURCE,
  INGEST_TEXT,
  type Engram,
  type IngestionComponents,
} from '@engram/core'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'

/**
 * Expiry with several processes on one database (docs/time.md, Expiry): one process sweeps at a time
 * (`Coordination.tryExclusive`, a PostgreSQL advisory try-lock), and an expired source gets exactly
 * one forget task however many engines sweep at once. The engines' timers are off: the tests sweep.
 */

const databases = testDatabases()
const running: Engram[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.stop({ graceMs: 0 })))
})
afterAll(() => databases.dropAll())

const components: IngestionComponents = {
  parseFile: async () => {
    throw new Error('not used')
  },
  jsonToText: (json) => JSON.stringify(json),
  chunk: (text) => [{ index: 0, text, start: 0, end: text.length }],
  extract: async () => ({ entities: [], relationships: [], observations: [] }),
  embed: null,
  embedderInfo: null,
}

async function engine(url: string): Promise<Engram> {
  const engram = createEngine({
    storage: postgresAdapter({ connectionString: url }),
    version: 'test',
    ingestion: components,
    followPollMs: 200,
    expirySweepSeconds: 0,
  })
  await engram.start()
  running.push(engram)
  return engram
}

async function ingestExpiring(engram: Engram, sourceId: string, expiresAt: string) {
  const { task } = await engram.tasks.submit({
    brainId: 'default',
    kind: INGEST_TEXT,
    payload: {
      sourceId,
      text: `Text of ${sourceId}.`,
      json: null,
      metaKeys: {},
      observateFor: [],
      sourceTimestamp: '2026-01-01T00:00:00.000Z',
      skipEnrichment: false,
      expiresAt,
    },
  })
  await until(async () => {
    const t = await engram.tasks.get('default', task.id)
    return t?.status === 'completed' ? t : undefined
  })
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function forgetTasks(engram: Engram) {
  const tasks = await (await engram.store('default')).tasks.list({ limit: 1000, skip: 0 })
  return tasks.filter((t) => t.kind === FORGET_SOURCE)
}

describe('expiry sweeps on one postgres database', () => {
  it('two engines sweeping at once leave exactly one forget task per expired source', async () => {
    const url = await databases.create()
    const a = await engine(url)
    const b = await engine(url)
    const past = '2001-01-01T00:00:00.000Z'
    for (const id of ['s1', 's2', 's3']) await ingestExpiring(a, id, past)
    await ingestExpiring(a, 'later', '2999-01-01T00:00:00.000Z')
    const store = await b.store('default')
    expect((await store.sources.expired(new Date().toISOString(), 10)).map((s) => s.id)).toEqual([
      's1',
      's2',
      's3',
    ])

    const sweeps = await Promise.all([a.expiry.sweep(), b.expiry.sweep(), a.expiry.sweep()])
    expect(sweeps.some((s) => s.ran)).toBe(true)
    expect(sweeps.reduce((n, s) => n + s.submitted, 0)).toBe(3)
    const tasks = await forgetTasks(a)
    expect(tasks.map((t) => (t.payload as { sourceId: string }).sourceId).sort()).toEqual([
      's1',
      's2',
      's3',
    ])
    // Each runs once, in whichever process claims it; the unexpired source stays.
    await until(async () =>
      (await forgetTasks(a)).every((t) => t.status === 'completed') ? true : undefined,
    )
    expect(await store.sources.expired(new Date().toISOString(), 10)).toEqual([])
    expect((await store.sources.get('s1'))?.status).toBe('forgotten')
    expect((await store.sources.get('later'))?.status).toBe('active')
    expect(await b.expiry.sweep()).toMatchObject({ ran: true, expired: 0, submitted: 0 })
  })

  it('finds expired sources through the index sources_expiry', async () => {
    const url = await databases.create()
    await engine(url)
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      // A table this small is read whole whatever the indexes: forbid that to see the index is usable.
      await client.query('SET enable_seqscan = off')
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT data::text AS data FROM sources WHERE brain_id = 'default'
           AND status = 'active' AND expires_at IS NOT NULL AND expires_at <= '2026-01-01'
           ORDER BY expires_at, id LIMIT 10`,
      )
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('sources_expiry')
    } finally {
      await client.end()
    }
  })

  it('a process that does not get the sweep lock skips the round', async () => {
    const url = await databases.create()
    const a = await engine(url)
    const b = await engine(url)
    await ingestExpiring(a, 'old', '2001-01-01T00:00:00.000Z')
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let entered!: () => void
    const inside = new Promise<void>((resolve) => (entered = resolve))
    const holder = a.storage.coordination!.tryExclusive!(EXPIRY_SWEEP_LOCK, async () => {
      entered()
      await held
      return 'done'
    })
    await inside
    expect(await b.expiry.sweep()).toEqual({
      ran: false,
      brains: 0,
      expired: 0,
      submitted: 0,
      forgets: [],
    })
    expect(await forgetTasks(a)).toEqual([])
    release()
    expect(await holder).toEqual({ acquired: true, value: 'done' })
    expect(await b.expiry.sweep()).toMatchObject({ ran: true, expired: 1, submitted: 1 })
  })
})
