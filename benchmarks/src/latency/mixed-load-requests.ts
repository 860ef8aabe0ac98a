import type { MixedOp, MixedRequestFactory } from './mixed-load.js'

/** CONTRACT.md section 7: the SciFact test queries in turn, top 10, the server's default pipeline. */
export function searchRequests(queries: readonly string[]): MixedRequestFactory {
  let i = 0
  return () => ({
    method: 'GET',
    path: `/retrieve/search?query=${encodeURIComponent(queries[i++ % queries.length]!)}&k=10`,
  })
}

/**
 * CONTRACT.md section 3: `POST /ingest/` with one LoCoMo turn each, the full pipeline (extraction,
 * resolution, embedding when there is an embedder). The task queue takes 1,000 pending tasks per process;
 * past that the server answers 503 (its backpressure), so the queue stays full for the whole run.
 */
export function ingestRequests(texts: readonly string[]): MixedRequestFactory {
  let i = 0
  return () => ({
    method: 'POST',
    path: '/ingest/',
    body: JSON.stringify({ text: texts[i++ % texts.length]! }),
  })
}

/**
 * CONTRACT.md section 2: each connection alternately creates an entity (`POST /model/entity`, a new name
 * each time) and updates the one it created last (`PUT /model/entity`, a property merged), so the brain's
 * entities grow during the run as with a client that writes its own model.
 */
export function modelRequests(): MixedRequestFactory {
  let n = 0
  const turn = new Map<number, number>()
  return (connection, previous) => {
    const k = (turn.get(connection) ?? 0) + 1
    turn.set(connection, k)
    const created = Array.isArray(previous) ? (previous[0] as { uuid?: unknown }) : undefined
    if (k % 2 === 0 && typeof created?.uuid === 'string')
      return {
        method: 'PUT',
        path: '/model/entity',
        body: JSON.stringify({ uuid: created.uuid, new_properties: { visits: k } }),
      }
    const i = n++
    return {
      method: 'POST',
      path: '/model/entity',
      body: JSON.stringify({
        name: `Mixed load customer ${i}`,
        labels: ['PERSON'],
        description: `A customer written by the mixed-load benchmark, number ${i}.`,
        properties: { tier: ['gold', 'silver', 'bronze'][i % 3]! },
      }),
    }
  }
}

/** The three kinds of the mixed load, over the given queries and texts. */
export function mixedRequests(
  queries: readonly string[],
  texts: readonly string[],
): Record<MixedOp, MixedRequestFactory> {
  return {
    search: searchRequests(queries),
    ingest: ingestRequests(texts),
    model: modelRequests(),
  }
}
