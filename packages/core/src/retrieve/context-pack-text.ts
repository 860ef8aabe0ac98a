import { clipText } from '../analysis/one-spaced.js'
import type { Entity } from '../model/entity.js'
import { sessionOf, type Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import type { Fact } from './context-pack-facts.js'

const MAX_ITEM_CHARS = 300
const clip = (text: string) => clipText(text, MAX_ITEM_CHARS)

/** `name: description @happened_at`, as the original printed fact items. */
export function itemText(e: Entity | undefined): string {
  if (e === undefined) return ''
  const description = e.description ? `: ${clip(e.description)}` : ''
  return `${e.name}${description}${e.happenedAt ? ` @${e.happenedAt}` : ''}`
}

/**
 * One fact as a line of `text_context` (the original's layout):
 * `Actor: <n> | <r> | Event: <m> | <r2> | Target: <b>` ("Context" for a context leg), or
 * `Fact: <n> | <r> | <b>` for a direct edge; superseded facts start with `[superseded] `, and the
 * sessions of the passages it came from follow in parentheses.
 */
export function factLine(
  f: Fact,
  entity: (n: number | null) => Entity | undefined,
  relationship: (e: number | null) => Relationship | undefined,
  sessions: readonly string[],
): string {
  const parts: string[] = []
  if (f.hub === null) {
    parts.push(
      `Fact: ${itemText(entity(f.actor))}`,
      relationship(f.actorLeg)?.name ?? '',
      itemText(entity(f.target)),
    )
  } else {
    if (f.actor !== null)
      parts.push(`Actor: ${itemText(entity(f.actor))}`, relationship(f.actorLeg)?.name ?? '')
    parts.push(`Event: ${itemText(entity(f.hub))}`)
    if (f.target !== null)
      parts.push(
        relationship(f.leg)?.name ?? '',
        `${f.context ? 'Context' : 'Target'}: ${itemText(entity(f.target))}`,
      )
  }
  const suffix = sessions.length > 0 ? ` (${sessions.join(', ')})` : ''
  return `${f.superseded ? '[superseded] ' : ''}${parts.join(' | ')}${suffix}`
}

/** `[topic] <name> (<labels>): <description>`. */
export function topicLine(e: Entity): string {
  const labels = e.labels.length > 0 ? ` (${e.labels.join(', ')})` : ''
  return `[topic] ${e.name}${labels}${e.description ? `: ${clip(e.description)}` : ''}`
}

/** Distinct session names in the metadata of passages (`session_id`, else `session`). */
export function sessionsOf(passages: readonly (Passage | undefined)[]): string[] {
  const out = new Set<string>()
  for (const p of passages) {
    const session = p === undefined ? null : sessionOf(p.metadata)
    if (session !== null) out.add(session)
  }
  return [...out].sort()
}
