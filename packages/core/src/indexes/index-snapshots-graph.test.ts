import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures } from '../../testing/fixtures.js'
import type { BrainStore, StorageAdapter, WriteBatch } from '../contracts/storage-adapter.js'
import { createEngine } from '../engine/create-engine.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Logger } from '../logger.js'
import type { Pause } from './index-component.js'
import { GraphIndex } from './graph/graph-index.js'
import { parseSnapshotMeta, SNAPSHOT_META } from './snapshot-meta.js'

const BRAIN = 'b'
const { entity, relationship: rel, observation } = fixtures

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

type TestAdapter = StorageAdapter & {
  root: string
  /** `relationships.scan` calls: only a graph built from storage reads relationships page by page. */
  relationshipScans: number
}

/**
 * The memory adapter with a `snapshotDir` per brain under a temp dir, removed with the brain as the
 * SQLite adapter does. Its records outlive an engine, so a new engine on it is a restart.
 */
async function adapterWithSnapshots(): Promise<TestAdapter> {
  const root = await mkdtemp(join(tmpdir(), 'engram-graph-snapshots-'))
  dirs.push(root)
  const inner = memoryAdapter()
  const wrapped = new Map<BrainStore, BrainStore>()
  const adapter: TestAdapter = {
    root,
    relationshipScans: 0,
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
          relationships: {
            ...store.relationships,
            scan(after, limit) {
              adapter.relationshipScans++
              return store.relationships.scan(after, limit)
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

/** One life of the process: an engine on `storage` (background saves out of the way). */
async function boot(
  storage: TestAdapter,
  logger?: Logger,
  savePause?: (part: 'lexical' | 'graph') => Pause,
) {
  const engram = createEngine({
    ...(logger === undefined ? {} : { logger }),
    storage,
    version: 't',
    defaultBrain: null,
    embedder: null,
    snapshots: { idleMs: 3_600_000, ...(savePause === undefined ? {} : { savePause }) },
  })
  await engram.start()
  if ((await engram.brains.get(BRAIN)) === null) await engram.brains.create(BRAIN)
  const store = await engram.store(BRAIN)
  storage.relationshipScans = 0
  const graph = async () => (await engram.indexes.get(BRAIN)).graph.get(store)
  return { engram, store, graph }
}

/** An event with two flows, a self-loop, an ended fact, observations. */
const SEED: WriteBatch = {
  entities: [
    entity({ uuid: 'ann', name: 'Ann', labels: ['PERSON'] }),
    entity({ uuid: 'ev', name: 'Ann bought', labels: ['EVENT'], happenedAt: '2024-01-02' }),
    entity({ uuid: 'laptop', name: 'laptop', labels: ['PRODUCT'] }),
    entity({ uuid: 'mouse', name: 'mouse', labels: ['PRODUCT'] }),
  ],
  relationships: [
    rel({ uuid: 'r1', subjectUuid: 'ann', name: 'BOUGHT', objectUuid: 'ev', flowKey: 'f1' }),
    rel({ uuid: 'r2', subjectUuid: 'ev', name: 'OF', objectUuid: 'laptop', flowKey: 'f1' }),
    rel({ uuid: 'r3', subjectUuid: 'ev', name: 'OF', objectUuid: 'mouse', flowKey: 'f2' }),
    rel({ uuid: 'r4', subjectUuid: 'ann', name: 'KNOWS', objectUuid: 'ann' }),
    rel({
      uuid: 'r5',
      subjectUuid: 'ann',
      name: 'OWNED',
      objectUuid: 'mouse',
      invalidAt: '2020-01-01T00:00:00.000Z',
    }),
  ],
  observations: [observation({ id: 'o1', resourceId: 'ann', text: 'Ann likes gadgets' })],
}

const graphId = async (store: BrainStore) =>
  parseSnapshotMeta(await store.meta.get(SNAPSHOT_META)).graph

const graphDirs = async (storage: TestAdapter) =>
  (await readdir(join(storage.root, BRAIN))).filter((name) => name.startsWith('graph-'))

/** Every own field of a graph but its caches (as `graph-snapshot.test.ts` compares them). */
const fieldsOf = (graph: GraphIndex) =>
  Object.fromEntries(
    Object.entries(graph).filter(
      ([key]) => key !== 'views' && key !== 'changeCount' && key !== 'writeCount',
    ),
  )

describe('graph index snapshots', () => {
  it('are saved once a request built the graph, never built for a save, and loaded at the next start', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, SEED)
    await first.engram.indexes.get(BRAIN)
    // No request built the graph: neither a save while running nor the one at stop builds it.
    await first.engram.indexes.saveSnapshots(BRAIN)
    expect(await graphId(first.store)).toBeUndefined()
    expect(storage.relationshipScans).toBe(0)
    await first.engram.stop()
    expect(storage.relationshipScans).toBe(0)
    expect(await graphId(first.store)).toBeUndefined()

    // A request that walks the graph builds it; the save at stop keeps it.
    const again = await boot(storage)
    await again.graph()
    expect(storage.relationshipScans).toBeGreaterThan(0)
    await again.engram.stop()
    expect(await graphId(again.store)).toBeDefined()
    expect(await graphDirs(storage)).toHaveLength(1)
    storage.relationshipScans = 0

    const second = await boot(storage)
    const indexes = await second.engram.indexes.get(BRAIN)
    expect(indexes.graph.restored).toBe(true)
    const loaded = await second.graph()
    // Loaded, not built: relationships were never read from storage.
    expect(storage.relationshipScans).toBe(0)
    expect(fieldsOf(loaded)).toEqual(fieldsOf(await GraphIndex.build(second.store)))
    expect(loaded.relationshipCount('ann')).toBe(3) // r1, the self-loop once, r5
    // Unchanged since its load: nothing to save again.
    await second.engram.stop()
    expect(await graphDirs(storage)).toHaveLength(1)
  })

  it('are invalidated by a write before it is stored: the loaded graph follows it, the next start rebuilds', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, SEED)
    await first.graph()
    await first.engram.stop()

    const second = await boot(storage)
    expect((await second.engram.indexes.get(BRAIN)).graph.restored).toBe(true)
    await second.engram.commit(BRAIN, {
      relationships: [
        rel({ uuid: 'r6', subjectUuid: 'laptop', name: 'NEAR', objectUuid: 'mouse' }),
      ],
    })
    expect(await graphId(second.store)).toBeUndefined()
    const graph = await second.graph()
    expect(graph.relationshipCount('laptop')).toBe(2)
    expect(storage.relationshipScans).toBe(0)
    // Crash-like end: no save.

    const third = await boot(storage)
    expect((await third.engram.indexes.get(BRAIN)).graph.restored).toBe(false)
    expect((await third.graph()).relationshipCount('laptop')).toBe(2)
    expect(storage.relationshipScans).toBeGreaterThan(0)
    // Built on first use, then saved as any changed part is.
    await third.engram.indexes.saveSnapshots(BRAIN)
    expect(await graphId(third.store)).toBeDefined()
  })

  it('are handed over whole to every request; a write during the load is applied on top', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, SEED)
    // A few thousand nodes: the load reads its file asynchronously, then decodes with a turn of the
    // event loop every ~10 ms (`loadGraphSnapshot`); the requests and the write below come meanwhile.
    const people = Array.from({ length: 3000 }, (_, i) => `p${i}`)
    await first.engram.commit(BRAIN, {
      entities: people.map((uuid) => entity({ uuid, name: uuid, labels: ['PERSON'] })),
      relationships: people.map((p, i) =>
        rel({ uuid: `k${i}`, subjectUuid: p, name: 'KNOWS', objectUuid: people[(i + 1) % 3000]! }),
      ),
    })
    const nodes = (await first.graph()).nodeCount
    await first.engram.stop()

    const second = await boot(storage)
    // The write is issued once the load has read which snapshots are valid, so the graph is loaded.
    let metaRead!: () => void
    const read = new Promise<void>((resolve) => (metaRead = resolve))
    const { meta } = second.store
    const get = meta.get.bind(meta)
    meta.get = async (key) => {
      const value = await get(key)
      if (key === SNAPSHOT_META) metaRead()
      return value
    }
    const requests = [second.graph(), second.graph()]
    await read
    const write = second.engram.commit(BRAIN, {
      relationships: [
        rel({ uuid: 'r6', subjectUuid: 'laptop', name: 'NEAR', objectUuid: 'mouse' }),
      ],
    })
    const [a, b] = await Promise.all(requests)
    await write
    expect(a).toBe(b)
    expect((await second.engram.indexes.get(BRAIN)).graph.restored).toBe(true)
    expect(storage.relationshipScans).toBe(0)
    expect(a.nodeCount).toBe(nodes)
    expect(a.relationshipCount('p0')).toBe(2)
    expect(a.relationshipCount('laptop')).toBe(2) // r2 and the write's r6
    // The write invalidated the snapshot: the graph is saved anew, with r6.
    await second.engram.stop()
    expect(await graphId(second.store)).toBeDefined()
    const third = await boot(storage)
    expect((await third.graph()).relationshipCount('laptop')).toBe(2)
    expect(storage.relationshipScans).toBe(0)
  })

  it('are taken off the disk at once by a write that deletes what they hold', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, SEED)
    await first.graph()
    await first.engram.indexes.saveSnapshots(BRAIN)
    expect(await graphDirs(storage)).toHaveLength(1)
    const lexical = parseSnapshotMeta(await first.store.meta.get(SNAPSHOT_META)).lexical
    expect(lexical).toBeDefined()
    await first.engram.commit(BRAIN, { deleteRelationships: ['r3'] })
    expect(await graphDirs(storage)).toEqual([])
    expect(await graphId(first.store)).toBeUndefined()
    // The lexical indexes hold no relationship: their snapshot stays.
    expect(parseSnapshotMeta(await first.store.meta.get(SNAPSHOT_META)).lexical).toBe(lexical)
    // The next snapshot holds nothing of a deleted entity (the index still numbers it).
    await first.engram.commit(BRAIN, {
      deleteEntities: ['laptop'],
      deleteRelationships: ['r2'],
    })
    await first.engram.indexes.saveSnapshots(BRAIN)
    const [dir] = await graphDirs(storage)
    const bytes = await readFile(join(storage.root, BRAIN, dir!, 'graph.bin'))
    expect(bytes.includes('laptop')).toBe(false)
    expect(bytes.includes('r3')).toBe(false)
    await first.engram.stop()
    const second = await boot(storage)
    expect((await second.engram.indexes.get(BRAIN)).graph.restored).toBe(true)
    expect((await second.graph()).relationshipCount('mouse')).toBe(1)
    expect((await second.graph()).node('laptop')).toBeUndefined()
  })

  it('with a damaged file are not loaded: the graph is built from storage, then saved again', async () => {
    const storage = await adapterWithSnapshots()
    const first = await boot(storage)
    await first.engram.commit(BRAIN, SEED)
    const expected = fieldsOf(await first.graph())
    await first.engram.stop()
    const [dir] = await graphDirs(storage)
    const file = join(storage.root, BRAIN, dir!, 'graph.bin')
    const bytes = await readFile(file)
    bytes[bytes.length - 50] ^= 0xff
    await writeFile(file, bytes)

    const second = await boot(storage)
    expect((await second.engram.indexes.get(BRAIN)).graph.restored).toBe(false)
    expect(fieldsOf(await second.graph())).toEqual(expected)
    expect(storage.relationshipScans).toBeGreaterThan(0)
    await second.engram.indexes.saveSnapshots(BRAIN)
    const after = await graphDirs(storage)
    expect(after).toHaveLength(1)
    expect(after).not.toContain(dir)
  })

  it('are dropped, not failed, when a write comes between two slices of the encode; the next save writes it', async () => {
    const storage = await adapterWithSnapshots()
    const logs: { level: string; msg: string; obj: object }[] = []
    const record =
      (level: string) =>
      (obj: object, msg = '') =>
        logs.push({ level, msg, obj })
    const logger: Logger = {
      debug: () => {},
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    }
    // At the graph encode's first pause, a write touching the graph is committed (its `beforeCommit`
    // moves the graph's epoch), then the encode goes on.
    let write: Promise<unknown> | null = null
    const savePause = (part: 'lexical' | 'graph') => () => {
      if (part !== 'graph' || write !== null) return undefined
      write = first.engram.commit(BRAIN, {
        relationships: [
          rel({ uuid: 'r6', subjectUuid: 'laptop', name: 'NEAR', objectUuid: 'mouse' }),
        ],
      })
      return write.then(() => undefined)
    }
    const first = await boot(storage, logger, savePause)
    await first.engram.commit(BRAIN, SEED)
    await first.graph()
    await first.engram.indexes.saveSnapshots(BRAIN)
    expect(write).not.toBeNull()
    expect(logs.filter((l) => l.level !== 'info')).toEqual([])
    const dropped = logs.find((l) => l.msg === 'graph snapshot dropped: written to meanwhile')
    // Stopped in the encode (between two slices), before any file was written.
    expect(dropped?.obj).toMatchObject({ part: 'graph', recorded: false })
    expect(dropped?.obj).not.toHaveProperty('writeMs')
    expect(await graphId(first.store)).toBeUndefined()
    expect(await graphDirs(storage)).toEqual([])
    // Saved at stop, with the write.
    await first.engram.stop()
    expect(await graphId(first.store)).toBeDefined()
    const second = await boot(storage)
    expect((await second.engram.indexes.get(BRAIN)).graph.restored).toBe(true)
    expect((await second.graph()).relationshipCount('laptop')).toBe(2)
    expect(storage.relationshipScans).toBe(0)
  })
})
