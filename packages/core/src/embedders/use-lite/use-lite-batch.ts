import type { UseLiteTokenizer } from './use-lite-tokenizer.js'

/**
 * The piece ids of each text, cut to `maxTokens`. A row without pieces would be dropped silently by the
 * model, so an empty text is embedded as a space (one piece).
 */
export function pieceRows(
  tokenizer: UseLiteTokenizer,
  texts: readonly string[],
  maxTokens: number,
): number[][] {
  return texts.map((text) => {
    const ids = tokenizer.encode(text, maxTokens)
    return ids.length > 0 ? ids : tokenizer.encode(' ', maxTokens)
  })
}

/** The model's sparse input (`UseLiteRuntime.run`): (row, position) pairs, the piece ids, the row count. */
export function sparseBatch(rows: readonly number[][]): [Int32Array, Int32Array, number] {
  const total = rows.reduce((sum, ids) => sum + ids.length, 0)
  const positions = new Int32Array(total * 2)
  const values = new Int32Array(total)
  let at = 0
  rows.forEach((ids, row) => {
    ids.forEach((piece, position) => {
      positions[at * 2] = row
      positions[at * 2 + 1] = position
      values[at++] = piece
    })
  })
  return [positions, values, rows.length]
}
