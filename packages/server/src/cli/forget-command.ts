import type { EngramClient } from '@engram/client'

export interface ForgetCommandOptions {
  client: EngramClient
  sourceId: string
  /** Wait for the forget task to end and print what it removed. */
  wait?: boolean
  /** Milliseconds between task polls (default 250, growing). */
  pollMs?: number
  out: (line: string) => void
}

/**
 * `engram forget <source_id>`: `DELETE /sources/{source_id}` (a task, docs/forgetting.md). Returns
 * the exit code: 0 once the forget is accepted (with `wait`: completed), 1 when the task failed.
 * An unknown source is the server's 404, thrown as the client's EngramError.
 */
export async function forgetCommand(options: ForgetCommandOptions): Promise<number> {
  const accepted = await options.client.sources.forget(options.sourceId)
  if (!options.wait) {
    options.out(`${accepted.source_id}: forget task ${accepted.task_id} accepted`)
    return 0
  }
  const task = await options.client.waitForTask(accepted.task_id, {
    ...(options.pollMs !== undefined ? { intervalMs: options.pollMs } : {}),
  })
  const counts = Object.entries(task.result ?? {})
    .filter(([, v]) => typeof v === 'number' && v > 0)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')
  const what = task.status === 'completed' ? 'forgotten' : task.status
  options.out(
    `${accepted.source_id}: ${what}${counts ? ` (${counts})` : ''}${task.error ? `: ${task.error}` : ''}`,
  )
  return task.status === 'completed' ? 0 : 1
}
