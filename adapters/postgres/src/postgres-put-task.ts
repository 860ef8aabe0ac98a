import type { Task } from '@engram/core'
import type { Queryable } from './postgres-sql.js'

/**
 * Upserts one task (as `apply` and `tasks.put` write it). A finished task is never written over: with
 * several processes, one whose lease ran out while it still ran the task must not turn another's
 * `completed` back into `started`.
 */
export async function putTask(db: Queryable, brainId: string, t: Task): Promise<void> {
  await db.query(
    `INSERT INTO tasks (brain_id, id, status, created_at, ended_at, data) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (brain_id, id) DO UPDATE SET status = excluded.status, created_at = excluded.created_at,
       ended_at = excluded.ended_at, data = excluded.data
     WHERE tasks.status NOT IN ('completed', 'partial_failed', 'failed')`,
    [brainId, t.id, t.status, t.createdAt, t.endedAt, JSON.stringify(t)],
  )
}
