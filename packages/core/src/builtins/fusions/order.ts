import type { Candidate } from '../../contracts/search-plugins.js'

/** Best score first, ties by id ascending: reproducible runs. */
export function byScoreThenId(a: Candidate, b: Candidate): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}
