import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sqliteAdapter, type SqliteDatabaseLike } from '@engram/adapter-sqlite'
import * as core from '@engram/core'
import { loadConfig } from '@engram/server'
import Database from 'better-sqlite3'
import { loadLocomo } from '../loaders/locomo.js'
import { captureEnvironment } from '../run/environment.js'
import { locomoTasks } from './locomo-tasks.js'
import { runIngestTasks } from './run-ingest-tasks.js'
import type { CommitFrames, StoreWritesReplay, StoreWritesResult } from './store-writes-result.js'
import { storeWritesReport } from './store-writes-report.js'

export const STORE_WRITES_COMMAND = 'npm run bench -- --store-writes'

/** One write the engine made to a brain's store while ingesting, as it was handed to the store. */
type Write =
  | { readonly brainId: string; readonly kind: 'apply'; readonly batch: core.WriteBatch }
  | { readonly brainId: string; readonly kind: 'create' | 'put'; readonly task: core.Task }

const KIND_LABEL: Record<Write['kind'], CommitFrames['kind']> = {
  apply: 'batch (store.apply)',
  create: 'task created (tasks.create)',
  put: 'task updated (tasks.put)',
}

/** SQLite's WAL: a 32-byte file header, then frames of a 24-byte header and one page. */
const WAL_HEADER = 32
const FRAME_HEADER = 24

/** `storage` with every write the engine hands a brain's store appended to `writes` (copies, as the engine may reuse objects). */
function recording(storage: core.StorageAdapter, writes: Write[]): core.StorageAdapter {
  const recorded = new WeakSet<core.BrainStore>()
  const brainOf = storage.brain.bind(storage)
  storage.brain = async (brainId) => {
    const store = await brainOf(brainId)
    if (recorded.has(store)) return store
    recorded.add(store)
    const { apply } = store
    const { create, put } = store.tasks
    store.apply = (batch) => {
      writes.push({ brainId, kind: 'apply', batch: structuredClone(batch) })
      return apply(batch)
    }
    store.tasks.create = (task) => {
      writes.push({ brainId, kind: 'create', task: structuredClone(task) })
      return create(task)
    }
    store.tasks.put = (task) => {
      writes.push({ brainId, kind: 'put', task: structuredClone(task) })
      return put(task)
    }
    return store
  }
  return storage
}

/**
 * Ingests LoCoMo dev's turns (one task each, the server's default extractor pool and tasks at once, no
 * embedder) on SQLite through `runIngestTasks`, recording every write the engine hands a brain's store:
 * batches, task records created and updated.
 */
