import { EngramError } from './engram-error.js'
import type { components } from './generated/engram-api.js'
import { sleep } from './retrying-fetch.js'

export type Task = components['schemas']['Task']

/** The statuses after which a task never changes again. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<Task['status']> = new Set([
  'completed',
  'partial_failed',
  'failed',
])

export interface WaitForTaskOptions {
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal
  /** Pause between polls in ms (default 250, growing by half up to 2,000). */
  intervalMs?: number
  /** Gives up after this many ms with an `EngramError` of code `TIMEOUT` (default: no limit). */
  timeoutMs?: number
  /** Called with every task read, for progress displays (`stage`, `counts`). */
  onProgress?: (task: Task) => void
}

/**
 * Polls a task until it reaches a terminal status and resolves with it, whichever that status is: a
 * `failed` task is an answer, not an error (read `task.error`). Rejects when the signal aborts, on
 * `timeoutMs`, or when a poll fails.
 */
export async function waitForTask(
  read: (signal: AbortSignal | undefined) => Promise<Task>,
  options: WaitForTaskOptions = {},
): Promise<Task> {
  const started = Date.now()
  let interval = options.intervalMs ?? 250
  for (;;) {
    options.signal?.throwIfAborted()
    const task = await read(options.signal)
    options.onProgress?.(task)
    if (TERMINAL_TASK_STATUSES.has(task.status)) return task
    if (options.timeoutMs !== undefined && Date.now() - started + interval > options.timeoutMs) {
      throw new EngramError({
        status: 0,
        code: 'TIMEOUT',
        message: `task ${task.task_id} still ${task.status} after ${options.timeoutMs} ms`,
        resolution:
          'Wait longer (timeoutMs), or poll GET /tasks/{task_id} later: the task goes on.',
      })
    }
    await sleep(interval, options.signal)
    interval = Math.min(2_000, interval * 1.5)
  }
}
