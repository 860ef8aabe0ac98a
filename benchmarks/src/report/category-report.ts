import { round4 } from '../config/verdict.js'
import { LOCOMO_CATEGORIES } from '../loaders/locomo.js'
import type { ConfigResult } from '../run/run-types.js'
import { fmt4, mdTable } from './format.js'

/** A category's name for tables: `2 temporal` for LoCoMo's numbers, the raw value otherwise. */
export function categoryName(dataset: string, category: string): string {
  const name = dataset.startsWith('locomo') ? LOCOMO_CATEGORIES[category] : undefined
  return name === undefined ? category : `${category} ${name}`
}

/** Signed difference to 4 decimals (`+0.0012`, `-0.0300`, `0.0000`). */
export function signed4(x: number): string {
  const r = round4(x)
  return r > 0 ? `+${r.toFixed(4)}` : r < 0 ? r.toFixed(4) : '0.0000'
}

/** `a - b` as the tables show them: the difference of the two numbers rounded to 4 decimals. */
export function diff4(a: number, b: number): string {
  return signed4(round4(a) - round4(b))
}

/**
 * The per-category table of one config run (systems that recorded `byCategory`): one row per category and
 * system, every metric of the config, and each peer's difference to the Engram system on the same
 * category and metric (peer minus Engram). [] when no system has per-category numbers.
 */
export function categorySection(result: ConfigResult): string[] {
  const systems = result.systems.filter((s) => s.byCategory !== undefined)
  if (systems.length === 0) return []
  const engram = systems.find((s) => s.role === 'engram')
  const categories = [...new Set(systems.flatMap((s) => Object.keys(s.byCategory!)))]
  const rows: string[][] = []
  for (const c of categories)
    for (const s of systems) {
      const scores = s.byCategory![c]
      const ours = engram?.byCategory?.[c]
      const diff = result.metrics.map((m) =>
        s === engram || scores === undefined || ours === undefined
          ? '-'
          : diff4(scores.metrics[m]!, ours.metrics[m]!),
      )
      rows.push([
        categoryName(result.dataset, c),
        String(scores?.queries ?? '-'),
        s.role === 'engram' ? `**engram ${result.condition}**` : s.name,
        ...result.metrics.map((m) => fmt4(scores?.metrics[m])),
        diff.join(' / '),
      ])
    }
  return [
    `## Per question category in the run of \`${result.config}\``,
    '',
    `Each category's recall is the mean over its own questions (a question counts in one category). ` +
      `The last column is the peer minus engram ${result.condition} on that category (${result.metrics.join(' / ')}): ` +
      'negative means the peer is lower.',
    '',
    mdTable(
      [
        'category',
        'questions',
        'system',
        ...result.metrics,
        `peer - engram (${result.metrics.join(' / ')})`,
      ],
      rows,
    ),
    '',
  ]
}
