import { performance } from 'node:perf_hooks'
import type { Engram } from '@engram/core'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'

/** One query of the `as_of` latency run: a brain, its text and the times it asks about. */
export interface TimeQuery {
  readonly brainId: string
  readonly query: string
  /** ISO event time for `asOf` (when the facts were true). */
  readonly asOf: string
  /** ISO system time for `knownAt` (what the brain had learned by then). */
  readonly knownAt: string
}

export type SearchCondition = 'now' | 'as_of' | 'known_at'
export const SEARCH_CONDITIONS: readonly SearchCondition[] = ['now', 'as_of', 'known_at']

export interface ConditionLatency {
  readonly condition: SearchCondition
  readonly latency: LatencySummary
  /** Mean hits returned. */
  readonly meanHits: number
  /** Share of queries whose hit ids differ from the same query's `now` hits (0 for `now`). */
  readonly changed: number
}

/** Searches of each query, untimed, before timing starts (JIT, index and graph views warm). */
const WARMUP = 20
/** The k of `POST /retrieve/search` without a `k`. */
const K = 10

/**
 * `POST /retrieve/search`-equivalent searches (`engram.search.search`, the route's service, no options but
 * the query) of each query now, with `asOf` and with `knownAt` at the query's times, in rotating order per
 * query (now, as_of, known_at; then as_of, known_at, now; ...) so a drift in machine load falls on every
 * condition alike. Each search is timed individually.
 */
export async function asOfLatency(
  engram: Engram,
  queries: readonly TimeQuery[],
): Promise<ConditionLatency[]> {
  const request = (q: TimeQuery, c: SearchCondition) => ({
    query: q.query,
    k: K,
    ...(c === 'as_of' ? { asOf: q.asOf } : c === 'known_at' ? { knownAt: q.knownAt } : {}),
  })
  for (const q of queries.slice(0, WARMUP))
    for (const c of SEARCH_CONDITIONS) await engram.search.search(q.brainId, request(q, c))
  const samples = new Map(SEARCH_CONDITIONS.map((c) => [c, [] as number[]]))
  const hits = new Map(SEARCH_CONDITIONS.map((c) => [c, [] as string[][]]))
  for (const [i, q] of queries.entries()) {
    const order = SEARCH_CONDITIONS.map((_, j) => SEARCH_CONDITIONS[(i + j) % 3]!)
    for (const c of order) {
      const t0 = performance.now()
      const response = await engram.search.search(q.brainId, request(q, c))
      samples.get(c)!.push(performance.now() - t0)
      hits.get(c)![i] = response.hits.map((h) => h.id)
    }
  }
  const now = hits.get('now')!
  return SEARCH_CONDITIONS.map((c) => {
    const lists = hits.get(c)!
    const changed = lists.filter((ids, i) => ids.join('\n') !== now[i]!.join('\n')).length
    return {
      condition: c,
      latency: summarizeLatency(samples.get(c)!),
      meanHits: lists.reduce((n, ids) => n + ids.length, 0) / (lists.length || 1),
      changed: changed / (lists.length || 1),
    }
  })
}
