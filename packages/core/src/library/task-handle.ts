import { z } from 'zod'
import { EngramError, notFound } from '../errors.js'
import { parseInput } from '../invalid-input.js'
import type { Task } from '../model/task.js'
import type { LibraryContext } from './library-context.js'

/** An ingestion task: its id, and the two ways to learn how it is going. */
export interface TaskHandle {
  readonly id: string
  /** The brain the task writes to. */
  readonly brain: string
  /** The task's record now: `status`, `stage`, `counts`, and `result` or `error` once it ended. */
  status(): Promise<Task>
  /**
   * Resolves with the task once it ended `completed` or `partial_failed` (read `result`), woken by the
   * task queue when the task ends (no polling; with storage several processes share, a task another
   * process runs is also read every second). Rejects with an EngramError when the task `failed`
   * (INTERNAL_ERROR; `detail` is the failed task, `message` its error), SERVICE_UNAVAILABLE when
   * `close()` comes first (the task resumes at the next start), or the signal's reason.
   */
  done(options?: { signal?: AbortSignal }): Promise<Task>
}

const doneOptions = z.strictObject({ signal: z.instanceof(AbortSignal).optional() }).optional()

export function taskHandle(ctx: LibraryContext, brain: string, id: string): TaskHandle {
  return {
    id,
    brain,
    status: () =>
      ctx.run('task.status', async () => {
        const task = await ctx.engine.tasks.get(brain, id)
        if (task === null) throw notFound('Task', id)
        return task
      }),
    async done(options) {
      const { signal } = parseInput('task.done', doneOptions, options, ['options']) ?? {}
      const ended = await ctx.run(
        'task.done',
        () => ctx.engine.tasks.settled(brain, id, signal),
        signal,
      )
      if (ended.status !== 'failed') return ended
      throw new EngramError('INTERNAL_ERROR', `Task ${id} failed: ${ended.error ?? 'no reason'}`, {
        detail: ended,
        resolution:
          'Read the task error: fix the input or the engine configuration (embedder, extractor) and ingest again.',
      })
    },
  }
}