async function recordTurnWrites(dataDir: string): Promise<{
  writes: Write[]
  tasks: number
  brains: string[]
  passages: number
}> {
  const turns = locomoTasks(loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev'), 'turn')
  const writes: Write[] = []
  const defaults = loadConfig({})
  const pool = core.localExtractorPool({ workers: defaults.extractorWorkers })
  try {
    const run = await runIngestTasks(turns, {
      extractor: pool,
      workers: defaults.workers,
      workersPerBrain: defaults.workersPerBrain,
      storage: (dir) => recording(sqliteAdapter({ dataDir: dir }), writes),
    })
    return {
      writes,
      tasks: run.tasks,
      brains: [...new Set(turns.map((t) => t.brainId))],
      passages: run.passages,
    }
  } finally {
    await pool.close()
  }
}

async function applyWrite(store: core.BrainStore, write: Write): Promise<void> {
  if (write.kind === 'apply') await store.apply(write.batch)
  else if (write.kind === 'create') await store.tasks.create(write.task)
  else await store.tasks.put(write.task)
}

async function withBrains<T>(
  storage: core.StorageAdapter,
  brains: readonly string[],
  work: (stores: Map<string, core.BrainStore>) => Promise<T>,
): Promise<T> {
  await storage.open()
  try {
    const stores = new Map<string, core.BrainStore>()
    for (const id of brains) {
      await storage.catalog.create({
        id,
        nameKey: id,
        tokenHash: `bench-${id}`,
        tokenLast4: 'none',
        createdAt: new Date().toISOString(),
      })
      stores.set(id, await storage.brain(id))
    }
    return await work(stores)
  } finally {
    await storage.close()
  }
}

/** Every recorded write, in order, into a fresh data directory through the adapter as the server runs it. */
async function replay(
  writes: readonly Write[],
  brains: readonly string[],
): Promise<StoreWritesReplay> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-store-writes-'))
  try {
    return await withBrains(sqliteAdapter({ dataDir: dir }), brains, async (stores) => {
      const load1 = loadavg()[0]!
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      for (const write of writes) await applyWrite(stores.get(write.brainId)!, write)
      const wallMs = performance.now() - t0
      const cpu = process.cpuUsage(cpu0)
      return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, load1 }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The page numbers of the frames in the WAL file at `path`. */
function walPages(path: string, pageSize: number): number[] {
  const fd = openSync(path, 'r')
  try {
    const pages: number[] = []
    const header = Buffer.alloc(4)
    for (let at = WAL_HEADER; readSync(fd, header, 0, 4, at) === 4; at += FRAME_HEADER + pageSize)
      pages.push(header.readUInt32BE(0))
    return pages
  } finally {
    closeSync(fd)
  }
}

/**
 * One brain's writes again, through the adapter on a connection this benchmark also holds (a custom
 * `database` factory; the adapter then checkpoints on its own connection, which an emptied WAL never
 * reaches in one commit): before each write the WAL is checkpointed and truncated, after it the frames
 * it holds are that commit's, each mapped to its table or index by SQLite's `dbstat`.
 */
async function countFrames(
  writes: readonly Write[],
  brainId: string,
): Promise<StoreWritesResult['frames']> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-store-writes-'))
  let brainDb: Database.Database | null = null
  const storage = sqliteAdapter({
    dataDir: dir,
    database: (path) => {
      const db = new Database(path)
      if (path.endsWith(`${brainId}.sqlite`)) brainDb = db
      return db as unknown as SqliteDatabaseLike
    },
  })
  try {
    return await withBrains(storage, [brainId], async (stores) => {
      const store = stores.get(brainId)!
      const db = brainDb!
      const walPath = `${db.name}-wal`
      const pageSize = Number(db.pragma('page_size', { simple: true }))
      const commits = new Map<Write['kind'], { commits: number; frames: number }>()
      const trees = new Map<string, number>()
      for (const write of writes) {
        if (write.brainId !== brainId) continue
        db.pragma('wal_checkpoint(TRUNCATE)')
        await applyWrite(store, write)
        const pages = walPages(walPath, pageSize)
        const tally = commits.get(write.kind) ?? { commits: 0, frames: 0 }
        commits.set(write.kind, { commits: tally.commits + 1, frames: tally.frames + pages.length })
        if (write.kind !== 'apply') continue
        const treeOf = new Map<number, string>()
        for (const row of db.prepare('SELECT name, pageno FROM dbstat').all() as {
          name: string
          pageno: number
        }[])
          treeOf.set(row.pageno, row.name)
        for (const page of pages) {
          const name = treeOf.get(page) ?? '(free or new page)'
          trees.set(name, (trees.get(name) ?? 0) + 1)
        }
      }
      return {
        brain: brainId,
        commits: (['apply', 'create', 'put'] as const).map((kind) => ({
          kind: KIND_LABEL[kind],
          ...(commits.get(kind) ?? { commits: 0, frames: 0 }),
        })),
        trees: [...trees]
          .map(([name, frames]) => ({ name, frames }))
          .sort((a, b) => b.frames - a.frames || (a.name < b.name ? -1 : 1)),
      }
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * `--store-writes [rounds]`: what ingestion's writes cost SQLite. Records the store writes of LoCoMo dev's
 * turn tasks, replays them `rounds` times into fresh data directories (timed: the storage part of
 * ingestion alone, without extraction or the engine), and counts the WAL frames of one conversation's
 * commits by kind and by table or index. Writes results/store-writes.md and its data.
 */
export async function runStoreWrites(
  rounds: number,
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const environment = captureEnvironment()
  log('store writes: ingesting LoCoMo dev turns and recording their writes ...')
  const { writes, tasks, brains, passages } = await recordTurnWrites(dataDir)
  const count = (kind: Write['kind']) => writes.filter((w) => w.kind === kind).length
  log(`store writes: ${writes.length} writes of ${tasks} tasks recorded`)
  const replays: StoreWritesReplay[] = []
  for (let round = 0; round < rounds; round++) {
    const run = await replay(writes, brains)
    log(`store writes: replay ${round + 1}/${rounds}: ${run.wallMs.toFixed(0)} ms`)
    replays.push(run)
  }
  const frames = await countFrames(writes, brains[0]!)
  const result: StoreWritesResult = {
    command: `${STORE_WRITES_COMMAND} ${rounds}`,
    environment,
    tasks,
    brains: brains.length,
    passages,
    writes: { applies: count('apply'), creates: count('create'), puts: count('put') },
    replays,
    frames,
  }
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  writeFileSync(
    join(resultsDir, 'data', 'store-writes.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  )
  writeFileSync(join(resultsDir, 'store-writes.md'), storeWritesReport(result))
  log('store writes: wrote results/store-writes.md')
}
