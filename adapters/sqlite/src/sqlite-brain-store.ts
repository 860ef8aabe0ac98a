import {
  loopYielder,
  normalizeEntityName,
  vectorToBytes,
  type BrainStats,
  type BrainStore,
  type Entity,
  type Task,
  type WriteBatch,
} from '@engram/core'
import { statementCache, type SqliteDatabaseLike } from './sqlite-database-like.js'
import { sqliteRepositories } from './sqlite-repositories.js'

export interface SqliteBrainStoreOptions {
  /** Records of a batch above which `apply` runs in slices (default 5,000; a text of a few megabytes is 100,000+). */
  slicedAbove?: number
  /** Work between two event-loop turns of a sliced `apply` (default 10 ms). */
  sliceMs?: number
  /**
   * Runs a WAL checkpoint of this database on another thread. When given, the COMMIT of a sliced
   * `apply` leaves the checkpoint to it instead of running it on this thread.
   */
  checkpointElsewhere?: () => Promise<void>
  /** `BrainStore.snapshotDir`: where the engine keeps this brain's index snapshot files (default none). */
  snapshotDir?: string
  /**
   * Closes the connection while the brain is cold (`BrainStore.release`; see
   * `sqlite-reopenable-database.ts`); not called during a sliced transaction or its checkpoint.
   */
  release?: () => void
}

function recordCount(batch: WriteBatch): number {
  let n = 0
  for (const list of [
    batch.passages,
    batch.entities,
    batch.relationships,
    batch.observations,
    batch.structured,
    batch.changelog,
    batch.vectors,
    batch.deleteEntities,
    batch.deleteRelationships,
    batch.deleteVectors,
  ])
    n += list?.length ?? 0
  return n
}

