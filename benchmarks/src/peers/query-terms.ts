/**
 * Splits a query into lowercase Unicode letter/number runs. Used by peers whose query syntax would otherwise
 * interpret punctuation (FTS5 operators, quotes, column filters) so every peer sees the same bag of terms.
 */
export function queryTerms(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 0)
}
