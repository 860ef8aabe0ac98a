import { z } from 'zod'
import {
  sourceIdOf,
  type Entity,
  type Observation,
  type Passage,
  type Relationship,
  type StructuredRecord,
  type Task,
} from '@engram/core'
import { jsonObjectWire } from './common.js'
import { dateTimeWire } from './date-time-wire.js'

/**
 * Wire shapes (snake_case, spec section 2) and the mappers from core records. No member is ever null
 * (docs/wire-format.md): an unset string is "", an unset object {}, an unset number is left out. The
 * `id`s name them as components of the OpenAPI document, so generated clients get named types.
 */
export const observationWire = z
  .object({
    id: z.string(),
    resource_id: z.string(),
    text: z.string(),
    metadata: jsonObjectWire,
    inserted_at: dateTimeWire,
  })
  .meta({ id: 'Observation' })

/** A fact's bi-temporal window (docs/time.md); a field is left out when unbounded or unknown. */
const validityWire = {
  valid_at: dateTimeWire
    .optional()
    .describe('Event time the fact became true. Left out when unknown or not a fact.'),
  invalid_at: dateTimeWire
    .optional()
    .describe(
      'Event time the fact stopped being true; left out while it holds (`deprecated` is true once it has passed).',
    ),
  created_at: dateTimeWire
    .optional()
    .describe(
      'System time the brain learned the record; left out for records written before it was kept.',
    ),
  expired_at: dateTimeWire
    .optional()
    .describe('System time the brain learned that the fact ended; left out while it holds.'),
}

/** The wire's window fields of a record: those that are set. */
const toValidity = (r: {
  validAt?: string | null
  invalidAt?: string | null
  createdAt?: string | null
  expiredAt?: string | null
}) => ({
  ...(r.validAt != null ? { valid_at: r.validAt } : {}),
  ...(r.invalidAt != null ? { invalid_at: r.invalidAt } : {}),
  ...(r.createdAt != null ? { created_at: r.createdAt } : {}),
  ...(r.expiredAt != null ? { expired_at: r.expiredAt } : {}),
})

export const entityWire = z
  .object({
    uuid: z.string(),
    name: z.string(),
    description: z.string().describe('"" when unset.'),
    labels: z.array(z.string()),
    properties: jsonObjectWire,
    metadata: jsonObjectWire.describe('{} when unset.'),
    happened_at: z
      .string()
      .describe('When the event the entity stands for happened, as written; "" when unset.'),
    last_updated: dateTimeWire,
    polarity: z.enum(['positive', 'negative', 'neutral']),
    ...validityWire,
    observations: z.array(observationWire),
  })
  .meta({ id: 'Entity' })

export const relationshipWire = z
  .object({
    uuid: z.string(),
    name: z.string(),
    description: z.string().describe('"" when unset.'),
    amount: z.number().optional().describe('Left out when unset.'),
    deprecated: z.boolean(),
    direction: z.enum(['in', 'out', 'neutral']),
    flow_key: z.string().describe('Shared by the legs of one event; "" when unset.'),
    level: z.string().describe('"" when unset.'),
    properties: jsonObjectWire,
    last_updated: dateTimeWire,
    ...validityWire,
    observations: z.array(observationWire),
  })
  .meta({ id: 'Relationship' })

export const tripleWire = z.object({
  subject: entityWire,
  predicate: relationshipWire,
  object: entityWire,
})

export const passageWire = z
  .object({
    id: z.string(),
    text: z.string(),
    metadata: jsonObjectWire,
    inserted_at: dateTimeWire,
    brain_version: z.string(),
    source_id: z
      .string()
      .describe('The source it belongs to (GET /sources/{source_id}); "" for none.'),
  })
  .meta({ id: 'Passage' })

export const structuredWire = z
  .object({
    id: z.string(),
    data: jsonObjectWire,
    types: z.array(z.string()),
    metadata: jsonObjectWire,
    inserted_at: dateTimeWire,
    brain_version: z.string(),
  })
  .meta({ id: 'StructuredRecord' })

export const taskWire = z
  .object({
    id: z.string(),
    task_id: z.string(),
    status: z.enum(['queued', 'started', 'completed', 'partial_failed', 'failed']),
    stage: z.string(),
    result: jsonObjectWire
      .nullable()
      .describe('Counts of what was written; null until the task ends (spec: "any, may be null").'),
    error: z.string().describe('"" unless the task failed or partly failed.'),
    counts: z.record(z.string(), z.number()),
    created_at: dateTimeWire,
    updated_at: dateTimeWire,
  })
  .meta({ id: 'Task' })

export const toObservation = (o: Observation): z.infer<typeof observationWire> => ({
  id: o.id,
  resource_id: o.resourceId,
  text: o.text,
  metadata: o.metadata,
  inserted_at: o.insertedAt,
})

export const toEntity = (
  e: Entity,
  observations: Observation[] = [],
): z.infer<typeof entityWire> => ({
  uuid: e.uuid,
  name: e.name,
  description: e.description ?? '',
  labels: e.labels,
  properties: e.properties,
  metadata: e.metadata ?? {},
  happened_at: e.happenedAt ?? '',
  last_updated: e.lastUpdated,
  polarity: e.polarity,
  ...toValidity(e),
  observations: observations.map(toObservation),
})

export const toRelationship = (r: Relationship): z.infer<typeof relationshipWire> => ({
  uuid: r.uuid,
  name: r.name,
  description: r.description ?? '',
  ...(r.amount !== null ? { amount: r.amount } : {}),
  deprecated: r.deprecated,
  direction: r.direction,
  flow_key: r.flowKey ?? '',
  level: r.level ?? '',
  properties: r.properties,
  last_updated: r.lastUpdated,
  ...toValidity(r),
  observations: [],
})

export const toPassage = (p: Passage): z.infer<typeof passageWire> => ({
  id: p.id,
  text: p.text,
  metadata: p.metadata,
  inserted_at: p.insertedAt,
  brain_version: p.brainVersion,
  source_id: sourceIdOf(p) ?? '',
})

export const toStructured = (s: StructuredRecord): z.infer<typeof structuredWire> => ({
  id: s.id,
  data: s.data,
  types: s.types,
  metadata: s.metadata,
  inserted_at: s.insertedAt,
  brain_version: s.brainVersion,
})

export const toTask = (t: Task): z.infer<typeof taskWire> => ({
  id: t.id,
  task_id: t.id,
  status: t.status,
  stage: t.stage,
  result: t.result,
  error: t.error ?? '',
  counts: t.counts,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
})
