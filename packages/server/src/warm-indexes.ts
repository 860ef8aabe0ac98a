import type { Engram, IndexManagerStats, Logger } from '@engram/core'

/**
 * Builds the search indexes of every brain, one brain at a time, so that the first search of each
 * does not wait for them (vector indexes come from their snapshots when valid ones exist; BM25 is
 * rebuilt from storage). Runs in the background from the engine's start, while the app is built and
 * then while it serves: builds yield to the event loop every ~20 ms, so `/health` and requests are
 * served meanwhile, and a request for a brain not reached yet builds
 * that brain itself. Stops at the first brain after `stopped()` turns true (shutdown), and, with an
 * index memory budget (`INDEX_MEMORY_MB`), once the budget is full: warming more would only evict the
 * brains warmed before it, each in turn.
 */
export async function warmIndexes(
  engram: Engram,
  logger: Logger,
  stopped: () => boolean,
): Promise<void> {
  const started = performance.now()
  const evictionsBefore = engram.indexes.stats().evictions
  let brains = 0
  for (const brain of await engram.brains.list()) {
    if (stopped()) return
    const stats = engram.indexes.stats()
    if (budgetFull(stats, evictionsBefore)) {
      logger.info(
        { brains, ms: Math.round(performance.now() - started), ...stats },
        'index warm-up stopped: the index memory budget is full',
      )
      return
    }
    try {
      await engram.indexes.get(brain.id)
      brains++
    } catch (error) {
      // Deleted meanwhile, or storage closing: the brain's first request builds (or reports) it.
      if (!stopped()) logger.warn({ err: error, brainId: brain.id }, 'index warm-up failed')
    }
  }
  logger.info(
    { brains, ms: Math.round(performance.now() - started), ...engram.indexes.stats() },
    'brain indexes warm',
  )
}

/** The budget holds as much as it can: full by the estimates, or something was evicted to fit. */
function budgetFull(stats: IndexManagerStats, evictionsBefore: number): boolean {
  return (
    stats.budgetBytes !== null &&
    (stats.estimatedBytes >= stats.budgetBytes || stats.evictions > evictionsBefore)
  )
}
