import { EngramError } from '@engram/client'

/** A `meta` filter of `GET /sources`: each key must equal the source's meta value, typed. */
export type MetaFilter = Record<string, string | number | boolean>

/**
 * Reads the Sources tab's meta box: empty is no filter; otherwise a JSON object of strings, numbers
 * and booleans, as `GET /sources` takes it (docs/forgetting.md). Anything else throws an `EngramError`
 * shaped like the server's 422, so the tab shows it as it would show the server's, without a round
 * trip for a typo.
 */
export function parseMetaFilter(text: string): MetaFilter | undefined {
  if (text.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid('The meta filter is not JSON')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalid('The meta filter must be a JSON object')
  for (const [key, value] of Object.entries(parsed))
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw invalid(`The meta filter: the value of "${key}" must be a string, number or boolean`)
  return parsed as MetaFilter
}

const invalid = (message: string) =>
  new EngramError({
    status: 0,
    code: 'VALIDATION_ERROR',
    message,
    resolution:
      'Write a JSON object of plain values, e.g. {"project": "apollo"}, or leave it empty.',
  })
