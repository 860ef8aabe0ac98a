import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { STARTUP_PARAGRAPHS } from './startup-corpus.js'
import { STARTUP_TOKEN, startTimedServer, type StartupEmbedder } from './startup-server.js'

const TERMINAL = new Set(['completed', 'partial_failed', 'failed'])
/** Between two reads of a task's state: GET /tasks/{id} is the only completion signal the REST API has. */
const TASK_POLL_MS = 50
/** A guard against a task that never ends; seeding takes seconds. */
const SEED_LIMIT_MS = 300_000

interface TaskState {
  readonly status: string
  readonly error: string | null
}

async function api(url: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    ...init,
    headers: { ServicePAT: STARTUP_TOKEN, 'Content-Type': 'application/json' },
  })
  const body: unknown = await res.json()
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`)
  return body
}

/** Sends every paragraph and waits until each task is terminal; throws unless all completed. */
async function ingestCorpus(url: string): Promise<void> {
  const ids: string[] = []
  for (const text of STARTUP_PARAGRAPHS) {
    const accepted = (await api(url, '/ingest/', {
      method: 'POST',
      body: JSON.stringify({ text }),
    })) as { task_id: string }
    ids.push(accepted.task_id)
  }
  const deadline = Date.now() + SEED_LIMIT_MS
  for (const id of ids) {
    for (;;) {
      const task = (await api(url, `/tasks/${encodeURIComponent(id)}`)) as TaskState
      if (TERMINAL.has(task.status)) {
        if (task.status !== 'completed')
          throw new Error(`seeding task ${id} ended ${task.status}: ${task.error ?? ''}`)
        break
      }
      if (Date.now() > deadline) throw new Error(`seeding task ${id} still ${task.status}`)
      await new Promise((resolve) => setTimeout(resolve, TASK_POLL_MS))
    }
  }
}

/**
 * A data directory holding the start-up corpus, written by the real server with `embedder` (so a use-lite
 * directory has the passages' vectors): a server is started on a new temporary directory, every paragraph
 * sent with `POST /ingest/`, each task read with `GET /tasks/{id}` until it is terminal, and the server stopped
 * with SIGTERM (so it closes SQLite and saves its index snapshots as a real restart finds them). Throws
 * unless every task completed. Returns the directory; the runs copy it and never write to it.
 */
export async function seedStartupDir(cli: string, embedder: StartupEmbedder): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `engram-startup-seed-${embedder}-`))
  const server = await startTimedServer(cli, embedder, dir)
  let failure: unknown = null
  await ingestCorpus(server.url).catch((error: unknown) => (failure = error))
  const stopped = await server.stop()
  if (failure === null && stopped.code !== 0)
    failure = new Error(
      `seeding server exited ${stopped.code ?? stopped.signal}:\n${server.output()}`,
    )
  if (failure !== null) {
    rmSync(dir, { recursive: true, force: true })
    throw failure // the task's error rather than the stop's, when both failed
  }
  return dir
}
