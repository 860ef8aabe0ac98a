/**
 * Cuts a sequence into consecutive `[start, end)` ranges of at most `maxItems` items whose sizes sum to
 * at most `maxSize`; an item larger than `maxSize` is a range of its own. Always at least one range
 * (`[0, 0]` for nothing). What the embedder scheduler and the extractor pool hand a worker at a time, so
 * no one request holds a worker long.
 */
export function boundedRanges(
  sizes: readonly number[],
  maxItems: number,
  maxSize: number,
): [number, number][] {
  const out: [number, number][] = []
  let start = 0
  let size = 0
  sizes.forEach((itemSize, i) => {
    if (i > start && (i - start >= maxItems || size + itemSize > maxSize)) {
      out.push([start, i])
      start = i
      size = 0
    }
    size += itemSize
  })
  out.push([start, sizes.length])
  return out
}
