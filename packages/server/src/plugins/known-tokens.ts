import type { Engram, Principal } from '@engram/core'
import { ExpiringMemo } from './expiring-memo.js'

/** Tokens this process has seen authenticate, so a request does not hash and look its token up again. */
export interface KnownTokens {
  /** `engram.brains.authenticate`, answered from memory for a token that passed it within `ttlMs`. */
  authenticate(token: string): Promise<Principal | null>
  /** Forgets every token (a brain's token was rotated, or a brain deleted). */
  forgetAll(): void
}

export interface KnownTokensOptions {
  /**
   * How long a token that authenticated is trusted without the engine's check (ms). A rotation or a
   * deletion in this process is seen at once; one in another process sharing the database within this
   * time. Default 1,000.
   */
  ttlMs?: number
  /** Most tokens remembered; the oldest entry goes first. Default 1,000. */
  max?: number
  now?: () => number
}

/**
 * Remembers only tokens that passed the engine's check (which hashes them and compares the hash in
 * constant time with the stored one: tokens stay hashed at rest); an unknown or wrong token goes to the
 * engine every time, so guessing gets no faster answer and nothing is kept of it. The tokens themselves
 * are held in memory only, as the request that carried them was, for at most `ttlMs`.
 */
export function createKnownTokens(engram: Engram, options: KnownTokensOptions = {}): KnownTokens {
  const { ttlMs = 1000, max = 1000, now = Date.now } = options
  const known = new ExpiringMemo<string, Principal>(ttlMs, max, now)
  const forgetAll = () => known.forget()
  engram.onBrainDeleted(forgetAll)
  return {
    async authenticate(token) {
      const hit = known.get(token)
      if (hit !== undefined) return hit
      const generation = known.generation
      const principal = await engram.brains.authenticate(token)
      if (principal !== null) known.remember(token, principal, generation)
      return principal
    },
    forgetAll,
  }
}

const perEngine = new WeakMap<Engram, KnownTokens>()

/** The one `KnownTokens` of an engine (the auth hook and the token rotation route share it). */
export function knownTokensOf(engram: Engram): KnownTokens {
  let tokens = perEngine.get(engram)
  if (tokens === undefined) {
    tokens = createKnownTokens(engram)
    perEngine.set(engram, tokens)
  }
  return tokens
}
