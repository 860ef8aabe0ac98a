/**
 * Cuts texts into batches of similar length for a padded model, and says which input each row is.
 *
 * USE-lite pads every row of a batch to its longest text before the attention layers (its graph turns
 * the sparse batch into a dense [rows, longest] one), so a 300-piece passage in a batch of 31 entity
 * names made the names cost as much as the passage: in input order, the texts of one LoCoMo session
 * task ran 3.8 times slower than the same texts sorted by length (benchmarks/results/ingest.md). This
 * is the length bucketing of sequence-model batching (Khomenko et al., "Accelerating recurrent neural
 * network training using sequence bucketing and multi-GPU data parallelization", 2016): sort by length,
 * then fill each batch while rows x longest stays within `maxCells` and the longest is at most twice the
 * shortest (`joins`). A text is its own row as before, so
 * its vector does not depend on its neighbours (the model masks padding; measured cosine >= 0.9999999).
 *
 * `sizes` are a cheap length proxy (characters): the pieces are only known in the worker.
 * Returns batches of input indices, shortest texts first; ties keep input order. Every index appears once.
 */
export function lengthBatches(
  sizes: readonly number[],
  maxRows: number,
  maxCells: number,
): number[][] {
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]! || a - b)
  const batches: number[][] = []
  let batch: number[] = []
  let shortest = 0
  for (const index of order) {
    // Sorted ascending, so this text is the longest of the batch if it joins.
    const longest = sizes[index]!
    if (batch.length > 0 && !joins(batch.length + 1, shortest, longest, maxRows, maxCells)) {
      batches.push(batch)
      batch = []
    }
    if (batch.length === 0) shortest = longest
    batch.push(index)
  }
  if (batch.length > 0) batches.push(batch)
  return batches
}

/**
 * Texts up to this many characters batch together whatever their ratio: their padding costs less
 * than a model run of their own (about 1 ms of fixed cost per run, measured on use-lite's graph).
 */
export const SHORT_TEXT_CHARS = 48
/** Longest over shortest text of one batch, past `SHORT_TEXT_CHARS`. */
export const MAX_LENGTH_RATIO = 2

/**
 * Whether a batch of `rows` texts from `shortest` to `longest` characters may run as one: at most
 * `maxRows` rows and `maxCells` padded characters (rows x longest), and, since every row costs what the
 * longest does, no text padded to more than `MAX_LENGTH_RATIO` times its length unless the longest is
 * short anyway. Without the ratio, a 700-character passage let four short texts into its batch
 * (5 x 700 within 4,000 cells), each then costing as much as the passage.
 */
export function joins(
  rows: number,
  shortest: number,
  longest: number,
  maxRows: number,
  maxCells: number,
): boolean {
  const cells = Math.max(1, longest)
  return (
    rows <= maxRows &&
    rows * cells <= maxCells &&
    (cells <= SHORT_TEXT_CHARS || cells <= MAX_LENGTH_RATIO * Math.max(1, shortest))
  )
}
