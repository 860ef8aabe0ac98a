/**
 * Cuts texts into batches of similar length for a padded model, and says which input each row is.
 *
 * USE-lite pads every row of a batch to its longest text before the attention layers (its graph turns
 * the sparse batch into a dense [rows, longest] one), so a 300-piece passage in a batch of 31 entity
 * names made the names cost as much as the passage: in input order, the texts of one LoCoMo session
 * task ran 3.8 times slower than the same texts sorted by length (benchmarks/results/ingest.md). This
 * is the length bucketing of sequence-model batching (Khomenko et al., "Accelerating recurrent neural
 * network training using sequence bucketing and multi-GPU data parallelization", 2016): sort by length,
 * then fill each batch while rows x longest stays within `maxCells`. A text is its own row as before, so
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
  for (const index of order) {
    // Sorted ascending, so this text is the longest of the batch if it joins.
    const longest = Math.max(1, sizes[index]!)
    if (batch.length > 0 && (batch.length >= maxRows || (batch.length + 1) * longest > maxCells)) {
      batches.push(batch)
      batch = []
    }
    batch.push(index)
  }
  if (batch.length > 0) batches.push(batch)
  return batches
}
