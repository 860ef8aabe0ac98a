import type { Engram } from '@engram/core'

/** Brains this process has seen exist, so a brain route does not read the catalogue on every request. */
export interface KnownBrains {
  /** Resolves when the brain exists; throws BRAIN_NOT_FOUND (404) as `engram.brains.require` does. */
  require(brainId: string): Promise<void>
  /** Drops what is known of a brain (called when it is deleted). */
  forget(brainId: string): void
}

export interface KnownBrainsOptions {
  /**
   * How long a brain seen to exist is trusted without asking the catalogue again (ms). Deletions in this
   * process are seen at once (`onBrainDeleted`); one in another process sharing the database within this
   * time. Default 1,000.
   */
  ttlMs?: number
  /** Most brains remembered; the oldest entry goes first. Default 10,000. */
  max?: number
  now?: () => number
}

/**
 * Remembers only brains found to exist (a missing brain is asked again every time, so one created in
 * another process is seen at once), for `ttlMs`, at most `max` of them.
 */
export function createKnownBrains(engram: Engram, options: KnownBrainsOptions = {}): KnownBrains {
  const { ttlMs = 1000, max = 10_000, now = Date.now } = options
  const seenUntil = new Map<string, number>()
  // Bumped by every deletion: a lookup that was in flight across one does not remember its answer.
  let deletions = 0
  const forget = (brainId: string) => {
    deletions++
    seenUntil.delete(brainId)
  }
  engram.onBrainDeleted(forget)
  return {
    async require(brainId) {
      const until = seenUntil.get(brainId)
      if (until !== undefined && until > now()) return
      const before = deletions
      await engram.brains.require(brainId)
      if (deletions !== before) return
      // Re-inserted at the end: Map iteration order makes the first key the oldest.
      seenUntil.delete(brainId)
      seenUntil.set(brainId, now() + ttlMs)
      if (seenUntil.size > max) seenUntil.delete(seenUntil.keys().next().value!)
    },
    forget,
  }
}

const perEngine = new WeakMap<Engram, KnownBrains>()

/** The one `KnownBrains` of an engine (routes and MCP tools of one app share it). */
export function knownBrainsOf(engram: Engram): KnownBrains {
  let known = perEngine.get(engram)
  if (known === undefined) {
    known = createKnownBrains(engram)
    perEngine.set(engram, known)
  }
  return known
}
