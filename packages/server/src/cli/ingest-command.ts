import { readFile } from 'node:fs/promises'
import { basename, normalize, sep } from 'node:path'
import { TERMINAL_TASK_STATUSES, type EngramClient, type Task } from '@engram/client'

export interface IngestCommandOptions {
  client: EngramClient
  files: string[]
  /** `meta_keys` sent with every file. */
  metaKeys?: Record<string, unknown>
  /** The source of the one file (`--source-id`); default: each file's path as given. */
  sourceId?: string
  /** Wait for every task to end, with a progress bar. Default true. */
  wait?: boolean
  /** Milliseconds between task polls. */
  pollMs?: number
  /** Progress and results go here (stderr for the bar, stdout for the summary, in the CLI). */
  progress: (line: string, final: boolean) => void
  out: (line: string) => void
}

/** A fixed-width bar, e.g. `[########------------] 4/10`. */
export function progressBar(done: number, total: number, width = 20): string {
  const filled = total === 0 ? width : Math.round((done / total) * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`
}

/**
 * The source id of a file the command line names (docs/client.md, "The CLI"): its path as given,
 * normalised (`./notes.md` is `notes.md`, `/` as the separator), so running `engram ingest notes.md`
 * again from the same directory replaces that source's content instead of adding a copy. The path,
 * not the absolute one: the same repository checked out elsewhere (a CI runner) names the same sources.
 */
export function fileSourceId(file: string): string {
  return normalize(file).split(sep).join('/')
}

/**
 * `engram ingest <files...>`: one `POST /ingest/file` per file (one task each), then polls
 * `/tasks/{id}` until every task ends. Returns the exit code: 0 when every task completed, 1 when a
 * file was refused or a task did not complete.
 */
export async function ingestCommand(options: IngestCommandOptions): Promise<number> {
  const submitted: { file: string; taskId: string; sourceId: string }[] = []
  let refused = 0
  for (const file of options.files) {
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch (error) {
      options.out(`${file}: cannot read (${error instanceof Error ? error.message : error})`)
      refused++
      continue
    }
    try {
      const accepted = await options.client.ingestFile({
        file: new Blob([bytes]),
        filename: basename(file),
        ...(options.metaKeys ? { metaKeys: options.metaKeys } : {}),
        sourceId: options.sourceId ?? fileSourceId(file),
      })
      submitted.push({ file, taskId: accepted.task_id, sourceId: accepted.source_id })
    } catch (error) {
      options.out(`${file}: refused (${error instanceof Error ? error.message : error})`)
      refused++
    }
  }
  if (options.wait === false) {
    for (const s of submitted)
      options.out(`${s.file}: task ${s.taskId} accepted (source ${s.sourceId})`)
    return refused > 0 ? 1 : 0
  }
  const ended = new Map<string, Task>()
  options.progress(`${progressBar(0, submitted.length)} tasks`, submitted.length === 0)
  while (ended.size < submitted.length) {
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500))
    for (const s of submitted) {
      if (ended.has(s.taskId)) continue
      const task = await options.client.GET('/tasks/{task_id}', {
        params: { path: { task_id: s.taskId } },
      })
      if (TERMINAL_TASK_STATUSES.has(task.status)) ended.set(s.taskId, task)
    }
    options.progress(
      `${progressBar(ended.size, submitted.length)} tasks`,
      ended.size === submitted.length,
    )
  }
  let incomplete = 0
  for (const s of submitted) {
    const task = ended.get(s.taskId)!
    if (task.status !== 'completed') incomplete++
    const counts = task.result
      ? Object.entries(task.result)
          .filter(([, v]) => typeof v === 'number')
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')
      : ''
    options.out(
      `${s.file}: ${task.status}${counts ? ` (${counts})` : ''}${task.error ? `: ${task.error}` : ''}`,
    )
  }
  return refused + incomplete > 0 ? 1 : 0
}
