import { performance } from 'node:perf_hooks'
import { STARTUP_TOKEN } from './startup-server.js'

/** One `GET /retrieve/search` as the client saw it. */
export interface TimedSearch {
  readonly query: string
  /** Request sent to the whole body read, ms. */
  readonly ms: number
  readonly hits: number
}

/**
 * `GET /retrieve/search?query=<q>` (server defaults: passages channel, k 10, the default fusion) for each
 * query in turn, one at a time, each timed from the request to the last byte of the response. Throws on
 * anything but a 200 with a `hits` array: a failed search must not pass for a fast one.
 */
export async function timedSearches(
  url: string,
  queries: readonly string[],
): Promise<TimedSearch[]> {
  const out: TimedSearch[] = []
  for (const query of queries) {
    const started = performance.now()
    const res = await fetch(`${url}/retrieve/search?query=${encodeURIComponent(query)}`, {
      headers: { ServicePAT: STARTUP_TOKEN },
    })
    const body = (await res.json()) as { hits?: unknown }
    const ms = performance.now() - started
    if (res.status !== 200 || !Array.isArray(body.hits))
      throw new Error(`search '${query}': ${res.status} ${JSON.stringify(body)}`)
    out.push({ query, ms, hits: body.hits.length })
  }
  return out
}
