import type { SearchHit, Source } from '@engram/client'

/**
 * What a person calls a source: its title, else its file name, else its id (the caller's `source_id`,
 * or the id of its first task when none was given). The wire sends "" for an unset title or file name.
 */
export function sourceLabel(source: Pick<Source, 'source_id' | 'title' | 'filename'>): string {
  return source.title.trim() || source.filename.trim() || source.source_id
}

/**
 * The source a search hit came from, with its label, or null for a hit without one (entities, events,
 * passages written before sources existed). Passage hits carry `source_id` in `extras`, and the source's
 * `title` and `filename` there too when it has them (docs/forgetting.md).
 */
export function hitSource(hit: Pick<SearchHit, 'extras'>): { id: string; label: string } | null {
  const text = (key: string) => {
    const value = hit.extras[key]
    return typeof value === 'string' ? value : ''
  }
  const id = text('source_id')
  if (id === '') return null
  return {
    id,
    label: sourceLabel({ source_id: id, title: text('title'), filename: text('filename') }),
  }
}

/** Singular and plural of each count's name; an unknown count reads as its key. */
const NOUNS: Record<string, [string, string]> = {
  passages: ['passage', 'passages'],
  entities: ['entity', 'entities'],
  events: ['event', 'events'],
  relationships: ['relationship', 'relationships'],
  observations: ['observation', 'observations'],
  structured: ['structured record', 'structured records'],
}

/**
 * A source's counts on one line: passages always (a source is its passages), then whatever else it
 * supports, zeros left out so the line stays short. `1 passage · 4 entities · 2 relationships`.
 */
export function countSummary(counts: Source['counts']): string {
  const parts: string[] = []
  for (const [name, value] of Object.entries(counts)) {
    if (name !== 'passages' && value === 0) continue
    const [one, many] = NOUNS[name] ?? [name, name]
    parts.push(`${value} ${value === 1 ? one : many}`)
  }
  return parts.join(' · ')
}
