import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

const driver = createRequire(import.meta.url).resolve('better-sqlite3')

/** WAL frames a pass may leave behind and still be followed by the short RESTART (~4 MB of 4 KiB pages). */
export const RESTART_BELOW_FRAMES = 1000
/** PASSIVE passes tried before giving up on a RESTART (writes outpaced the checkpoint). */
export const PASSIVE_PASSES = 6

/**
 * Checkpoints the SQLite file at `path` from a short-lived worker thread with its own better-sqlite3
 * connection, so that copying a large WAL into the database file (and syncing it) does not stop the
 * event loop (https://www.sqlite.org/wal.html#checkpointing). `fileMustExist`: a brain deleted
 * meanwhile is not recreated.
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
  const source = [
    `const Database = require(${JSON.stringify(driver)})`,
    `const db = new Database(${JSON.stringify(path)}, { fileMustExist: true })`,
    'try {',
    `  let previous = db.pragma('wal_checkpoint(PASSIVE)')[0]`,
    `  for (let pass = 1; pass < ${PASSIVE_PASSES}; pass++) {`,
    `    const now = db.pragma('wal_checkpoint(PASSIVE)')[0]`,
    `    if (now.log - previous.log <= ${RESTART_BELOW_FRAMES}) {`,
    `      db.pragma('wal_checkpoint(RESTART)')`,
    '      break',
    '    }',
    '    previous = now',
    '  }',
    '} finally { db.close() }',
  ].join('\n')
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true })
    worker.once('error', reject)
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`checkpoint worker exited with code ${code}`)),
    )
  })
}