/** One brain's store over its own SQLite file. Statements are prepared once and reused. */
export function createSqliteBrainStore(
  brainId: string,
  db: SqliteDatabaseLike,
  options: SqliteBrainStoreOptions = {},
): BrainStore {
  const slicedAbove = options.slicedAbove ?? 5000
  const sliceMs = options.sliceMs ?? 10
  const stmt = statementCache(db)

  function putEntity(e: Entity) {
    stmt(
      'INSERT INTO entities (uuid, name, last_updated, data) VALUES (?, ?, ?, ?) ON CONFLICT(uuid) DO UPDATE SET name = excluded.name, last_updated = excluded.last_updated, data = excluded.data',
    ).run(e.uuid, e.name, e.lastUpdated, JSON.stringify(e))
    stmt('DELETE FROM entity_names WHERE uuid = ?').run(e.uuid)
    stmt('DELETE FROM entity_labels WHERE uuid = ?').run(e.uuid)
    for (const n of new Set([e.name, ...e.aliases].map(normalizeEntityName))) {
      stmt('INSERT OR IGNORE INTO entity_names (norm, uuid) VALUES (?, ?)').run(n, e.uuid)
    }
    for (const label of new Set(e.labels))
      stmt('INSERT OR IGNORE INTO entity_labels (uuid, label) VALUES (?, ?)').run(e.uuid, label)
  }

  /** The batch's writes, one record per step, so that a large batch can be applied in slices. */
  function* writes(batch: WriteBatch): Generator<void, void, undefined> {
    for (const p of batch.passages ?? []) {
      stmt(
        'INSERT INTO passages (id, source, inserted_at, data) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET source = excluded.source, inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(p.id, p.source, p.insertedAt, JSON.stringify(p))
      yield
    }
    for (const e of batch.entities ?? []) {
      putEntity(e)
      yield
    }
    for (const r of batch.relationships ?? []) {
      stmt(
        'INSERT INTO relationships (uuid, subject_uuid, object_uuid, name, last_updated, data) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(uuid) DO UPDATE SET subject_uuid = excluded.subject_uuid, object_uuid = excluded.object_uuid, name = excluded.name, last_updated = excluded.last_updated, data = excluded.data',
      ).run(r.uuid, r.subjectUuid, r.objectUuid, r.name, r.lastUpdated, JSON.stringify(r))
      yield
    }
    for (const o of batch.observations ?? []) {
      stmt(
        'INSERT INTO observations (id, resource_id, inserted_at, data) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET resource_id = excluded.resource_id, inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(o.id, o.resourceId, o.insertedAt, JSON.stringify(o))
      yield
    }
    for (const s of batch.structured ?? []) {
      stmt(
        'INSERT INTO structured (id, inserted_at, data) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(s.id, s.insertedAt, JSON.stringify(s))
      yield
    }
    for (const c of batch.changelog ?? []) {
      stmt('INSERT OR IGNORE INTO changelog (id, type, data) VALUES (?, ?, ?)').run(
        c.id,
        c.type,
        JSON.stringify(c),
      )
      yield
    }
    for (const v of batch.vectors ?? []) {
      stmt(
        'INSERT INTO vectors (space, id, vector) VALUES (?, ?, ?) ON CONFLICT(space, id) DO UPDATE SET vector = excluded.vector',
      ).run(v.space, v.id, vectorToBytes(v.vector))
      yield
    }
    for (const uuid of batch.deleteEntities ?? []) {
      stmt('DELETE FROM entities WHERE uuid = ?').run(uuid)
      stmt('DELETE FROM entity_names WHERE uuid = ?').run(uuid)
      stmt('DELETE FROM entity_labels WHERE uuid = ?').run(uuid)
      yield
    }
    for (const uuid of batch.deleteRelationships ?? []) {
      stmt('DELETE FROM relationships WHERE uuid = ?').run(uuid)
      yield
    }
    for (const v of batch.deleteVectors ?? []) {
      stmt('DELETE FROM vectors WHERE space = ? AND id = ?').run(v.space, v.id)
      yield
    }
    if (batch.task !== undefined) putTask(batch.task)
  }

  const applyTx = db.transaction((batch: WriteBatch) => {
    const steps = writes(batch)
    while (!steps.next().done);
  })

  /**
   * A large batch in one transaction too (BEGIN IMMEDIATE ... COMMIT), but with an event-loop turn
   * every ~10 ms: the few seconds a multi-megabyte text takes to write would otherwise stop the whole
   * server. Atomicity is SQLite's: a crash before COMMIT leaves none of it.
   */
  async function applySliced(batch: WriteBatch): Promise<void> {
    db.exec('BEGIN IMMEDIATE')
    try {
      const steps = writes(batch)
      const pause = loopYielder(sliceMs)
      while (!steps.next().done) {
        const turn = pause()
        if (turn !== undefined) await turn
      }
      commitLarge()
    } catch (error) {
      try {
        db.exec('ROLLBACK')
      } catch {
        // SQLite already rolled back (some errors end the transaction themselves).
      }
      throw error
    }
  }

  /** Checkpoints handed to another thread and not finished yet; the WAL auto-checkpoint is off meanwhile. */
  let checkpointing = 0
  let autoCheckpoint = 1000

  /**
   * COMMIT of a sliced transaction. The COMMIT that pushes the WAL past the auto-checkpoint size also
   * copies the whole WAL into the database file and syncs it, synchronously: after a multi-megabyte
   * text (and its vectors) that is hundreds of megabytes and one to two seconds of a stopped server.
   * With `checkpointElsewhere`, auto-checkpoints are off from this COMMIT until the other thread has
   * checkpointed (a checkpoint by another connection is ordinary SQLite WAL operation: it copies
   * committed frames only and never blocks this connection's readers or writer).
   */
  function commitLarge() {
    const elsewhere = options.checkpointElsewhere
    if (elsewhere === undefined) {
      db.exec('COMMIT')
      return
    }
    if (checkpointing === 0)
      autoCheckpoint = Number(db.pragma('wal_autocheckpoint', { simple: true }))
    checkpointing++
    db.pragma('wal_autocheckpoint = 0')
    try {
      db.exec('COMMIT')
    } finally {
      void elsewhere()
        .catch(() => {
          // Nothing lost: the next auto-checkpoint on this thread copies what this one did not.
        })
        .finally(() => {
          if (--checkpointing === 0) {
            try {
              db.pragma(`wal_autocheckpoint = ${autoCheckpoint}`)
            } catch {
              // The database was closed meanwhile (brain deleted or adapter closed).
            }
          }
        })
    }
  }

  /**
   * Settles (never rejects) when the sliced transaction in progress ends; null when none is. Every
   * other call on this connection waits for it: a write would join the open transaction (a task
   * record acknowledged with 202 would then depend on its COMMIT), a read would see its uncommitted
   * rows. Calls on other brains, which have their own connections, do not wait.
   */
  let sliced: Promise<void> | null = null

  function putTask(t: Task) {
    stmt(
      'INSERT INTO tasks (id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, created_at = excluded.created_at, ended_at = excluded.ended_at, data = excluded.data',
    ).run(t.id, t.status, t.createdAt, t.endedAt, JSON.stringify(t))
  }

  const store: BrainStore = {
    brainId,
    snapshotDir: options.snapshotDir ?? null,
    async apply(batch) {
      if (recordCount(batch) <= slicedAbove) return applyTx(batch)
      const done = applySliced(batch)
      const release = () => {
        sliced = null
      }
      sliced = done.then(release, release)
      return done
    },
    ...sqliteRepositories(stmt, putTask),
    async stats(): Promise<BrainStats> {
      const n = (table: string) =>
        (stmt(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      return {
        passages: n('passages'),
        entities: n('entities'),
        relationships: n('relationships'),
        observations: n('observations'),
        structured: n('structured'),
        changelog: n('changelog'),
        tasks: n('tasks'),
        vectors: n('vectors'),
      }
    },
  }

  // Every method, of the store and of its repositories, waits while a sliced transaction is open
  // (see `sliced`); otherwise it runs at once.
  const guard = (target: Record<string, unknown>) => {
    for (const [name, member] of Object.entries(target)) {
      if (typeof member === 'function') {
        const call = member as (...args: unknown[]) => Promise<unknown>
        target[name] = (...args: unknown[]) =>
          sliced === null ? call(...args) : waitThen(call, args)
      } else if (typeof member === 'object' && member !== null) {
        guard(member as Record<string, unknown>)
      }
    }
  }
  guard(store as unknown as Record<string, unknown>)
  // Not guarded: it never waits. A sliced transaction keeps the connection, as does a checkpoint that
  // will restore this connection's auto-checkpoint setting when it ends.
  const release = options.release
  if (release !== undefined)
    store.release = () => {
      if (sliced === null && checkpointing === 0) release()
    }
  async function waitThen(call: (...args: unknown[]) => Promise<unknown>, args: unknown[]) {
    while (sliced !== null) await sliced
    return call(...args)
  }
  return store
}
