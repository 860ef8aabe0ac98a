import { z } from 'zod'
import type { ChangelogEntry } from '@engram/core'
import { dateTimeWire } from './date-time-wire.js'
import { entityWire, relationshipWire } from './wire-records.js'

/** A node inside a change (spec section 2.6): description, labels, name, properties, uuid. */
const changeNodeWire = entityWire
  .pick({ uuid: true, name: true, description: true, labels: true, properties: true })
  .meta({ id: 'ChangeNode' })

/** The predicate inside a relationship change: amount, description, name, properties, uuid. */
const changePredicateWire = relationshipWire
  .pick({ uuid: true, name: true, description: true, amount: true, properties: true })
  .meta({ id: 'ChangePredicate' })

const propertyChangeWire = z.object({
  property: z.string(),
  previous_value: z.unknown().optional().describe('Left out when the property had no value.'),
  new_value: z.unknown().optional().describe('Left out when the property was removed.'),
})

/**
 * `change` of a changelog entry: `type` repeats the entry's type; node changes hold `node`,
 * relationship changes `subject`, `predicate` and `object`; `*_properties_updated` list `properties`.
 */
export const changeWire = z.looseObject({
  type: z.string(),
  node: changeNodeWire.optional(),
  subject: changeNodeWire.optional(),
  predicate: changePredicateWire.optional(),
  object: changeNodeWire.optional(),
  properties: z.array(propertyChangeWire).optional(),
  reason: z.string().optional().describe('Why a node was merged into an existing one.'),
  similarity: z.number().optional().describe('Name similarity of a merge, when one was computed.'),
})

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A copy of `o` without its null members. */
const withoutNulls = (o: Json): Json =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null))

/**
 * The stored change as the wire shows it: no null member. Changes are stored as written (the graph
 * writers put null in unset members), so the mapping happens here, on the way out: a null description
 * becomes "", any other null member is left out.
 */
export function toChange(change: Json): z.infer<typeof changeWire> {
  const out: Json = withoutNulls(change)
  for (const key of ['node', 'subject', 'predicate', 'object'] as const) {
    const member = out[key]
    if (isObject(member))
      out[key] = { ...withoutNulls(member), description: member.description ?? '' }
  }
  if (Array.isArray(out.properties))
    out.properties = out.properties.map((p: unknown) => (isObject(p) ? withoutNulls(p) : p))
  return out as z.infer<typeof changeWire>
}

export const changelogWire = z
  .object({
    id: z.string(),
    timestamp: dateTimeWire,
    type: z.string(),
    change: changeWire,
  })
  .meta({ id: 'Changelog' })

export const toChangelog = (c: ChangelogEntry): z.infer<typeof changelogWire> => ({
  id: c.id,
  timestamp: c.timestamp,
  type: c.type,
  change: toChange(c.change),
})
