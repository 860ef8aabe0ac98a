import { createBrainService, type BrainService } from '../brain/brain-service.js'
import { generateToken, hashToken, tokenLast4 } from '../brain/tokens.js'
import type { BatchBuilder, BeforeCommitHook, CommitListener } from '../contracts/commit-hooks.js'
import type { BrainStore, StorageAdapter, WriteBatch } from '../contracts/storage-adapter.js'
import { EngramError, isStorageUnavailable } from '../errors.js'
import { createGraphWriter, type GraphWriter } from '../model-writes/graph-writer.js'
import { silentLogger, type Logger } from '../logger.js'
import { nowIso } from '../model/common.js'
import { createTaskQueue, type TaskQueue } from '../tasks/task-queue.js'
import { NO_FOREGROUND, type Foreground } from '../foreground.js'
import { keyedMutex } from './keyed-mutex.js'
import { createWriteFollower, type FollowTarget } from './write-follower.js'

export interface EngineCoreOptions {
  storage: StorageAdapter
  /** Written as `brain_version` on passages and structured records (the server's package version). */
  version: string
  /** SHA-256 hex of the system token; without it no token is a system token. */
  systemTokenHash?: string
  /** Brain created at start and used when the system token selects none; null disables both. Default `default`. */
  defaultBrain?: string | null
  /** Tasks run at once (default 2). */
  workers?: number
  /**
   * Tasks of one brain run at once (default `workers - 1`, at least 1): a brain with a backlog leaves a
   * worker for the others, so their tasks start at once.
   */
  workersPerBrain?: number
  /**
   * Tasks waiting or running in this process past which a brain that holds its share (this over the
   * brains with tasks) gets 503 on `submit` (default 1000). Brains under their share are accepted.
   */
  maxPendingTasks?: number
  /** Days a terminal task record is kept (default 7). */
  taskRetentionDays?: number
  /** Attempts before a task that keeps crashing the process is marked failed (default 3). */
  maxTaskAttempts?: number
  /**
   * Least time between two writes of a running task's stage to storage (default 1000 ms). `tasks.get`
   * and `tasks.list` show every stage at once; storage gets the start, the finish, and the stage of a
   * task running longer than this.
   */
  taskProgressWriteMs?: number
  /**
   * Requests before ingestion on the event loop (`foreground.ts`): a server touches it on every request
   * and a task's main-thread steps wait their turn while requests keep coming. Default: tasks never wait
   * (an embedded engine serves no requests of its own).
   */
  foreground?: Foreground
  /**
   * Whether this process runs tasks (default true). False (`ROLE=api`) only with an adapter shared by
   * several processes (`coordination`): tasks are stored and left to the processes that run them.
   */
  runTasks?: boolean
  /**
   * Shared task queue (adapters with `coordination`): how long a claimed task stays leased to this
   * process without a heartbeat (default 30 000 ms). A process killed mid-task holds its tasks this long.
   */
  taskLeaseMs?: number
  /** Adapters with `coordination`: the write feed's polling period, the fallback for lost announcements (default 500 ms). */
  followPollMs?: number
  logger?: Logger
}

/**
 * The engine's core: storage, brains, graph writes, the task queue and the commit path. The index
 * manager, search and ingestion are built on it by the composition root (`createEngine`).
 */
export interface EngineCore {
  readonly version: string
  readonly logger: Logger
  readonly storage: StorageAdapter
  readonly brains: BrainService
  readonly graph: GraphWriter
  readonly tasks: TaskQueue
  /** What requests touch so that tasks give way to them (`EngineCoreOptions.foreground`). */
  readonly foreground: Foreground
  /** The default brain id, or null when a brain must always be selected. */
  readonly defaultBrain: string | null
  /** A brain's store; throws BRAIN_NOT_FOUND for an unknown brain. */
  store(brainId: string): Promise<BrainStore>
  /**
   * Applies a batch and notifies commit listeners, holding the brain's write lock from before `batch` is
   * built (when it is a function) until the listeners are done, so writes of one brain never interleave.
   * A write that updates records it read (merges into an entity, edits a property) must read them inside
   * the builder: read before, it would overwrite what a write committed in between added (a lost update).
   * Not reentrant: a builder must not commit to its own brain.
   */
  commit(brainId: string, batch: WriteBatch | BatchBuilder): Promise<void>
  onCommit(listener: CommitListener): void
  beforeCommit(hook: BeforeCommitHook): void
  /**
   * With an adapter shared by several processes: tells the write follower which brains this process
   * holds indexes of (it reads other processes' writes back only for those, and hands them to the
   * commit listeners). A no-op otherwise.
   */
  followWrites(target: FollowTarget): void
  /**
   * With an adapter shared by several processes: the last write-feed entry of the brain this process
   * applied to its indexes or skipped (see `WriteFollower.seq`); undefined otherwise.
   */
  writeSeq(brainId: string): number | undefined
  /**
   * Runs `hook` in `stop()` once tasks have drained and before storage closes (e.g. saving index
   * snapshots). Hooks run in registration order; a failing hook is logged and the stop goes on.
   */
  onStop(hook: () => Promise<void>): void
  /**
   * Runs `hook` after a brain was deleted (its records are gone), so that in-memory state of it is
   * dropped at once rather than when next looked up. Hooks run in registration order.
   */
  onBrainDeleted(hook: (brainId: string) => void | Promise<void>): void
  /**
   * Calls `listener` once the engine meets a condition it cannot recover from: the storage adapter
   * reports itself unusable for good (`StorageRuntime.fatal`: the database refuses this process's
   * credentials, or was dropped). The engine goes on, failing what needs storage; `engram serve`
   * logs the reason and exits non-zero. A listener added after the fact is called at once. Dropped
   * connections are not fatal: adapters reconnect, and tasks retry meanwhile.
   */
  onFatal(listener: (error: Error) => void): void
  /** Opens storage, ensures the default brain, resumes unfinished tasks. */
  start(): Promise<void>
  /** Stops accepting tasks, lets running ones finish (up to `graceMs`), leaves the rest queued, closes storage. */
  stop(options?: { graceMs?: number }): Promise<void>
}

