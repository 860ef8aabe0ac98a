/**
 * `items.map(work)` with at most `concurrency` calls in flight, results in input order. Browsers open at
 * most six HTTP/1.1 connections per origin, so more parallel requests only queue inside the browser.
 * The first rejection rejects the whole map (calls already started still finish).
 */
export async function boundedMap<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}
