/**
 * A clock of write times, strictly later than the one before it: the wall clock, or one millisecond after
 * the previous time when that is later. The passages of a conversation session are read in the order they
 * were written (`PassageSequence`), by their `insertedAt`: two turns ingested within one millisecond had
 * the same one and fell back to the order of their ids, which is no reading order and changed from run to
 * run with the machine's speed (LoCoMo dev's default search moved by up to 0.005 R@10 between runs of the
 * same code; benchmarks/LOG.md, 2026-11-30). A logical clock over the wall clock (Lamport, "Time, clocks,
 * and the ordering of events in a distributed system", CACM 21(7), 1978): under a burst of writes it runs
 * at most a few milliseconds ahead of the wall clock.
 */
export function writeClock(): (now?: number) => string {
  let last = Number.NEGATIVE_INFINITY
  return (now = Date.now()) => {
    last = Math.max(now, last + 1)
    return new Date(last).toISOString()
  }
}

/** The process's write clock (a task's passages' `insertedAt`). Processes sharing a brain each keep their own. */
export const writeTime = writeClock()
