import { mkdir, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engram, type Entity, type Passage, type WriteBatch } from '@engram/core'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'

/**
 * Index snapshots of PostgreSQL brains (`snapshotDir`), validated by the write feed: each engine is
 * one process's life (its own adapter, pool and origin); an engine started again on the same
 * database and directory is a restart. Whether indexes came from a snapshot or from the records is
 * read from the indexes themselves (`vectorOrigin`, `lexical.restored`), never from timings.
 */

const BRAIN = 'b'
const DIM = 8
const AT = '2025-01-01T00:00:00.000Z'

const databases = testDatabases()
const running: Engram[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.stop({ graceMs: 0 })))
})
afterAll(async () => {
  await databases.dropAll()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const vec = (seed: number) =>
  Float32Array.from({ length: DIM }, (_, i) => {
    const h = Math.imul((seed + 1) * 0x9e3779b1 + i * 0x85ebca6b, 0xc2b2ae35) >>> 0
    return h / 2 ** 31 - 1
  })

const WORDS = ['river', 'stone', 'copper', 'lantern', 'harbor', 'meadow', 'falcon', 'cedar']
const passage = (id: string, n: number): Passage => ({
  id,
  text: `passage ${id} ${WORDS[n % WORDS.length]} ${WORDS[(n * 3 + 1) % WORDS.length]}`,
  metadata: {},
  insertedAt: AT,
  brainVersion: 't',
  source: null,
  position: 0,
  start: 0,
  end: 10,
})
const entity = (uuid: string): Entity => ({
  uuid,
  name: `entity ${uuid}`,
  description: null,
  labels: ['THING'],
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: AT,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
})

/** 40 passages and 5 entities, each with a vector. */
function seedBatch(): WriteBatch {
  const ids = Array.from({ length: 40 }, (_, i) => `p${i}`)
  const uuids = Array.from({ length: 5 }, (_, i) => `e${i}`)
  return {
    passages: ids.map((id, i) => passage(id, i)),
    entities: uuids.map(entity),
    vectors: [
      ...ids.map((id, i) => ({ space: 'passages', id, vector: vec(i) })),
      ...uuids.map((id, i) => ({ space: 'entities', id, vector: vec(100 + i) })),
    ],
  }
}

/** One process's life on `url`; `snapshotDir` unset: no snapshots (the rebuild to compare with). */
async function boot(url: string, snapshotDir?: string, followPollMs = 100): Promise<Engram> {
  const engram = createEngine({
    storage: postgresAdapter({
      connectionString: url,
      ...(snapshotDir === undefined ? {} : { snapshotDir }),
    }),
    version: 't',
    defaultBrain: null,
    embedder: null,
    followPollMs,
    // Saved at stop only, unless a test asks.
    snapshots: { idleMs: 3_600_000 },
  })
  await engram.start()
  running.push(engram)
  if ((await engram.brains.get(BRAIN)) === null) await engram.brains.create(BRAIN)
  return engram
}

async function stop(engram: Engram) {
  await engram.stop()
  running.splice(running.indexOf(engram), 1)
}

async function fresh() {
  const url = await databases.create()
  const dir = await mkdtemp(join(tmpdir(), 'engram-pg-snapshots-'))
  dirs.push(dir)
  return { url, dir }
}

/** Where each part of the brain's indexes came from. */
async function origins(engram: Engram) {
  const indexes = await engram.indexes.get(BRAIN)
  return {
    ...Object.fromEntries(indexes.vectorOrigin),
    lexical: indexes.lexical.restored ? 'snapshot' : 'storage',
    graph: indexes.graph.restored ? 'snapshot' : 'storage',
  }
}

/** A request that walks the graph (as the default search does) builds it; only a built graph is saved. */
async function walkGraph(engram: Engram) {
  await (await engram.indexes.get(BRAIN)).graph.get(await engram.store(BRAIN))
}

/** What searches answer: BM25 per word, nearest passages and entities per probe vector. */
async function answers(engram: Engram) {
  const indexes = await engram.indexes.get(BRAIN)
  const probes = [0, 3, 17, 39, 500, 101]
  return {
    passages: indexes.passages.size,
    bm25: WORDS.map((w) => indexes.passages.search(w, 10)),
    nearest: probes.map((p) => indexes.vectors.get('passages')?.search(vec(p), 3)),
    entities: probes.map((p) => indexes.vectors.get('entities')?.search(vec(p), 2)),
    graphNodes: (await indexes.graph.get(await engram.store(BRAIN))).nodeCount,
  }
}

/** What a process without snapshots builds from the records. */
async function rebuilt(url: string) {
  const engram = await boot(url)
  expect(Object.values(await origins(engram))).not.toContain('snapshot')
  const result = await answers(engram)
  await stop(engram)
  return result
}

const FROM_SNAPSHOT = {
  passages: 'snapshot',
  entities: 'snapshot',
  lexical: 'snapshot',
  graph: 'snapshot',
}
const FROM_STORAGE = {
  passages: 'storage',
  entities: 'storage',
  lexical: 'storage',
  graph: 'storage',
}

/** A write of another process: a new passage, p3 forgotten, p5 re-embedded. */
const laterWrite: WriteBatch = {
  passages: [passage('p-new', 2)],
  vectors: [
    { space: 'passages', id: 'p-new', vector: vec(500) },
    { space: 'passages', id: 'p5', vector: vec(501) },
  ],
}

async function sql(url: string, text: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

describe('postgres index snapshots', () => {
  it('are saved at stop and loaded at the next start, answering as a rebuild does', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    expect(await origins(first)).toEqual(FROM_STORAGE)
    await walkGraph(first)
    await stop(first)
    expect((await readdir(join(dir, BRAIN))).sort()).toEqual(
      expect.arrayContaining(['snapshots.json']),
    )

    const second = await boot(url, dir)
    expect(await origins(second)).toEqual(FROM_SNAPSHOT)
    expect(await answers(second)).toEqual(await rebuilt(url))
  })

  it('catch up on writes other processes made after the save, forgets included', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await stop(first)

    const other = await boot(url)
    await other.commit(BRAIN, laterWrite)
    await other.commit(BRAIN, {
      deletePassages: ['p3'],
      deleteVectors: [{ space: 'passages', id: 'p3' }],
    })
    await stop(other)

    const second = await boot(url, dir)
    expect(await origins(second)).toEqual(FROM_SNAPSHOT)
    const after = await answers(second)
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.passages.has('p-new')).toBe(true)
    expect(indexes.passages.has('p3')).toBe(false)
    expect(indexes.vectors.get('passages')!.search(vec(501), 1)[0]!.id).toBe('p5')
    expect(after).toEqual(await rebuilt(url))
  })

  it('follow writes made while running, and the next save reflects them', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await first.indexes.saveSnapshots(BRAIN)
    const other = await boot(url)
    await other.commit(BRAIN, laterWrite)
    // The follower applies it to `first`'s indexes; the save at stop labels them past it, the parts
    // it did not touch (entities, graph) as well.
    await expect
      .poll(async () => (await first.indexes.get(BRAIN)).passages.has('p-new'), { timeout: 10_000 })
      .toBe(true)
    await stop(first)
    await stop(other)
    // Entries up to the save are no longer needed: pruned, the snapshot still loads.
    await sql(url, 'DELETE FROM writes')

    const second = await boot(url, dir)
    expect(await origins(second)).toEqual(FROM_SNAPSHOT)
    expect(await answers(second)).toEqual(await rebuilt(url))
  })

  it('are rebuilt when the feed lost entries written after the save', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await stop(first)

    const other = await boot(url)
    await other.commit(BRAIN, laterWrite)
    await other.commit(BRAIN, { passages: [passage('p-later', 4)] })
    await stop(other)
    // Retention pruned the first entry after the save: the snapshot cannot be brought up to date.
    await sql(url, 'DELETE FROM writes WHERE seq = (SELECT min(seq) FROM writes WHERE seq > 1)')

    const second = await boot(url, dir)
    expect(await origins(second)).toEqual(FROM_STORAGE)
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.passages.has('p-new')).toBe(true)
    expect(await answers(second)).toEqual(await rebuilt(url))
  })

  it('of a brain deleted and created again under the same id are never loaded', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await stop(first)

    // Another process deletes the brain and creates it again: its numbering restarts, and with more
    // writes than before it passes the snapshot's seq.
    const other = await boot(url)
    await other.brains.delete(BRAIN)
    await other.brains.create(BRAIN)
    for (let i = 0; i < 3; i++) await other.commit(BRAIN, { passages: [passage(`q${i}`, i)] })
    await stop(other)

    const second = await boot(url, dir)
    expect(await origins(second)).toEqual({ lexical: 'storage', graph: 'storage' })
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.passages.size).toBe(3)
    expect(indexes.passages.has('p0')).toBe(false)
    expect(indexes.vectors.size).toBe(0)
  })

  it('are loaded after a token rotation, which does not make another brain', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await stop(first)

    const other = await boot(url)
    await other.brains.rotateToken(BRAIN)
    await stop(other)

    const second = await boot(url, dir)
    expect(await origins(second)).toEqual(FROM_SNAPSHOT)
    expect(await answers(second)).toEqual(await rebuilt(url))
  })

  it('are not saved while the follower still counts writes of a brain since deleted', async () => {
    const { url, dir } = await fresh()
    // No poll: the follower does not notice that the brain's numbering restarted.
    const first = await boot(url, dir, 3_600_000)
    for (let i = 0; i < 6; i++) await first.commit(BRAIN, { passages: [passage(`p${i}`, i)] })
    await walkGraph(first)
    const other = await boot(url)
    await other.brains.delete(BRAIN)
    await other.brains.create(BRAIN)
    await other.commit(BRAIN, { passages: [passage('q0', 0)] })
    // `first` sees the new brain (its catalogue cache expires) and rebuilds its indexes from storage.
    await expect
      .poll(async () => (await first.indexes.get(BRAIN)).passages.has('q0'), { timeout: 10_000 })
      .toBe(true)
    // Labelled with the follower's position (6 writes of the old brain), its snapshot would skip the
    // new brain's writes 2-6 at the next load.
    await stop(first)
    for (let i = 1; i <= 10; i++) await other.commit(BRAIN, { passages: [passage(`q${i}`, i)] })
    await stop(other)

    const second = await boot(url, dir)
    expect(await answers(second)).toEqual(await rebuilt(url))
  })

  it('are rebuilt, part by part, when a file is damaged, and wholly when the manifest is', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await stop(first)
    const expected = await rebuilt(url)

    const lexical = (await readdir(join(dir, BRAIN))).find((name) => name.startsWith('lexical-'))!
    await truncate(join(dir, BRAIN, lexical, 'lexical.bin'), 100)
    const second = await boot(url, dir)
    expect(await origins(second)).toEqual({ ...FROM_SNAPSHOT, lexical: 'storage' })
    expect(await answers(second)).toEqual(expected)
    await stop(second)

    await writeFile(join(dir, BRAIN, 'snapshots.json'), '{"format":1,"incarnation":')
    const third = await boot(url, dir)
    expect(await origins(third)).toEqual(FROM_STORAGE)
    expect(await answers(third)).toEqual(expected)
  })

  it('leave the disk with the brain, with what this process forgets, and of brains deleted meanwhile', async () => {
    const { url, dir } = await fresh()
    const first = await boot(url, dir)
    await first.commit(BRAIN, seedBatch())
    await walkGraph(first)
    await first.indexes.saveSnapshots(BRAIN)
    const names = async () => (await readdir(join(dir, BRAIN))).sort()
    expect((await names()).some((name) => name.startsWith('lexical-'))).toBe(true)
    // A forget takes the parts it touches off the disk at once.
    await first.commit(BRAIN, { deletePassages: ['p1'] })
    expect((await names()).some((name) => name.startsWith('lexical-'))).toBe(false)
    expect((await names()).some((name) => name.startsWith('vectors-passages-'))).toBe(false)
    expect((await names()).some((name) => name.startsWith('vectors-entities-'))).toBe(true)
    await first.brains.delete(BRAIN)
    await expect(readdir(join(dir, BRAIN))).rejects.toThrow()
    await stop(first)

    // Brains deleted while this process was away: their snapshots go at the next start; a directory
    // holding anything else is left alone.
    await mkdir(join(dir, 'gone', 'lexical-1234'), { recursive: true })
    await writeFile(join(dir, 'gone', 'snapshots.json'), '{}')
    await mkdir(join(dir, 'mine'), { recursive: true })
    await writeFile(join(dir, 'mine', 'notes.txt'), 'not a snapshot')
    await boot(url, dir)
    expect(await readdir(dir)).toEqual(['mine'])
  })
})
