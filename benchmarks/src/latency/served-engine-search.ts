import type { Engram, SearchRequest } from '@engram/core'

/** The engine's own cost for the requests the search scenario sends, on the brain the server serves. */
export interface ServedEngineSearch {
  readonly searches: number
  /** Wall time per `engram.search.search` call (ms), one call at a time. */
  readonly meanMs: number
  /** CPU time of the process (user + system, all threads) per call (ms): comparable to the server's CPU per response. */
  readonly cpuMsPerSearch: number
}

/** The request `GET /retrieve/search?query=<q>&k=10` builds (routes/search-routes.ts `toRequest`). */
export function httpDefaultRequest(query: string): SearchRequest {
  return {
    query,
    k: 10,
    channels: ['passages'],
    expand: 'auto',
    rerank: 'auto',
    profileStages: false,
  }
}

/**
 * Runs each query through `engram.search.search` once untimed, then `rounds` times timed, in the serving
 * process before any load: the in-process cost of exactly what each search request asks of the engine.
 */
export async function timeServedEngineSearch(
  engram: Engram,
  brainId: string,
  queries: readonly string[],
  rounds = 2,
): Promise<ServedEngineSearch> {
  for (const q of queries) await engram.search.search(brainId, httpDefaultRequest(q))
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let r = 0; r < rounds; r++)
    for (const q of queries) await engram.search.search(brainId, httpDefaultRequest(q))
  const wallMs = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const searches = rounds * queries.length
  return {
    searches,
    meanMs: wallMs / searches,
    cpuMsPerSearch: (cpu.user + cpu.system) / 1000 / searches,
  }
}
