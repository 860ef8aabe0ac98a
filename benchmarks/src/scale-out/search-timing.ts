/** `GET /retrieve/search` (CONTRACT.md section 7) as the latency suite's scenario sends it: `query`, `k=10`. */
export function searchPath(query: string): string {
  return `/retrieve/search?query=${encodeURIComponent(query)}&k=10`
}

/**
 * One search, timed as a client sees it: from sending the request until the whole body is read (Node's
 * fetch keeps the connection alive between calls). Throws unless the server answers 200 with hits.
 */
export async function timedSearch(url: string, token: string, query: string): Promise<number> {
  const t0 = performance.now()
  const response = await fetch(`${url}${searchPath(query)}`, { headers: { servicepat: token } })
  const body = await response.text()
  const ms = performance.now() - t0
  if (response.status !== 200)
    throw new Error(`search answered ${response.status}: ${body.slice(0, 500)}`)
  if (!body.includes('"hits"'))
    throw new Error(`search answered without hits: ${body.slice(0, 500)}`)
  return ms
}

/** Every query once, one at a time (a single client); the latency of each, in ms. */
export async function timeSearches(
  url: string,
  token: string,
  queries: readonly string[],
): Promise<number[]> {
  const samples: number[] = []
  for (const query of queries) samples.push(await timedSearch(url, token, query))
  return samples
}

/**
 * The order in which `rounds` rounds of each of `sides` run: A, B, A, B, ... so that a drift of the
 * machine (another process starting, thermal state) falls on both sides alike.
 */
export function alternate<T>(sides: readonly T[], rounds: number): T[] {
  const order: T[] = []
  for (let r = 0; r < rounds; r++) order.push(...sides)
  return order
}
