import type { BrainStore, Page, WriteBatch } from '../contracts/storage-adapter.js'
import type { BatchBuilder } from '../contracts/commit-hooks.js'
import type { TaskKey, TaskLeases } from '../contracts/coordination.js'
import { FairQueue } from '../fair-queue.js'
import { NO_FOREGROUND, type Foreground } from '../foreground.js'
import {
  EngramError,
  isEngramError,
  isStorageUnavailable,
  notFound,
  shuttingDown,
} from '../errors.js'
import { uuidV4 } from '../ids.js'
import type { Logger } from '../logger.js'
import { nowIso } from '../model/common.js'
import {
  canTransition,
  isTerminal,
  type Task,
  type TaskStage,
  type TaskStatus,
} from '../model/task.js'
import type { BackoffOptions } from '../retry-delay.js'
import { retryWhileUnavailable } from './retry-while-unavailable.js'
import type { TaskContext, TaskHandler } from './task-handler.js'

export interface SubmitTaskInput {
  brainId: string
  kind: string
  payload: unknown
  /** Client-chosen id (`Task-Identifier`); the same id again returns the same task. */
  taskId?: string
}

export interface TaskQueue {
  registerHandler(kind: string, handler: TaskHandler): void
  /** Stores the task durably, then schedules it. Throws SERVICE_UNAVAILABLE (503) when saturated or stopping. */
  submit(input: SubmitTaskInput): Promise<{ task: Task; created: boolean }>
  get(brainId: string, taskId: string): Promise<Task | null>
  /**
   * Newest first; with `statuses`, only tasks in one of them (filtered by the store, then by this
   * process's live record of a running task, whose status may be newer than the stored one).
   */
  list(brainId: string, page: Page, statuses?: readonly TaskStatus[]): Promise<Task[]>
  /** Resolves when no task is queued or running in this process (tests, shutdown). */
  idle(): Promise<void>
  /**
   * Resolves with the task's record once its status is terminal (completed, partial_failed, failed),
   * woken by the run that ends it rather than by polling. Rejects with RESOURCE_NOT_FOUND for an
   * unknown task, SERVICE_UNAVAILABLE when the queue stops first (the task resumes at the next start),
   * or `signal`'s reason. With a shared queue another process may run the task: its record is then
   * also read every `pollMs`, the only news of it this process gets.
   */
  settled(brainId: string, taskId: string, signal?: AbortSignal): Promise<Task>
  stats(): { running: number; pending: number; capacity: number }
  /** Whether a task of the brain is queued or running in this process (its store is in use). */
  holds(brainId: string): boolean
}

export interface TaskQueueOptions {
  store(brainId: string): Promise<BrainStore>
  /**
   * Builds and applies a batch in one transaction under the brain's write lock (`Engram.commit`); calls
   * `applied` once it is durable, before index updates.
   */
  commit(brainId: string, batch: WriteBatch | BatchBuilder, applied?: () => void): Promise<void>
  listBrains(): Promise<string[]>
  logger: Logger
  workers: number
  /** Tasks of one brain run at once (at most `workers`). */
  workersPerBrain: number
  /**
   * Tasks waiting or running before a brain's submit may be refused: past it, a brain holding its share
   * (`maxPending` over the brains with tasks) gets 503; a brain under its share is still accepted.
   */
  maxPending: number
  retentionDays: number
  maxAttempts: number
  /**
   * Least time between two durable writes of a running task's stage (default 1000 ms). Readers in this
   * process see every stage at once through the queue; the store gets it at most this often.
   */
  progressWriteMs?: number
  /**
   * The shared queue of an adapter several processes use (postgres): tasks are claimed through leases
   * instead of being queued in this process, and run by whichever process claims them first.
   */
  shared?: { leases: TaskLeases; leaseMs: number; pollMs?: number }
  /** Whether this process runs tasks (default true); false only with `shared` (`ROLE=api`). */
  runTasks?: boolean
  /** Backoff of a task's tries while storage cannot serve (default `STORAGE_RETRY`: 100 ms to 5 s). */
  storageRetry?: BackoffOptions
  /**
   * Requests first (`foreground.ts`): a task asks for a turn before each of its main-thread steps (its
   * start, each stage, its commit). Default: steps never wait.
   */
  foreground?: Foreground
}

