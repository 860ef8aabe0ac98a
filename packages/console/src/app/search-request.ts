import { asOfParam } from './explorer/fact-window.js'

/** What the search form holds, before it becomes a request. */
export interface SearchForm {
  query: string
  k: number
  /** Ticked channels, as the server listed them (`passages`, …, `plugin:<name>`), in order. */
  channels: string[]
  /** Further channels, comma-separated (`plugin:<name>`). */
  extraChannels: string
  /** `''` for the server's default (`ENGRAM_SEARCH_FUSION`), else `rrf`, `cc`, `none`, `plugin:<name>`. */
  fusion: string
  /** Weight of `cc`, 0..1; ignored by other fusions. */
  fusionAlpha: number | null
  /** `''` for the server's default (`auto`), `none` for no rerank, else `plugin:<name>`. */
  rerank: string
  expand: 'auto' | 'none' | 'neighbors'
  /** The "as of" date field (`YYYY-MM-DD`), sent as `as_of` (docs/time.md); `''` for now. */
  asOf: string
}

/** The `POST /retrieve/search` body of a form (CONTRACT.md section 7), always with `profile_stages`. */
export function searchBody(form: SearchForm) {
  const channels = [
    ...form.channels,
    ...form.extraChannels
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== ''),
  ]
  const rerank = form.rerank.trim()
  const asOf = asOfParam(form.asOf)
  return {
    query: form.query.trim(),
    k: form.k,
    ...(channels.length > 0 ? { channels } : {}),
    ...(form.fusion !== '' ? { fusion: form.fusion } : {}),
    ...(form.fusion === 'cc' && form.fusionAlpha !== null
      ? { fusion_alpha: form.fusionAlpha }
      : {}),
    ...(rerank !== '' ? { rerank } : {}),
    expand: form.expand,
    ...(asOf !== undefined ? { as_of: asOf } : {}),
    profile_stages: true,
  }
}
