import type { Engram } from '@engram/core'
import { ExpiringMemo } from './expiring-memo.js'

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
  const seen = new ExpiringMemo<string, true>(ttlMs, max, now)
  const forget = (brainId: string) => seen.forget(brainId)
  engram.onBrainDeleted(forget)
  return {
    async require(brainId) {
      if (seen.get(brainId)) return
      const generation = seen.generation
      await engram.brains.require(brainId)
      seen.remember(brainId, true, generation)
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
