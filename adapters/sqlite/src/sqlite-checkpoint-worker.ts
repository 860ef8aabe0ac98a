import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

const driver = createRequire(import.meta.url).resolve('better-sqlite3')

/**
 * Runs `PRAGMA wal_checkpoint(PASSIVE)` on the SQLite file at `path` from a short-lived worker thread
 * with its own better-sqlite3 connection, so that copying a large WAL into the database file (and
 * syncing it) does not stop the event loop. PASSIVE copies what it can without waiting for readers or
 * the writer; several connections checkpointing one WAL file is ordinary SQLite operation
 * (https://www.sqlite.org/wal.html#checkpointing). `fileMustExist`: a brain deleted meanwhile is not
 * recreated.
 */
export function checkpointOnWorker(path: string): Promise<void> {
  const source = [
    `const Database = require(${JSON.stringify(driver)})`,
    `const db = new Database(${JSON.stringify(path)}, { fileMustExist: true })`,
    `try { db.pragma('wal_checkpoint(PASSIVE)') } finally { db.close() }`,
  ].join('\n')
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true })
    worker.once('error', reject)
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`checkpoint worker exited with code ${code}`)),
    )
  })
}
