import { mkdtemp, readdir, readFile, rm, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hashingTestEmbedder } from '../../testing/index.js'
import type { Embedder } from '../contracts/embedder.js'
import type { BrainStore, StorageAdapter, WriteBatch } from '../contracts/storage-adapter.js'
import { createEngine } from '../engine/create-engine.js'
import { damageLinkLists } from './vectors/damage-hnsw.test-helper.js'
import { saveVectorIndex } from './vectors/vector-snapshot.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { VectorSpace } from './brain-indexes.js'
import type { IndexManager } from './index-manager.js'
import type { VectorSnapshotOptions } from './index-snapshots.js'
import { parseSnapshotMeta, SNAPSHOT_META, snapshotDirName } from './snapshot-meta.js'

const BRAIN = 'b'
const DIM = 8
const AT = '2025-01-01T00:00:00.000Z'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** A small synthetic vector per seed (integer hash per coordinate): enough to tell ids apart. */
const vec = (seed: number) =>
  Float32Array.from({ length: DIM }, (_, i) => {
    const h = Math.imul((seed + 1) * 0x9e3779b1 + i * 0x85ebca6b, 0xc2b2ae35) >>> 0
    return h / 2 ** 31 - 1
  })

const passage = (id: string): Passage => ({
  id,
  text: `passage ${id}`,
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
    passages: ids.map(passage),
    entities: uuids.map(entity),
    vectors: [
      ...ids.map((id, i) => ({ space: 'passages', id, vector: vec(i) })),
      ...uuids.map((id, i) => ({ space: 'entities', id, vector: vec(100 + i) })),
    ],
  }
}

type TestAdapter = StorageAdapter & {
  root: string
  /** The space of every `vectors.scan` call (a rebuild reads vectors; a snapshot load does not). */
  scans: string[]
  /** Every `passages.scan` call (the lexical indexes' rebuild reads passages; a snapshot load does not). */
  passageScans: number
  /**
   * Resolves at the first write of a brain's snapshot meta, from now on, that names exactly `spaces`
   * as valid: the signal that a (background) save was recorded. No clock of its own.
   */
  recorded(spaces: VectorSpace[]): Promise<void>
}

/**
 * The memory adapter with a `snapshotDir` per brain under a temp dir, removed with the brain as the
 * SQLite adapter does. Its records outlive an engine, so a new engine on it is a restart.
 */
async function adapterWithSnapshots(): Promise<TestAdapter> {
  const root = await mkdtemp(join(tmpdir(), 'engram-snapshots-'))
  dirs.push(root)
  const inner = memoryAdapter()
  const wrapped = new Map<BrainStore, BrainStore>()
  const scans: string[] = []
  const metaWrites = new Set<(spaces: string[]) => void>()
  const adapter: TestAdapter = {
    root,
    scans,
    passageScans: 0,
    recorded(spaces) {
      const want = JSON.stringify([...spaces].sort())
      return new Promise((resolve) => {
        const check = (named: string[]) => {
          if (JSON.stringify(named) !== want) return
          metaWrites.delete(check)
          resolve()
        }
        metaWrites.add(check)
      })
    },
    name: 'memory+snapshots',
    open: () => inner.open(),
    close: () => inner.close(),
    catalog: {
      ...inner.catalog,
      async delete(brainId) {
        const stats = await inner.catalog.delete(brainId)
        await rm(join(root, brainId), { recursive: true, force: true })
        return stats
      },
    },
    async brain(brainId) {
      const store = await inner.brain(brainId)
      let outer = wrapped.get(store)
      if (outer === undefined) {
        outer = {
          ...store,
          snapshotDir: join(root, brainId),
          meta: {
            ...store.meta,
            async set(key, value) {
              await store.meta.set(key, value)
              if (key !== SNAPSHOT_META) return
              const named = Object.keys(parseSnapshotMeta(value).vectors).sort()
              for (const check of [...metaWrites]) check(named)
            },
          },
          vectors: {
            ...store.vectors,
            scan(space, after, limit) {
              scans.push(space)
              return store.vectors.scan(space, after, limit)
            },
          },
          passages: {
            ...store.passages,
            scan(after, limit) {
              adapter.passageScans++
              return store.passages.scan(after, limit)
            },
          },
        }
        wrapped.set(store, outer)
      }
      return outer
    },
  }
  return adapter
}