export interface EmbeddedTaskQueue extends TaskQueue {
  /**
   * Re-queues every task that was queued or running when the process stopped. Shared queue: starts
   * claiming instead (tasks of a stopped process are claimed again once their lease has run out).
   */
  resume(): Promise<number>
  /** Deletes terminal tasks older than the retention period; returns how many. */
  sweep(): Promise<number>
  /**
   * `sweep()` then `resume()`, as a process starts. Without a shared queue, in one pass over the
   * brains, so each brain's store is opened once (and released once, when no task holds it): a start
   * on thousands of brains opens each file once instead of twice.
   */
  open(): Promise<{ removed: number; resumed: number }>
  /** Stops accepting; waits for running tasks up to `graceMs`, then aborts them (they stay `started` and resume later). */
  stop(graceMs: number): Promise<void>
}

type Entry = TaskKey

/** A `settled` caller: told the task's terminal record, or why it will not get it. */
type Settler = (outcome: { task: Task } | { error: unknown }) => void

/** Thrown by a task's commit when its record is terminal already: another process finished it. */
class FinishedElsewhere extends Error {}

/** What one run of a task keeps across its tries after storage errors (`run`). */
interface RunState {
  /** The attempt number this run counted (written with `started`), once it has. */
  attempts?: number
}

const MAX_ERROR_LENGTH = 2000

/** Moves a task to `status`/`stage`, refusing backwards moves (CONTRACT.md section 4). */
function advance(
  task: Task,
  status: TaskStatus,
  stage: TaskStage,
  patch: Partial<Task> = {},
): Task {
  if (task.status !== status && !canTransition(task.status, status)) {
    throw new Error(`task ${task.id}: illegal status change ${task.status} -> ${status}`)
  }
  return { ...task, ...patch, status, stage, updatedAt: nowIso() }
}

/**
 * The embedded durable task queue: task records live in the storage adapter (written before the
 * client gets its 202), an in-process pool runs at most `workers` at once, and `submit` answers 503
 * when `maxPending` tasks are already waiting or running here.
 *
 * A task is written three times: created (before the 202), started (its attempt counted before any
 * work, so a task that keeps crashing the process is given up), and finished, the last in the same
 * transaction as its records. The stages in between live in memory, where `get` and `list` read them:
 * one autocommit write per stage was most of the queue's cost per short task (about 8 SQLite commits
 * per task instead of 3). A task running longer than `progressWriteMs` still has its stage written now
 * and then, for readers of the store outside this process. A crash loses nothing by this: a task
 * that was running is run again from the start whatever stage its record shows.
 */
