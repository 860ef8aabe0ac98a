import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

const driver = createRequire(import.meta.url).resolve('better-sqlite3')

/** WAL frames a pass may leave behind and still be followed by the short RESTART (~4 MB of 4 KiB pages). */
export const RESTART_BELOW_FRAMES = 1000
/** PASSIVE passes tried before giving up on a RESTART (writes outpaced the checkpoint). */
export const PASSIVE_PASSES = 6

/**
 * The checkpoint thread's code (CommonJS, `eval`): for each `{ id, path }` it opens the file with its
 * own connection (`fileMustExist`: a brain deleted meanwhile is not recreated), checkpoints, closes,
 * and answers `{ id }` or `{ id, error }`.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads')
const Database = require(${JSON.stringify(driver)})
function checkpoint(path) {
  const db = new Database(path, { fileMustExist: true })
  try {
    let previous = db.pragma('wal_checkpoint(PASSIVE)')[0]
    for (let pass = 1; pass < ${PASSIVE_PASSES}; pass++) {
      const now = db.pragma('wal_checkpoint(PASSIVE)')[0]
      if (now.log - previous.log <= ${RESTART_BELOW_FRAMES}) {
        db.pragma('wal_checkpoint(RESTART)')
        break
      }
      previous = now
    }
  } finally {
    db.close()
  }
}
parentPort.on('message', ({ id, path }) => {
  try {
    checkpoint(path)
    parentPort.postMessage({ id })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})
`

interface Pending {
  resolve(): void
  reject(error: Error): void
}

/** The one checkpoint thread of the process, started on first use; null when none runs. */
let thread: { worker: Worker; pending: Map<number, Pending> } | null = null
let nextId = 0

function checkpointThread(): NonNullable<typeof thread> {
  if (thread !== null) return thread
  const worker = new Worker(SOURCE, { eval: true })
  const started = { worker, pending: new Map<number, Pending>() }
  const fail = (error: Error) => {
    if (thread === started) thread = null
    for (const p of started.pending.values()) p.reject(error)
    started.pending.clear()
  }
  worker.on('message', ({ id, error }: { id: number; error?: string }) => {
    const p = started.pending.get(id)
    started.pending.delete(id)
    if (started.pending.size === 0) worker.unref()
    if (error === undefined) p?.resolve()
    else p?.reject(new Error(`checkpoint failed: ${error}`))
  })
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`checkpoint worker exited with code ${code}`)))
  thread = started
  return started
}

/** The checkpoint thread's id while one runs, else null (tests: one thread serves every checkpoint). */
export function checkpointThreadId(): number | null {
  return thread?.worker.threadId ?? null
}

/**
 * Checkpoints the SQLite file at `path` on the process's checkpoint thread, so that copying a large
 * WAL into the database file (and syncing it) does not stop the event loop
 * (https://www.sqlite.org/wal.html#checkpointing). One long-lived thread serves every brain, one
 * checkpoint at a time, each on a connection of its own: starting a thread (and loading
 * better-sqlite3 in it) per checkpoint cost ~50 ms of CPU, once a second while ingestion wrote, about
 * 0.5 ms per ingested LoCoMo turn. The thread is `unref()`ed while it has nothing to do, so it never
 * keeps the process alive; if it dies, pending checkpoints fail and the next one starts another.
 *
 * PASSIVE passes copy what they can without waiting for readers or the writer. One pass is not
 * enough under a steady stream of writes: SQLite starts the WAL over only when a write begins with
 * every frame copied, and the frames written during a pass are not, so the file grew for as long as
 * writes came (1.7 GB beside a 463 MB database after growing a brain to 100,000 entities). So passes
 * repeat while each leaves more than {@link RESTART_BELOW_FRAMES} frames that arrived during it; once
 * one leaves fewer, a RESTART checkpoint copies those few with writers held off, and the next write
 * starts the WAL over (the brain connection's `journal_size_limit` then truncates the file). Writers
 * wait only for those few frames; readers never wait. When writes outpace {@link PASSIVE_PASSES}
 * passes, no RESTART: the next checkpoint tries again.
 */
export function checkpointOnWorker(path: string): Promise<void> {
  const { worker, pending } = checkpointThread()
  const id = nextId++
  return new Promise<void>((resolve, reject) => {
    pending.set(id, { resolve, reject })
    worker.ref()
    worker.postMessage({ id, path })
  })
}