/** One life of the process: an engine and its search service on `storage`. */
async function boot(
  storage: TestAdapter,
  options: { snapshots?: VectorSnapshotOptions | false; embedder?: Embedder } = {},
) {
  const engram = createEngine({
    storage,
    version: 't',
    defaultBrain: null,
    embedder: options.embedder ?? null,
    // Background saves stay out of the way unless a test asks for them.
    snapshots: options.snapshots === false ? false : { idleMs: 3_600_000, ...options.snapshots },
  })
  await engram.start()
  if ((await engram.brains.get(BRAIN)) === null) await engram.brains.create(BRAIN)
  const store = await engram.store(BRAIN)
  storage.scans.length = 0
  storage.passageScans = 0
  return { engram, indexes: engram.indexes, store, scanned: storage.scans }
}

const nearest = async (indexes: IndexManager, space: VectorSpace, q: Float32Array) =>
  (await indexes.get(BRAIN)).vectors.get(space)!.search(q, 3)

const validSpaces = async (store: BrainStore) =>
  Object.keys(parseSnapshotMeta(await store.meta.get(SNAPSHOT_META)).vectors).sort()

describe('vector index snapshots', () => {
  it('are saved at stop and loaded at the next start instead of re-inserting vectors', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    const before = await first.indexes.get(BRAIN)
    expect(Object.fromEntries(before.vectorOrigin)).toEqual({
      passages: 'storage',
      entities: 'storage',
    })
    const expected = await nearest(first.indexes, 'passages', vec(3))
    await first.engram.stop()
    expect(await validSpaces(first.store)).toEqual(['entities', 'passages'])

    const second = await boot(storage)
    const after = await second.indexes.get(BRAIN)
    expect(Object.fromEntries(after.vectorOrigin)).toEqual({
      passages: 'snapshot',
      entities: 'snapshot',
    })
    // Loaded, not rebuilt: the adapter's vectors were never read.
    expect(second.scanned).toEqual([])
    expect(after.vectors.get('passages')!.size).toBe(40)
    expect(await nearest(second.indexes, 'passages', vec(3))).toEqual(expected)
    await second.engram.stop()
  })

  it('are invalidated by a write before it is stored, so a crash after it rebuilds', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await first.engram.stop()

    const second = await boot(storage)
    await second.indexes.get(BRAIN)
    // A new passage vector, and p5 re-embedded under the same id.
    await second.engram.commit(BRAIN, {
      passages: [passage('p-new')],
      vectors: [
        { space: 'passages', id: 'p-new', vector: vec(500) },
        { space: 'passages', id: 'p5', vector: vec(600) },
      ],
    })
    expect(await validSpaces(second.store)).toEqual(['entities'])
    // Crash-like end: no stop, no save.

    const third = await boot(storage)
    const indexes = await third.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('passages')).toBe('storage')
    expect(indexes.vectorOrigin.get('entities')).toBe('snapshot')
    expect(third.scanned).toEqual(['passages'])
    expect((await nearest(third.indexes, 'passages', vec(500)))[0]!.id).toBe('p-new')
    expect((await nearest(third.indexes, 'passages', vec(600)))[0]!.id).toBe('p5')
    expect((await nearest(third.indexes, 'passages', vec(5)))[0]!.id).not.toBe('p5')
  })

  it('are invalidated by vectors the embedding hook adds to a batch', async () => {
    const embedder = hashingTestEmbedder(DIM)
    const storage = await adapterWithSnapshots()
    const first = await boot(storage, { embedder })
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await first.engram.stop()

    const second = await boot(storage, { embedder })
    await second.indexes.get(BRAIN)
    // No vector in the batch: the engine embeds the passage before it is stored.
    await second.engram.commit(BRAIN, { passages: [passage('p-embedded')] })
    expect(await validSpaces(second.store)).toEqual(['entities'])
    // Crash-like end: the next start rebuilds the passages space, with the new vector.
    const third = await boot(storage, { embedder })
    const indexes = await third.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('passages')).toBe('storage')
    expect(indexes.vectors.get('passages')!.has('p-embedded')).toBe(true)
  })

  it('are rebuilt after a crash that left no save, or a save cut short', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    const built = await first.indexes.get(BRAIN)
    // Crash-like end in the middle of a save: its files are complete, the meta was never written.
    const id = '00000000-0000-0000-0000-000000000000'
    const cut = join(storage.root, BRAIN, snapshotDirName('passages', id))
    await saveVectorIndex(built.vectors.get('passages')!, cut, { id })

    const second = await boot(storage)
    const indexes = await second.indexes.get(BRAIN)
    expect(Object.fromEntries(indexes.vectorOrigin)).toEqual({
      passages: 'storage',
      entities: 'storage',
    })
    expect(indexes.vectors.get('passages')!.size).toBe(40)
    // The next save replaces the leftover files.
    await second.indexes.saveSnapshots(BRAIN)
    expect(await readdir(join(storage.root, BRAIN))).not.toContain(snapshotDirName('passages', id))
  })

  it('are invalidated by deletions: a deleted entity or vector is not in the next index', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await first.engram.stop()

    const second = await boot(storage)
    await second.indexes.get(BRAIN)
    await second.engram.commit(BRAIN, { deleteEntities: ['e2'] })
    expect(await validSpaces(second.store)).toEqual(['passages'])
    await second.engram.stop()

    const third = await boot(storage)
    let indexes = await third.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('entities')).toBe('snapshot')
    expect(indexes.vectors.get('entities')!.has('e2')).toBe(false)
    expect(indexes.vectors.get('entities')!.size).toBe(4)
    await third.engram.commit(BRAIN, { deleteVectors: [{ space: 'passages', id: 'p7' }] })
    expect(await validSpaces(third.store)).toEqual(['entities'])

    const fourth = await boot(storage)
    indexes = await fourth.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('passages')).toBe('storage')
    expect(indexes.vectors.get('passages')!.has('p7')).toBe(false)
    expect(indexes.vectors.get('passages')!.size).toBe(39)
  })

  it('with damaged files are not loaded: the space is rebuilt', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await first.engram.stop()
    const dir = join(storage.root, BRAIN)
    const passagesDir = (await readdir(dir)).find((name) => name.startsWith('vectors-passages-'))!
    await truncate(join(dir, passagesDir, 'hnsw.bin'), 100)

    const second = await boot(storage)
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('passages')).toBe('storage')
    expect(indexes.vectorOrigin.get('entities')).toBe('snapshot')
    expect(indexes.vectors.get('passages')!.size).toBe(40)
    // The next save replaces the damaged snapshot and removes its files.
    await second.indexes.saveSnapshots(BRAIN)
    expect(await readdir(dir)).not.toContain(passagesDir)
    expect(await validSpaces(second.store)).toEqual(['entities', 'passages'])
  })

  it('with a graph hnswlib refuses: searched exactly, then forgotten so the next start rebuilds', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    const expected = await nearest(first.indexes, 'passages', vec(3))
    await first.engram.stop()
    const dir = join(storage.root, BRAIN)
    const passagesDir = (await readdir(dir)).find((name) => name.startsWith('vectors-passages-'))!
    // Sizes agree with the meta: the index is handed over, and its graph fails afterwards.
    await damageLinkLists(join(dir, passagesDir, 'hnsw.bin'))

    const forgotten = storage.recorded(['entities'])
    const second = await boot(storage)
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('passages')).toBe('snapshot')
    await expect(indexes.vectors.get('passages')!.graphReady).rejects.toThrow(/corrupted/)
    await forgotten
    expect(await nearest(second.indexes, 'passages', vec(3))).toEqual(expected)
    // This process never saves it (it has no graph to save); the next start rebuilds it.
    await second.engram.stop()
    expect(await validSpaces(second.store)).toEqual(['entities'])
    const third = await boot(storage)
    expect((await third.indexes.get(BRAIN)).vectorOrigin.get('passages')).toBe('storage')
    expect(await nearest(third.indexes, 'passages', vec(3))).toEqual(expected)
    await third.engram.stop()
  })

  it('are saved in the background once a brain is idle', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage, { snapshots: { idleMs: 20, minIntervalMs: 0 } })
    // Nothing saves before the write (no vectors yet); the commit schedules the background save.
    const saved = storage.recorded(['entities', 'passages'])
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await saved
    expect(await validSpaces(first.store)).toEqual(['entities', 'passages'])
    // Crash-like end: the background save is what the next start loads.
    const second = await boot(storage)
    expect((await second.indexes.get(BRAIN)).vectorOrigin.get('passages')).toBe('snapshot')
  })

  it('never record a save that a concurrent write overtook', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await Promise.all([
      first.indexes.saveSnapshots(BRAIN),
      first.engram.commit(BRAIN, {
        passages: [passage('p-late')],
        vectors: [{ space: 'passages', id: 'p-late', vector: vec(700) }],
      }),
    ])
    // Whichever finished first, the next start sees the write.
    const second = await boot(storage)
    expect((await nearest(second.indexes, 'passages', vec(700)))[0]!.id).toBe('p-late')
  })

  it('are not used with `snapshots: false`, and writes still invalidate them', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await first.engram.stop()

    const off = await boot(storage, { snapshots: false })
    expect((await off.indexes.get(BRAIN)).vectorOrigin.get('passages')).toBe('storage')
    await off.engram.commit(BRAIN, {
      vectors: [{ space: 'passages', id: 'p1', vector: vec(800) }],
    })
    await off.engram.stop()
    expect(await validSpaces(off.store)).toEqual(['entities'])
  })

  it('are removed with their brain', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    await first.indexes.get(BRAIN)
    await first.indexes.saveSnapshots(BRAIN)
    // Two vector spaces and the lexical indexes.
    expect((await readdir(join(storage.root, BRAIN))).length).toBe(3)
    await first.engram.brains.delete(BRAIN)
    await expect(readdir(join(storage.root, BRAIN))).rejects.toThrow()
    // A brain created again under the same id starts without snapshots, and the indexes this process
    // still holds for the deleted one are never saved as the new brain's.
    await first.engram.brains.create(BRAIN)
    await first.engram.commit(BRAIN, {
      passages: [passage('q')],
      vectors: [{ space: 'passages', id: 'q', vector: vec(900) }],
    })
    await first.indexes.saveSnapshots(BRAIN)
    await first.engram.stop()
    const second = await boot(storage)
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.vectorOrigin.get('passages')).toBe('storage')
    expect(indexes.vectors.get('passages')!.size).toBe(1)
    expect(indexes.vectors.has('entities')).toBe(false)
  })
})

