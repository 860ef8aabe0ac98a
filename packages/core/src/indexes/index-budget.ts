import type { Logger } from '../logger.js'
import { LruSizes } from './lru-sizes.js'

/** What the index manager's budget holds now; for logs and benchmarks. */
export interface IndexBudgetStats {
  /** Brains whose indexes are built and counted. */
  loadedBrains: number
  /** Sum of their estimates (`BrainIndexes.estimatedBytes()`). */
  estimatedBytes: number
  /** The budget; null when unlimited. */
  budgetBytes: number | null
  /** Brains whose indexes were evicted since the engine was created. */
  evictions: number
}

export interface IndexBudgetDeps<E> {
  /** Bytes the estimates of built indexes may add up to (default: unlimited, nothing is evicted). */
  budgetBytes?: number
  logger: Logger
  /** The brain of an entry, for logs. */
  brainIdOf(entry: E): string
  /**
   * Runs before an entry is evicted: saves what its next load should read rather than rebuild (vector
   * snapshots that changed). A failure is logged and the eviction goes on (storage has everything).
   */
  save(entry: E): Promise<void>
  /** Evicts the entry: the manager forgets its indexes, so its next request builds them again. */
  drop(entry: E): void
}

/**
 * The memory budget of the index manager (`INDEX_MEMORY_MB`): which brains' indexes stay in memory.
 * Each entry (one brain's loaded indexes) carries its estimate; while their sum exceeds the budget,
 * the least recently used entries are evicted (recency: requests, `use`). Never evicted: the entry
 * requested last, and entries not measured yet (their build is in flight). So a brain larger than the
 * whole budget is still served, alone, with a warning logged once.
 */
export interface IndexBudget<E> {
  /** The entry was requested: it becomes the most recently used, and the one never evicted. */
  use(entry: E): void
  /** Sets the entry's estimate (after its build, a batch, a request), then evicts while over budget. */
  measure(entry: E, bytes: number): void
  /** Stops counting the entry (failed build, brain deleted or created again); no eviction runs. */
  forget(entry: E): void
  /** Resolves once no eviction is running; a cold build waits for it, so builds cannot outrun evictions. */
  settled(): Promise<void>
  stats(): IndexBudgetStats
}

export function createIndexBudget<E extends object>(deps: IndexBudgetDeps<E>): IndexBudget<E> {
  const { logger } = deps
  const budgetBytes = deps.budgetBytes ?? Number.POSITIVE_INFINITY
  if (!(budgetBytes > 0))
    throw new RangeError(`The index memory budget must be positive (got ${deps.budgetBytes}).`)
  const lru = new LruSizes<E>()
  /** Per entry, the `clock` of its last use: an eviction gives up on an entry used while it saved. */
  const lastUse = new WeakMap<E, number>()
  let clock = 0
  let current: E | null = null
  let evictions = 0
  let running: Promise<void> | null = null
  /** Brains already warned about being larger than the budget on their own. */
  const warned = new Set<string>()

  const stats = (): IndexBudgetStats => ({
    loadedBrains: lru.size,
    estimatedBytes: lru.total,
    budgetBytes: Number.isFinite(budgetBytes) ? budgetBytes : null,
    evictions,
  })

  function victim(): E | undefined {
    for (const entry of lru.keys()) if (entry !== current) return entry
    return undefined
  }

  function warnOversize(): void {
    const bytes = current === null ? undefined : lru.get(current)
    if (current === null || bytes === undefined || bytes <= budgetBytes) return
    const brainId = deps.brainIdOf(current)
    if (warned.has(brainId)) return
    warned.add(brainId)
    logger.warn(
      { brainId, estimatedBytes: bytes, budgetBytes },
      'brain indexes exceed the index memory budget on their own: kept loaded, every other brain evicted',
    )
  }

  async function evictOverBudget(): Promise<void> {
    while (lru.total > budgetBytes) {
      const entry = victim()
      if (entry === undefined) return warnOversize()
      const brainId = deps.brainIdOf(entry)
      const seen = lastUse.get(entry)
      try {
        await deps.save(entry)
      } catch (error) {
        logger.warn({ err: error, brainId }, 'index snapshot save before eviction failed')
      }
      // Requested while it saved (in use again), forgotten meanwhile, or room made otherwise: keep it.
      if (!lru.has(entry) || lastUse.get(entry) !== seen) continue
      if (lru.total <= budgetBytes) return
      const bytes = lru.get(entry)
      lru.delete(entry)
      evictions++
      deps.drop(entry)
      logger.debug({ brainId, bytes, ...stats() }, 'brain indexes evicted')
    }
  }

  function evict(): void {
    if (running !== null || lru.total <= budgetBytes) return
    running = evictOverBudget()
      .catch((error: unknown) => logger.error({ err: error }, 'index eviction failed'))
      .finally(() => {
        running = null
        // Over budget again between the loop's last check and here, with something to evict.
        if (lru.total > budgetBytes && victim() !== undefined) evict()
      })
  }

  return {
    use(entry) {
      current = entry
      lastUse.set(entry, ++clock)
      lru.touch(entry)
    },
    measure(entry, bytes) {
      lru.set(entry, bytes)
      evict()
    },
    forget(entry) {
      lru.delete(entry)
      if (current === entry) current = null
    },
    async settled() {
      while (running !== null) await running
    },
    stats,
  }
}