export function createTaskQueue(options: TaskQueueOptions): EmbeddedTaskQueue {
  const handlers = new Map<string, TaskHandler>()
  /** Waiting tasks, one lane per brain, started in turn (CONTRACT.md section 1, fairness). */
  const pending = new FairQueue<Entry>()
  const queuedKeys = new Set<string>()
  /** Running tasks per brain (brains with none are absent). */
  const runningOf = new Map<string, number>()
  const foreground = options.foreground ?? NO_FOREGROUND
  const perBrain = Math.max(1, Math.min(options.workers, options.workersPerBrain))
  const controllers = new Map<string, AbortController>()
  /** The current record of each running task (ahead of the stored one by the stages not yet written). */
  const live = new Map<string, Task>()
  const progressWriteMs = options.progressWriteMs ?? 1000
  let running = 0
  let accepting = true
  let idleWaiters: Array<() => void> = []
  const shared = options.shared
  const runTasks = options.runTasks ?? true
  /** Shared queue: the tasks this process holds leases on (waiting here or running). */
  const leased = new Map<string, Entry>()
  let filling = false
  let fillAgain = false
  let unsubscribe: (() => Promise<void>) | null = null
  const timers: NodeJS.Timeout[] = []
  /** Aborted by `stop()`: ends the backoff of runs waiting for storage to come back. */
  const stopping = new AbortController()
  /** Whether the last claim failed: a database outage is logged when it starts and ends, not every poll. */
  let claimFailing = false
  /** `settled` callers per task key, told the terminal record or the queue's stop. */
  const settlers = new Map<string, Set<Settler>>()
  const announcing = new Set<Promise<void>>()

  const key = (entry: Entry) => `${entry.brainId}\u0000${entry.taskId}`

  async function release(entries: Entry[]): Promise<void> {
    if (shared === undefined || entries.length === 0) return
    for (const entry of entries) leased.delete(key(entry))
    await shared.leases
      .release(entries)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'task lease release failed'))
  }

  /** Reads the record of a task that just ran here and hands it to its `settled` callers if terminal. */
  async function announceEnd(entry: Entry): Promise<void> {
    if (!settlers.has(key(entry))) return
    const task = await (await options.store(entry.brainId)).tasks.get(entry.taskId)
    if (task !== null && isTerminal(task.status)) settle(key(entry), { task })
  }

  function settle(k: string, outcome: { task: Task } | { error: unknown }) {
    const waiting = settlers.get(k)
    settlers.delete(k)
    for (const settler of waiting ?? []) settler(outcome)
  }

  function notifyIdle() {
    if (running === 0 && pending.size === 0) {
      const waiters = idleWaiters
      idleWaiters = []
      for (const resolve of waiters) resolve()
    }
  }

  function enqueue(entry: Entry) {
    const k = key(entry)
    if (queuedKeys.has(k)) return
    queuedKeys.add(k)
    pending.push(entry.brainId, entry)
    pump()
  }

  /** Tasks of `brainId` waiting or running here. */
  const held = (brainId: string) => pending.sizeOf(brainId) + (runningOf.get(brainId) ?? 0)
  /**
   * After a scan of every brain (start, retention sweep): a brain with no task here lets its store
   * free what the scan opened (SQLite: the connection, ~0.2 MB each, thousands of brains), reopened
   * on its next use.
   */
  const releaseIfIdle = (brainId: string, store: BrainStore) => {
    if (held(brainId) === 0) store.release?.()
  }

  /** `resume` with a shared queue: starts claiming (leases, poll, heartbeat); returns the tasks claimed. */
  async function claimShared(queue: NonNullable<typeof shared>): Promise<number> {
    if (!runTasks) return 0
    unsubscribe = await queue.leases.subscribe(() => void fill())
    const poll = setInterval(() => void fill(), queue.pollMs ?? 1000)
    const heartbeat = setInterval(() => void renewLeases(), Math.max(100, queue.leaseMs / 3))
    timers.push(poll, heartbeat)
    // The poll is what a process running the shared queue lives for (ROLE=worker serves no HTTP):
    // it keeps the process running until `stop()`, whatever connection drops meanwhile.
    heartbeat.unref()
    await fill()
    return leased.size
  }

  /**
   * One pass over the brains' stores: deletes terminal tasks past the retention period (`sweep`),
   * re-queues the tasks that were queued or running when the process stopped (`resume`, without a
   * shared queue), then lets the store go if no task holds it.
   */
  async function scan(what: { sweep: boolean; resume: boolean }) {
    const cutoff = new Date(Date.now() - options.retentionDays * 86_400_000).toISOString()
    let removed = 0
    let resumed = 0
    for (const brainId of await options.listBrains()) {
      const store = await options.store(brainId)
      if (what.sweep) removed += await store.tasks.deleteEndedBefore(cutoff)
      // A task started too often is given up by `run` when its turn comes, as in the shared queue.
      if (what.resume)
        for (const task of await store.tasks.inStatus(['queued', 'started'])) {
          enqueue({ brainId, taskId: task.id })
          resumed++
        }
      releaseIfIdle(brainId, store)
    }
    return { removed, resumed }
  }

  /**
   * Starts waiting tasks while workers are free, brains in turn, none past `workersPerBrain`: with the
   * default of one less than `workers`, a brain with a backlog never holds every worker, so another
   * brain's task starts as soon as it is submitted.
   */
  function pump() {
    while (accepting && running < options.workers) {
      const entry = pending.shift((brainId) => (runningOf.get(brainId) ?? 0) < perBrain)
      if (entry === undefined) break
      running++
      runningOf.set(entry.brainId, (runningOf.get(entry.brainId) ?? 0) + 1)
      void run(entry).finally(() => {
        running--
        const left = runningOf.get(entry.brainId)! - 1
        if (left === 0) runningOf.delete(entry.brainId)
        else runningOf.set(entry.brainId, left)
        queuedKeys.delete(key(entry))
        leased.delete(key(entry))
        pump()
        notifyIdle()
        void fill()
        const announced = announceEnd(entry)
          .catch((error: unknown) =>
            options.logger.warn({ err: error, taskId: entry.taskId }, 'task end not announced'),
          )
          .finally(() => announcing.delete(announced))
        announcing.add(announced)
      })
    }
  }

  /**
   * Refuses a brain past its share of the queue: only when the queue holds `maxPending` tasks, and then
   * only a brain that holds at least `maxPending` over the brains with tasks (itself included). A
   * flooding brain is refused; any other brain is accepted up to its share.
   */
  async function checkShare(brainId: string): Promise<void> {
    let total = pending.size + running
    let own = held(brainId)
    let brains = new Set([...pending.keys(), ...runningOf.keys()]).size
    // Shared queue: the tasks of every process count (this one may run none: ROLE=api).
    if (shared !== undefined) ({ total, brain: own, brains } = await shared.leases.pending(brainId))
    if (total < options.maxPending) return
    const share = Math.max(1, Math.floor(options.maxPending / (brains + (own === 0 ? 1 : 0))))
    if (own < share) return
    throw new EngramError(
      'SERVICE_UNAVAILABLE',
      `The task queue is saturated: this brain has ${own} tasks waiting or running, its share.`,
      {
        retryAfter: Math.min(60, 1 + Math.ceil(pending.sizeOf(brainId) / (perBrain * 10))),
        resolution: 'Retry after the number of seconds in the Retry-After header, as tasks finish.',
        shed: true,
      },
    )
  }

  /**
   * Runs a task to its end. Storage that cannot serve (`StorageUnavailableError`: a dropped database
   * connection) is not the task's failure: the run starts again from its reads after a backoff, for as
   * long as the queue runs, holding its worker (and, shared, its lease, still renewed); the attempt is
   * counted once. Never rejects: an error that escapes is a bug, logged, and the queue goes on.
   */
  async function run(entry: Entry): Promise<void> {
    const state: RunState = {}
    const at = { brainId: entry.brainId, taskId: entry.taskId }
    try {
      await retryWhileUnavailable(() => runOnce(entry, state), {
        signal: stopping.signal,
        ...(options.storageRetry === undefined ? {} : { backoff: options.storageRetry }),
        onRetry(error, retry, delayMs) {
          // The 1st, 2nd, 4th... retry: a long outage is logged, not one line per try.
          if (Number.isInteger(Math.log2(retry + 1)))
            options.logger.warn(
              { err: error, ...at, retry, delayMs: Math.round(delayMs) },
              'storage unavailable; task retried',
            )
        },
      })
    } catch (error) {
      options.logger.error({ err: error, ...at }, 'task run failed unexpectedly')
    }
  }

  /** Records a task's failure, retrying while storage cannot serve: the verdict must not be lost. */
  async function recordFailure(store: BrainStore, task: Task): Promise<void> {
    await retryWhileUnavailable(() => store.tasks.put(task), {
      signal: stopping.signal,
      ...(options.storageRetry === undefined ? {} : { backoff: options.storageRetry }),
    }).catch((putError: unknown) => {
      options.logger.error({ err: putError, taskId: task.id }, 'could not record task failure')
    })
  }

  /** One try of `run`; throws `StorageUnavailableError` to be tried again. */
  async function runOnce(entry: Entry, state: RunState): Promise<void> {
    await foreground.turn()
    let store: BrainStore
    try {
      store = await options.store(entry.brainId)
    } catch (error) {
      if (isStorageUnavailable(error)) throw error
      options.logger.warn(
        { err: error, brainId: entry.brainId, taskId: entry.taskId },
        'task brain unavailable',
      )
      return
    }
    let task = await store.tasks.get(entry.taskId)
    if (task === null || isTerminal(task.status)) return
    // Checked at the first try only: later tries are this run's, counted already.
    if (state.attempts === undefined && task.attempts >= options.maxAttempts) {
      // Started that many times and never finished: each start ended with its process (a poison task).
      await store.tasks.put(
        advance(task, 'failed', 'failed', {
          error: `Interrupted ${task.attempts} times; giving up.`,
          endedAt: nowIso(),
        }),
      )
      return
    }
    const handler = handlers.get(task.kind)
    if (handler === undefined) {
      task = advance(task, 'failed', 'failed', {
        error: `No handler for task kind '${task.kind}'.`,
        endedAt: nowIso(),
      })
      await store.tasks.put(task)
      return
    }
    const k = key(entry)
    const controller = new AbortController()
    controllers.set(k, controller)
    // Counted before the write: a write that landed though its answer was lost counts no second time.
    state.attempts ??= task.attempts + 1
    task = advance(task, 'started', task.status === 'queued' ? 'source' : task.stage, {
      attempts: Math.max(task.attempts, state.attempts),
    })
    await store.tasks.put(task)
    let writtenAt = performance.now()
    live.set(k, task)
    const ctx: TaskContext = {
      get task() {
        return task!
      },
      store,
      signal: controller.signal,
      logger: options.logger,
      async progress(stage, counts) {
        await foreground.turn()
        task = advance(
          task!,
          'started',
          stage,
          counts === undefined ? {} : { counts: { ...task!.counts, ...counts } },
        )
        live.set(k, task)
        if (performance.now() - writtenAt >= progressWriteMs) {
          writtenAt = performance.now()
          await store.tasks.put(task)
        }
      },
    }
    try {
      const handled = await handler(ctx)
      try {
        if (controller.signal.aborted) return
        // `persisting` covers the wait for the brain's write lock and the locked part of the handler.
        task = advance(task, 'started', 'persisting')
        live.set(k, task)
        await foreground.turn()
        let finished: Task | undefined
        await options.commit(
          entry.brainId,
          async () => {
            // Stopped while waiting for the brain (or meanwhile): commit nothing, the task runs again at
            // the next start.
            if (controller.signal.aborted) throw new Error('task aborted')
            // Under the brain's write lock, shared by every process: a task that ran twice (its lease
            // ran out while it was still running here) commits once, whichever finishes first.
            const stored = await store.tasks.get(entry.taskId)
            if (stored !== null && isTerminal(stored.status)) throw new FinishedElsewhere()
            const outcome = typeof handled === 'function' ? await handled() : handled
            if (controller.signal.aborted) throw new Error('task aborted')
            // The finished record goes into the batch's own transaction: records and status land together.
            finished = advance(task!, outcome.status, 'completed', {
              result: outcome.result,
              endedAt: nowIso(),
            })
            return { ...(outcome.batch ?? {}), task: finished }
          },
          () => {
            // Durable now; in-memory indexes follow (CONTRACT.md section 4 reports it as `indexing`).
            task = { ...task!, stage: 'indexing', updatedAt: finished!.updatedAt }
            live.set(k, task)
          },
        )
        task = finished!
      } finally {
        // Whatever became of the commit (done, refused, never reached), what the handler holds goes.
        if (typeof handled === 'function') handled.dispose?.()
      }
    } catch (error) {
      if (controller.signal.aborted) return
      if (error instanceof FinishedElsewhere) {
        options.logger.info(
          { brainId: entry.brainId, taskId: entry.taskId },
          'task finished by another process; result discarded',
        )
        return
      }
      // Storage could not serve: not the task's failure; `run` tries again from the reads.
      if (isStorageUnavailable(error)) throw error
      const message = isEngramError(error) || error instanceof Error ? error.message : String(error)
      options.logger.warn(
        { err: error, brainId: entry.brainId, taskId: entry.taskId },
        'task failed',
      )
      task = advance(task, 'failed', 'failed', {
        error: message.slice(0, MAX_ERROR_LENGTH),
        endedAt: nowIso(),
      })
      await recordFailure(store, task)
    } finally {
      controllers.delete(k)
      live.delete(k)
    }
  }

  /**
   * Shared queue: claims as many runnable tasks as there are idle workers here, none of a brain that
   * already runs `workersPerBrain` here, and queues them in this process. Called when a task is
   * announced, when one ends here, and on a timer (announcements are best effort).
   */
  async function fill(): Promise<void> {
    if (shared === undefined || !runTasks) return
    if (filling) {
      fillAgain = true
      return
    }
    filling = true
    try {
      do {
        fillAgain = false
        const free = options.workers - running - pending.size
        if (!accepting || free <= 0) break
        const busy = [...runningOf].filter(([, n]) => n >= perBrain).map(([brainId]) => brainId)
        const claimed = await shared.leases.claim(free, shared.leaseMs, busy)
        if (claimFailing) options.logger.info({}, 'task claims resumed')
        claimFailing = false
        for (const entry of claimed) {
          leased.set(key(entry), entry)
          enqueue(entry)
        }
        if (claimed.length === free) fillAgain = true
      } while (fillAgain)
    } catch (error) {
      // The next announcement or poll claims again; an outage is logged once, not every second.
      if (!claimFailing)
        options.logger.warn({ err: error }, 'task claim failed; retrying every poll')
      claimFailing = true
    } finally {
      filling = false
    }
  }

  /** Shared queue: keeps this process's leases alive while their tasks wait or run here. */
  async function renewLeases(): Promise<void> {
    if (shared === undefined || leased.size === 0) return
    await shared.leases
      .renew([...leased.values()], shared.leaseMs)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'task lease renewal failed'))
  }

  return {
    registerHandler(kind, handler) {
      if (handlers.has(kind))
        throw new Error(`A handler for task kind '${kind}' is already registered.`)
      handlers.set(kind, handler)
    },

    async submit(input: SubmitTaskInput) {
      const store = await options.store(input.brainId)
      if (input.taskId !== undefined) {
        const existing = await store.tasks.get(input.taskId)
        if (existing !== null) return { task: existing, created: false }
      }
      if (!accepting) throw shuttingDown()
      await checkShare(input.brainId)
      if (!handlers.has(input.kind)) throw new Error(`No handler for task kind '${input.kind}'.`)
      const now = nowIso()
      const result = await store.tasks.create({
        id: input.taskId ?? uuidV4(),
        brainId: input.brainId,
        kind: input.kind,
        status: 'queued',
        stage: 'queued',
        counts: {},
        result: null,
        error: null,
        payload: input.payload,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
        endedAt: null,
      })
      if (result.created) {
        // Shared queue: the adapter announces it to every process; this one claims it if it is idle.
        if (shared === undefined) enqueue({ brainId: input.brainId, taskId: result.task.id })
        else void fill()
      }
      return result
    },

    async get(brainId, taskId) {
      const store = await options.store(brainId)
      return live.get(key({ brainId, taskId })) ?? store.tasks.get(taskId)
    },

    async list(brainId, page, statuses) {
      const tasks = await (await options.store(brainId)).tasks.list(page, statuses)
      const current = tasks.map((t) => live.get(key({ brainId, taskId: t.id })) ?? t)
      return statuses === undefined ? current : current.filter((t) => statuses.includes(t.status))
    },

    idle() {
      if (running === 0 && pending.size === 0) return Promise.resolve()
      return new Promise((resolve) => idleWaiters.push(resolve))
    },

    stats() {
      return { running, pending: pending.size, capacity: options.maxPending }
    },

    holds: (brainId) => held(brainId) > 0,

    settled(brainId, taskId, signal) {
      const k = key({ brainId, taskId })
      return new Promise<Task>((resolve, reject) => {
        let poll: NodeJS.Timeout | undefined
        const settler: Settler = (outcome) => {
          settlers.get(k)?.delete(settler)
          if (settlers.get(k)?.size === 0) settlers.delete(k)
          clearInterval(poll)
          signal?.removeEventListener('abort', onAbort)
          if ('task' in outcome) resolve(outcome.task)
          else reject(outcome.error)
        }
        const onAbort = () => settler({ error: signal!.reason })
        if (signal?.aborted) return onAbort()
        signal?.addEventListener('abort', onAbort, { once: true })
        if (!settlers.has(k)) settlers.set(k, new Set())
        settlers.get(k)!.add(settler)
        // Registered first, then read: a task that ended before the registration is terminal here.
        // One still held here may be terminal in storage while its indexes are being updated: its
        // run's end announces it, once what it wrote is searchable.
        const check = () =>
          void options
            .store(brainId)
            .then((store) => store.tasks.get(taskId))
            .then(
              (task) => {
                if (task === null) settler({ error: notFound('Task', taskId) })
                else if (isTerminal(task.status) && !queuedKeys.has(k)) settler({ task })
              },
              (error: unknown) => settler({ error }),
            )
        check()
        if (shared !== undefined) poll = setInterval(check, shared.pollMs ?? 1000)
      })
    },

    async resume() {
      return shared === undefined
        ? (await scan({ sweep: false, resume: true })).resumed
        : claimShared(shared)
    },

    async sweep() {
      return (await scan({ sweep: true, resume: false })).removed
    },

    async open() {
      if (shared === undefined) return scan({ sweep: true, resume: true })
      const { removed } = await scan({ sweep: true, resume: false })
      return { removed, resumed: await claimShared(shared) }
    },

    async stop(graceMs) {
      accepting = false
      stopping.abort()
      for (const timer of timers.splice(0)) clearInterval(timer)
      await unsubscribe?.()
      unsubscribe = null
      // Claimed here and not started: another process may take them at once.
      const waiting = pending.clear()
      queuedKeys.clear()
      await release(waiting)
      if (running > 0) {
        const drained = new Promise<void>((resolve) => idleWaiters.push(resolve))
        const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref())
        await Promise.race([drained, timer])
      }
      for (const controller of controllers.values()) controller.abort()
      // Aborted mid-run: they stay `started`, and the next process to claim them runs them again.
      await release([...leased.values()])
      // Tasks that ended within the grace period have been announced; the rest will not end here.
      await Promise.all(announcing)
      const stopped = new EngramError(
        'SERVICE_UNAVAILABLE',
        'The engine stopped before the task ended; it resumes at the next start.',
        { shed: true },
      )
      for (const k of [...settlers.keys()]) settle(k, { error: stopped })
    },
  }
}