const HOUR_MS = 3_600_000

/**
 * Wires storage, brains, graph writes and the task queue into the engine's core. The index manager
 * and ingestion plug in through `onCommit` listeners and `tasks.registerHandler`; only the composition
 * root (`create-engine.ts`) calls this.
 */
export function createEngineCore(options: EngineCoreOptions): EngineCore {
  const { storage } = options
  const coordination = storage.coordination
  const logger = options.logger ?? silentLogger
  const defaultBrain = options.defaultBrain === undefined ? 'default' : options.defaultBrain || null
  const listeners: CommitListener[] = []
  const beforeHooks: BeforeCommitHook[] = []
  const stopHooks: (() => Promise<void>)[] = []
  const deleteHooks: ((brainId: string) => void | Promise<void>)[] = []
  let sweepTimer: NodeJS.Timeout | undefined
  let started = false
  const fatalListeners: ((error: Error) => void)[] = []
  let fatalError: Error | null = null

  function fatal(error: Error): void {
    if (fatalError !== null) return
    fatalError = error
    logger.error({ err: error }, `fatal: ${error.message}`)
    for (const listener of fatalListeners) listener(error)
  }

  async function store(brainId: string): Promise<BrainStore> {
    if ((await storage.catalog.get(brainId)) === null) {
      throw new EngramError('BRAIN_NOT_FOUND', `Brain '${brainId}' does not exist.`)
    }
    // Followed from its first use here, before any index of it is built from storage.
    await follower?.track(brainId)
    return storage.brain(brainId)
  }

  async function notifyListeners(brainId: string, batch: WriteBatch): Promise<void> {
    for (const listener of listeners) {
      try {
        await listener(brainId, batch)
      } catch (error) {
        // The write is durable; a listener (an in-memory index) failing must not undo it. Indexes are
        // rebuilt from storage at start, so the failure is logged, not hidden from operators.
        logger.error({ err: error, brainId }, 'commit listener failed')
      }
    }
  }

  /**
   * One write at a time per brain, from the builder's reads to the last listener. Stores upsert whole
   * records, so two writes that each read an entity, add to it and write it back would otherwise keep
   * only the later one's additions (tasks of one brain run at once: WORKERS). Holding the lock through
   * the listeners keeps the in-memory indexes receiving batches in commit order too. A lock rather
   * than merging at commit time: a builder that reads under it sees every earlier write, so the result
   * is the one of running the writes one after another in commit order, for every field and every
   * decision that depends on the reads (entity resolution), not only for the fields a merge knows.
   * It is held only for reads, in-memory building and the write: callers do their slow independent work
   * (extraction, embedding) before calling. With an adapter several processes share (`coordination`),
   * the adapter's brain lock is taken inside it, from the builder's reads to the write, and the brain is
   * first caught up with the other processes' writes, so the builder and the hooks (entity resolution
   * against the indexes' vectors) see every earlier write, whoever made it.
   */
  const writeLock = keyedMutex()
  const follower =
    coordination === undefined
      ? null
      : createWriteFollower({
          coordination,
          store: (brainId) => storage.brain(brainId),
          lock: (brainId, work) => writeLock.run(brainId, work),
          deliver: notifyListeners,
          logger,
          ...(options.followPollMs === undefined ? {} : { pollMs: options.followPollMs }),
        })

  async function commit(
    brainId: string,
    source: WriteBatch | BatchBuilder,
    applied?: () => void,
    forecast?: WriteBatch,
  ): Promise<void> {
    const target = await store(brainId)
    await writeLock.run(brainId, async () => {
      const write = async () => {
        await follower?.catchUpLocked(brainId)
        const batch = typeof source === 'function' ? await source() : source
        for (const hook of beforeHooks) await hook(brainId, batch, forecast)
        try {
          await target.apply(batch)
        } catch (error) {
          // A connection lost during COMMIT leaves it unknown whether the batch landed; if it did, the
          // write feed has it under this process's name, which catch-ups skip: this time they apply it.
          if (isStorageUnavailable(error)) follower?.uncertain(brainId)
          throw error
        }
        return batch
      }
      // The shared lock covers the write only: indexes follow under the in-process lock, while other
      // processes' writes of the brain go on.
      const batch =
        coordination === undefined
          ? await write()
          : await coordination.withBrainLock(brainId, write)
      applied?.()
      await notifyListeners(brainId, batch)
    })
  }

  /**
   * `/model/*` writes: the builder runs once before the lock, where the hooks do their slow work on
   * that forecast (embedding a new entity), then under the lock, where the hooks reuse what still
   * applies (vectors of texts that did not change). The builders only read: a forecast writes nothing.
   */
  async function commitWithForecast(brainId: string, source: WriteBatch | BatchBuilder) {
    if (typeof source !== 'function' || beforeHooks.length === 0) return commit(brainId, source)
    const forecast = await source()
    for (const hook of beforeHooks) await hook(brainId, forecast)
    await commit(brainId, source, undefined, forecast)
  }

  const brains = createBrainService({
    storage,
    systemTokenHash: options.systemTokenHash,
    defaultBrain,
    async onDeleted(brainId) {
      for (const hook of deleteHooks) await hook(brainId)
    },
  })

  const foreground = options.foreground ?? NO_FOREGROUND
  const tasks = createTaskQueue({
    store,
    commit,
    listBrains: async () => (await storage.catalog.list()).map((brain) => brain.id),
    logger,
    workers: options.workers ?? 2,
    workersPerBrain: options.workersPerBrain ?? Math.max(1, (options.workers ?? 2) - 1),
    maxPending: options.maxPendingTasks ?? 1000,
    retentionDays: options.taskRetentionDays ?? 7,
    maxAttempts: options.maxTaskAttempts ?? 3,
    ...(coordination === undefined
      ? {}
      : { shared: { leases: coordination.tasks, leaseMs: options.taskLeaseMs ?? 30_000 } }),
    runTasks: options.runTasks ?? true,
    foreground,
    ...(options.taskProgressWriteMs === undefined
      ? {}
      : { progressWriteMs: options.taskProgressWriteMs }),
  })

  return {
    version: options.version,
    logger,
    storage,
    brains,
    graph: createGraphWriter({ store, commit: commitWithForecast }),
    tasks,
    foreground,
    defaultBrain,
    store,
    commit,
    onCommit(listener) {
      listeners.push(listener)
    },
    beforeCommit(hook) {
      beforeHooks.push(hook)
    },
    followWrites(target) {
      follower?.setTarget(target)
    },
    writeSeq: (brainId) => follower?.seq(brainId),
    onStop(hook) {
      stopHooks.push(hook)
    },
    onBrainDeleted(hook) {
      deleteHooks.push(hook)
    },
    onFatal(listener) {
      fatalListeners.push(listener)
      if (fatalError !== null) listener(fatalError)
    },

    async start() {
      if (started) return
      started = true
      if (options.runTasks === false && coordination === undefined)
        throw new Error(
          `runTasks: false needs storage several processes share (postgres); ${storage.name} has one process run its tasks.`,
        )
      await storage.open({ logger, fatal })
      await follower?.start()
      if (defaultBrain !== null && (await storage.catalog.get(defaultBrain)) === null) {
        // The default brain's token is never shown: the system token reaches it. Rotate to get one.
        const token = generateToken()
        await storage.catalog.create({
          id: defaultBrain,
          nameKey: defaultBrain,
          tokenHash: hashToken(token),
          tokenLast4: tokenLast4(token),
          createdAt: nowIso(),
        })
      }
      const { removed, resumed } = await tasks.open()
      if (resumed > 0 || removed > 0) logger.info({ resumed, removed }, 'task queue ready')
      sweepTimer = setInterval(() => {
        tasks.sweep().catch((error) => logger.warn({ err: error }, 'task retention sweep failed'))
      }, HOUR_MS)
      sweepTimer.unref()
    },

    async stop(stopOptions = {}) {
      if (!started) return
      started = false
      if (sweepTimer !== undefined) clearInterval(sweepTimer)
      await tasks.stop(stopOptions.graceMs ?? 10_000)
      await follower?.stop()
      for (const hook of stopHooks) {
        try {
          await hook()
        } catch (error) {
          // Storage must still close: a hook that failed (a snapshot not saved) costs a rebuild later.
          logger.error({ err: error }, 'stop hook failed')
        }
      }
      await storage.close()
    },
  }
}
