import type { SearchHit } from '@engram/client'

/**
 * A hit's per-signal scores as `[signal, score]` rows: the named signals (`bm25`, `dense`, `rrf`, `cc`…)
 * in the server's order, then each plugin's as `plugin:<name>`. Absent signals are left out.
 */
export function signalRows(scores: SearchHit['scores']): [string, number][] {
  const rows: [string, number][] = []
  for (const [name, value] of Object.entries(scores)) {
    if (name === 'plugin') {
      for (const [plugin, score] of Object.entries(value as Record<string, number>)) {
        rows.push([`plugin:${plugin}`, score])
      }
    } else if (typeof value === 'number') {
      rows.push([name, value])
    }
  }
  return rows
}

/**
 * The entity a hit stands for, when it is one (entities, events, communities channels): its `node_id`
 * is then the entity's uuid. A passage's `node_id` names its source document instead.
 */
export function hitEntityUuid(hit: Pick<SearchHit, 'labels' | 'node_id'>): string | null {
  return hit.labels.includes('PASSAGE') || hit.node_id === '' ? null : hit.node_id
}

/** A score for display: four significant decimals, no trailing noise. */
export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(4)
}