const lexicalId = async (store: BrainStore) =>
  parseSnapshotMeta(await store.meta.get(SNAPSHOT_META)).lexical

/** Everything a search reads from the lexical indexes, to compare a loaded brain with a built one. */
async function lexicalView(indexes: IndexManager) {
  const built = await indexes.get(BRAIN)
  return {
    passages: built.passages.search('passage p1', 50),
    entities: built.entities.search('entity', 10),
    size: built.passages.size,
    info: [...built.entityInfo].sort(),
    neighbours: ['p0', 'p5', 'p39'].map((id) => built.lexical.sequence.neighbours(id)),
  }
}

/** Passages of one source, in order: they have sequence neighbours. */
const sourced = (id: string, position: number): Passage => ({
  ...passage(id),
  text: `${id} mentions zanzibar ${position % 3 === 0 ? 'quokka' : 'walrus'}`,
  source: 'doc-1',
  position,
})

describe('lexical index snapshots (BM25, passage sequence, entity attributes)', () => {
  it('are saved at stop and loaded at the next start instead of reading every passage', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, {
      ...seedBatch(),
      passages: Array.from({ length: 40 }, (_, i) => sourced(`p${i}`, i)),
      entities: [{ ...entity('ev'), labels: ['EVENT'], happenedAt: AT }, entity('e1')],
    })
    const expected = await lexicalView(first.indexes)
    expect(expected.neighbours[1]).toEqual(['p4', 'p6'])
    await first.engram.stop()
    expect(await lexicalId(first.store)).toBeDefined()

    const second = await boot(storage)
    expect(await lexicalView(second.indexes)).toEqual(expected)
    expect(storage.passageScans).toBe(0)
    expect((await second.indexes.get(BRAIN)).lexical.restored).toBe(true)
    // A write after the load reaches the loaded index, and invalidates the snapshot first.
    await second.engram.commit(BRAIN, { passages: [sourced('p40', 40)] })
    expect(await lexicalId(second.store)).toBeUndefined()
    expect((await second.indexes.get(BRAIN)).passages.search('p40', 1)[0]!.id).toBe('p40')
    // Crash-like end: the next start rebuilds from storage, with the write.
    const third = await boot(storage)
    const rebuilt = await third.indexes.get(BRAIN)
    expect(rebuilt.lexical.restored).toBe(false)
    expect(storage.passageScans).toBeGreaterThan(0)
    expect(rebuilt.passages.size).toBe(41)
  })

  it('are taken off the disk by a forget, and the next one holds no forgotten term', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, {
      passages: [
        { ...passage('keep'), text: 'an ordinary passage about walruses' },
        { ...passage('gone'), text: 'the secret word is xylophonist' },
      ],
    })
    await first.indexes.get(BRAIN)
    await first.indexes.saveSnapshots(BRAIN)
    const dir = join(storage.root, BRAIN)
    const lexicalDirs = async () =>
      (await readdir(dir)).filter((name) => name.startsWith('lexical-'))
    const [saved] = await lexicalDirs()
    expect(saved).toBeDefined()
    const file = join(dir, saved!, 'lexical.bin')
    expect((await readFile(file)).includes('xylophonist')).toBe(true)

    await first.engram.commit(BRAIN, { deletePassages: ['gone'] })
    // Gone at once, before any save.
    expect(await lexicalDirs()).toEqual([])
    await first.indexes.saveSnapshots(BRAIN)
    const [next] = await lexicalDirs()
    const bytes = await readFile(join(dir, next!, 'lexical.bin'))
    expect(bytes.includes('xylophon')).toBe(false)
    expect(bytes.includes('gone')).toBe(false)
    expect(bytes.includes('walrus')).toBe(true)
    await first.engram.stop()

    const second = await boot(storage)
    const indexes = await second.indexes.get(BRAIN)
    expect(indexes.lexical.restored).toBe(true)
    expect(indexes.passages.search('xylophonist', 5)).toEqual([])
    expect(indexes.passages.search('walruses', 5).map((h) => h.id)).toEqual(['keep'])
  })

  it('with a damaged file are not loaded: the lexical indexes are rebuilt', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, seedBatch())
    const expected = await lexicalView(first.indexes)
    await first.engram.stop()
    const dir = join(storage.root, BRAIN)
    const lexicalDir = (await readdir(dir)).find((name) => name.startsWith('lexical-'))!
    const file = join(dir, lexicalDir, 'lexical.bin')
    await truncate(file, (await readFile(file)).length - 3)

    const second = await boot(storage)
    expect(await lexicalView(second.indexes)).toEqual(expected)
    expect((await second.indexes.get(BRAIN)).lexical.restored).toBe(false)
    expect(storage.passageScans).toBeGreaterThan(0)
    await second.indexes.saveSnapshots(BRAIN)
    expect(await readdir(dir)).not.toContain(lexicalDir)
    expect(await lexicalId(second.store)).toBeDefined()
  })
})
