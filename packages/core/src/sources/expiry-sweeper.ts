import type { EngineCore } from '../engine/engine-core.js'
import { EngramError } from '../errors.js'
import type { SourcesService } from './sources-api.js'

/** What one sweep did. */
export interface ExpirySweep {
  /** False when another process held the sweep lock (PostgreSQL): this one did nothing this round. */
  ran: boolean
  /** Brains looked at (not those whose next expiry is known to be later: see `nextExpiry`). */
  brains: number
  /** Expired sources found (a source whose forget is queued is found again until it runs). */
  expired: number
  /** Forget tasks created; a forget already queued for the same source is not counted. */
  submitted: number
  /** The forget task of each expired source found (created now or queued before), to wait for. */
  forgets: { brainId: string; sourceId: string; taskId: string }[]
}

/** Forgets sources once past their `expiresAt` (docs/time.md, Expiry). */
export interface ExpirySweeper {
  /**
   * Runs one sweep now: for every brain, the expired sources (`SourceRepository.expired`) get their
   * forget submitted (`SourcesService.forget`). Sweeps of one process run one after the other; with
   * an adapter several processes share, one process at a time sweeps (`Coordination.tryExclusive`)
   * and the others skip the round (`ran: false`). Resolves once the forgets are submitted, not run.
   */
  sweep(now?: Date): Promise<ExpirySweep>
  /** Sweeps every `intervalSeconds` from now on (0: never). Called by the engine's `start()`. */
  start(): void
  /** Stops the timer and waits for a sweep under way. Called by the engine's `stop()`. */
  stop(): Promise<void>
}

export interface ExpirySweeperOptions {
  /** Seconds between sweeps; 0 disables the timer (`sweep()` still works). */
  intervalSeconds: number
  /** Most sources forgotten per brain per sweep (default 1000); the rest wait for the next round. */
  limit?: number
  /**
   * Whether the engine holds nothing of the brain (no indexes loaded or loading, no task here): its
   * store is then released once the round has read it (SQLite closes the connection, reopened on the
   * next use). Without it a round left every brain's connection open: about 370 KB and four file
   * descriptors each, 740 MB for 2,000 brains a minute after start.
   */
  cold?: (brainId: string) => boolean
}

/** Later than every stored `expiresAt` (year 9999 at most, compared as text: `SourceRepository.expired`). */
const LAST_TIME = '9999-12-31T23:59:59.999Z'

/** Name of the sweep's lock among the processes sharing a database. */
export const EXPIRY_SWEEP_LOCK = 'expiry-sweep'

/**
 * The expiry sweeper. Each round is a query per brain on an index of `expiresAt` and a forget task per
 * expired source; the sweep's forget has one task id per state and expiry of a source
 * (`SourcesService.forget` with `expiredAt`), so a source found twice, by two rounds or by two
 * processes, still gets one forget task.
 */
export function createExpirySweeper(
  core: EngineCore,
  sources: SourcesService,
  options: ExpirySweeperOptions,
): ExpirySweeper {
  const limit = options.limit ?? 1000
  let timer: NodeJS.Timeout | undefined
  let running: Promise<ExpirySweep> | null = null
  let queue: Promise<unknown> = Promise.resolve()

  /**
   * When each brain's next source expires (ISO), or null when none has an expiry, as a round found it,
   * kept only while every write goes through this process's `commit` (no `coordination`): a commit that
   * writes sources forgets its brain's entry. A round skips a brain until then, so it does not open
   * every cold brain's file once a minute to find nothing (2,000 brains: 0.8 s of CPU per round, each
   * opened and released again; 0.06 s while connections stayed open, at 370 KB each).
   */
  const nextExpiry = new Map<string, string | null>()
  const tracking = core.storage.coordination === undefined
  /** Commits that wrote sources, any brain: a round keeps what it read only if none came meanwhile. */
  let sourceWrites = 0
  if (tracking) {
    core.onCommit((brainId, batch) => {
      if (!batch.sources?.length && !batch.deleteSources?.length) return
      sourceWrites++
      nextExpiry.delete(brainId)
    })
    core.onBrainDeleted((brainId) => {
      nextExpiry.delete(brainId)
    })
  }

  async function sweepBrains(now: string): Promise<ExpirySweep> {
    const result: ExpirySweep = { ran: true, brains: 0, expired: 0, submitted: 0, forgets: [] }
    for (const brain of await core.storage.catalog.list()) {
      const next = nextExpiry.get(brain.id)
      if (next !== undefined && (next === null || next > now)) continue
      await noteFailure(brain.id, async () => {
        const writes = sourceWrites
        const store = await core.store(brain.id)
        result.brains++
        const expired = await store.sources.expired(now, limit)
        // Nothing due: the soonest expiry of all (later than now) is when to look again, unless a
        // commit wrote sources while this read (its listener ran before this line: what was read may
        // be older than it).
        if (tracking && expired.length === 0) {
          const soonest = (await store.sources.expired(LAST_TIME, 1))[0]?.expiresAt ?? null
          if (sourceWrites === writes) nextExpiry.set(brain.id, soonest)
        }
        for (const source of expired) {
          result.expired++
          await noteFailure(brain.id, async () => {
            const { task, created } = await sources.forget(brain.id, source.id, { expiredAt: now })
            if (created) result.submitted++
            result.forgets.push({ brainId: brain.id, sourceId: source.id, taskId: task.id })
          })
        }
        // A forget submitted here holds the brain (a task), so its store stays open for it.
        if (options.cold?.(brain.id) === true) store.release?.()
      })
    }
    return result
  }

  /** Runs `work`, logging its failure: one brain or source failing does not stop the round. */
  async function noteFailure(brainId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work()
    } catch (error) {
      // A brain deleted meanwhile, or a source its owner forgot meanwhile: nothing left to do.
      if (error instanceof EngramError && error.status === 404) return
      core.logger.warn({ err: error, brainId }, 'expiry sweep: a forget could not be submitted')
    }
  }

  async function once(now: Date): Promise<ExpirySweep> {
    const at = now.toISOString()
    const coordination = core.storage.coordination
    if (coordination?.tryExclusive === undefined) return sweepBrains(at)
    const run = await coordination.tryExclusive(EXPIRY_SWEEP_LOCK, () => sweepBrains(at))
    return run.acquired
      ? run.value
      : { ran: false, brains: 0, expired: 0, submitted: 0, forgets: [] }
  }

  function sweep(now: Date = new Date()): Promise<ExpirySweep> {
    const next = queue.then(() => once(now))
    queue = next.catch(() => undefined)
    return next
  }

  return {
    sweep,
    start() {
      if (timer !== undefined || options.intervalSeconds <= 0) return
      timer = setInterval(() => {
        // A round still running (a slow database) makes the next tick skip rather than queue up.
        if (running !== null) return
        running = sweep()
        running
          .catch((error) => core.logger.warn({ err: error }, 'expiry sweep failed'))
          .finally(() => (running = null))
      }, options.intervalSeconds * 1000)
      timer.unref()
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
      await queue
    },
  }
}
