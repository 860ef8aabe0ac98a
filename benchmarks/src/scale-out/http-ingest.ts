/** A task as `GET /tasks/` returns it (CONTRACT.md section 4), the fields a run reads. */
export interface TaskWire {
  readonly id: string
  readonly status: 'queued' | 'started' | 'completed' | 'partial_failed' | 'failed'
  readonly result: { readonly passages?: number; readonly entities?: number } | null
  readonly error: string
  readonly created_at: string
  readonly updated_at: string
}

const TERMINAL = new Set(['completed', 'partial_failed', 'failed'])

export interface Submitted {
  readonly ids: readonly string[]
  /** Wall clock (epoch ms) just before the first POST. */
  readonly startedAt: number
  /** From the first POST until the last 202. */
  readonly submitMs: number
  /** 503 answers (queue saturated) that were retried. */
  readonly retried: number
}

/** Requests in flight while submitting: enough to keep the API process busy, as a batch client would. */
const SUBMIT_CONCURRENCY = 8

/** One document to submit: its text and the brain it goes to. */
export interface Submission {
  readonly brain: string
  readonly text: string
}

/**
 * POSTs every text to `/ingest/` of its brain (CONTRACT.md section 3) as fast as the server accepts them,
 * `SUBMIT_CONCURRENCY` at a time in order, each with a `Task-Identifier` (`<prefix><i>`) so a 503 can be
 * retried without a duplicate task. `ids[i]` is the task of `docs[i]`.
 */
export async function submitTexts(
  url: string,
  token: string,
  docs: readonly Submission[],
  prefix: string,
  skipEnrichment = false,
): Promise<Submitted> {
  const ids: string[] = new Array<string>(docs.length)
  let next = 0
  let retried = 0
  const startedAt = Date.now()
  const t0 = performance.now()
  const submitOne = async (i: number) => {
    for (;;) {
      const response = await fetch(`${url}/ingest/`, {
        method: 'POST',
        headers: {
          servicepat: token,
          'x-brain-id': docs[i]!.brain,
          'content-type': 'application/json',
          'task-identifier': `${prefix}${i}`,
        },
        body: JSON.stringify({ text: docs[i]!.text, skip_enrichment: skipEnrichment }),
      })
      const body = await response.text()
      if (response.status === 202) {
        ids[i] = (JSON.parse(body) as { task_id: string }).task_id
        return
      }
      if (response.status !== 503)
        throw new Error(`POST /ingest/ answered ${response.status}: ${body.slice(0, 500)}`)
      retried++
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  await Promise.all(
    Array.from({ length: Math.min(SUBMIT_CONCURRENCY, docs.length) }, async () => {
      while (next < docs.length) await submitOne(next++)
    }),
  )
  return { ids, startedAt, submitMs: performance.now() - t0, retried }
}

/**
 * Polls `GET /tasks/` of `brain` (pages of 1,000, newest first) until every id is terminal, and returns
 * those tasks. The poll interval does not bound the timing: `ingestThroughput` ends at the last task's
 * `updated_at`.
 */
export async function waitForTasks(
  url: string,
  token: string,
  brain: string,
  ids: readonly string[],
  timeoutMs: number,
  pollMs = 500,
): Promise<TaskWire[]> {
  const wanted = new Set(ids)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const seen = new Map<string, TaskWire>()
    for (let skip = 0; ; skip += 1000) {
      const response = await fetch(`${url}/tasks/?limit=1000&skip=${skip}`, {
        headers: { servicepat: token, 'x-brain-id': brain },
      })
      if (!response.ok)
        throw new Error(`GET /tasks/ answered ${response.status}: ${await response.text()}`)
      const { tasks } = (await response.json()) as { tasks: TaskWire[] }
      for (const task of tasks) if (wanted.has(task.id)) seen.set(task.id, task)
      if (tasks.length < 1000) break
    }
    const done = [...seen.values()].filter((t) => TERMINAL.has(t.status))
    if (done.length === wanted.size) return done
    if (Date.now() > deadline)
      throw new Error(
        `${wanted.size - done.length} of ${wanted.size} tasks not terminal after ${timeoutMs / 1000} s`,
      )
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

/** `waitForTasks` for submissions spread over brains: the tasks of every brain, together. */
export async function waitForSubmitted(
  url: string,
  token: string,
  docs: readonly Submission[],
  submitted: Submitted,
  timeoutMs: number,
): Promise<TaskWire[]> {
  const byBrain = new Map<string, string[]>()
  docs.forEach((doc, i) => {
    const ids = byBrain.get(doc.brain) ?? []
    ids.push(submitted.ids[i]!)
    byBrain.set(doc.brain, ids)
  })
  const tasks: TaskWire[] = []
  for (const [brain, ids] of byBrain)
    tasks.push(...(await waitForTasks(url, token, brain, ids, timeoutMs)))
  return tasks
}

/** Document i goes to brain i mod n: every brain gets an even share, in corpus order. */
export function spreadOverBrains(
  texts: readonly string[],
  brains: readonly string[],
): Submission[] {
  return texts.map((text, i) => ({ brain: brains[i % brains.length]!, text }))
}

export interface IngestThroughput {
  readonly docs: number
  readonly completed: number
  /** `partial_failed` and `failed`. */
  readonly failed: number
  readonly passages: number
  readonly entities: number
  /** From the first POST until the last task's `updated_at` (its terminal state). */
  readonly wallMs: number
  readonly docsPerSec: number
  readonly passagesPerSec: number
  /** The first failure's message, when any task failed. */
  readonly firstError: string | null
}

/** Counts and rates of a finished set of tasks; `startedAt` is the first POST (epoch ms). */
export function ingestThroughput(tasks: readonly TaskWire[], startedAt: number): IngestThroughput {
  const end = Math.max(startedAt, ...tasks.map((t) => Date.parse(t.updated_at)))
  const wallMs = end - startedAt
  const completed = tasks.filter((t) => t.status === 'completed').length
  const failures = tasks.filter((t) => t.status !== 'completed')
  const passages = tasks.reduce((sum, t) => sum + (t.result?.passages ?? 0), 0)
  const entities = tasks.reduce((sum, t) => sum + (t.result?.entities ?? 0), 0)
  const perSec = (n: number) => (wallMs > 0 ? (n / wallMs) * 1000 : 0)
  return {
    docs: tasks.length,
    completed,
    failed: failures.length,
    passages,
    entities,
    wallMs,
    docsPerSec: perSec(tasks.length),
    passagesPerSec: perSec(passages),
    firstError: failures[0] ? failures[0].error || failures[0].status : null,
  }
}
