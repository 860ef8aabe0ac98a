import type { Task } from '@engram/client'

/** The statuses of a task (CONTRACT.md section 4), in the order they are reached. */
export const TASK_STATUSES = ['queued', 'started', 'completed', 'partial_failed', 'failed'] as const

/** What the task list is filtered by: a status (`''` for all) and text in the id, source or error. */
export interface TaskFilter {
  status: string
  text: string
}

/** The source a task wrote to (`result.source_id`, once it has ended), or `''`. */
export function taskSource(task: Pick<Task, 'result'>): string {
  const id = (task.result as Record<string, unknown> | null)?.source_id
  return typeof id === 'string' ? id : ''
}

/**
 * The tasks that pass a filter, in the server's order (newest first). `GET /tasks/` takes no status
 * filter, so the console filters the pages it has read.
 */
export function filterTasks<T extends Pick<Task, 'task_id' | 'status' | 'result' | 'error'>>(
  tasks: readonly T[],
  filter: TaskFilter,
): T[] {
  const text = filter.text.trim().toLowerCase()
  return tasks.filter(
    (t) =>
      (filter.status === '' || t.status === filter.status) &&
      (text === '' ||
        t.task_id.toLowerCase().includes(text) ||
        taskSource(t).toLowerCase().includes(text) ||
        t.error.toLowerCase().includes(text)),
  )
}

/** How many of the tasks are in each status, statuses with none left out. */
export function statusCounts(tasks: readonly Pick<Task, 'status'>[]): [string, number][] {
  return TASK_STATUSES.map(
    (s) => [s, tasks.filter((t) => t.status === s).length] as [string, number],
  ).filter(([, n]) => n > 0)
}

/** A task's run time, `updated_at - created_at`, for a line: `0.8 s`, `2 min 5 s`. */
export function taskDuration(task: Pick<Task, 'created_at' | 'updated_at'>): string {
  const ms = Date.parse(task.updated_at) - Date.parse(task.created_at)
  if (!Number.isFinite(ms) || ms < 0) return ''
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}
