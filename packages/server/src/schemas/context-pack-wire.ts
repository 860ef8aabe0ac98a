import { z } from 'zod'
import { dateTimeWire } from './date-time-wire.js'
import type { ContextPack, Entity, Relationship } from '@engram/core'
import { stageTimingsWire } from './search-wire.js'
import { entityWire, relationshipWire, toEntity, toRelationship } from './wire-records.js'

/** An ISO calendar day, `2024-03-08`. */
const dayWire = z.string().meta({ format: 'date' })

const contextTripleWire = z
  .object({
    identified_entity: z
      .string()
      .describe(
        'The name of the seed entity the fact was found from; `bridge:<name>` for a fact reached through an entity it shares with a seed event.',
      ),
    source_chunk_ids: z.array(z.string()).describe('Ids of the passages its relationships cite.'),
    source_session_ids: z
      .array(z.string())
      .describe('`session_id` (or `session`) metadata of those passages, distinct.'),
    triple: z
      .array(z.xor([entityWire, relationshipWire]))
      .describe(
        'Entity, Relationship, Entity, ...: [actor, leg, event, leg, target] with missing parts left out, or [subject, relationship, object] for a direct fact.',
      ),
  })
  .meta({ id: 'ContextTriple' })

const temporalConflictWire = z
  .object({
    entity_uuid: z.string(),
    entity_name: z.string(),
    predicate: z.string().describe('The relationship name the statement makes.'),
    object_uuid: z.string(),
    object_name: z.string(),
    hubs: z
      .array(z.string())
      .describe(
        'Uuids of the events (or, for a direct statement, the relationships) asserting it, oldest first.',
      ),
    happened_ats: z.array(dayWire).describe('The distinct days it is dated, ascending.'),
    facts: z.array(z.string()).describe('Each assertion as a line of text, oldest first.'),
    kind: z
      .enum(['restated', 'superseded'])
      .describe(
        '`restated`: one statement asserted with different dates; `superseded`: a fact that a newer fact with another object ended (docs/time.md), `hubs` old then new.',
      ),
    windows: z
      .array(
        z.object({
          valid_at: dateTimeWire.optional().describe('Left out when unknown.'),
          invalid_at: dateTimeWire.optional().describe('Left out while it holds.'),
        }),
      )
      .describe('The validity window of each hub, in the order of `hubs`.'),
    superseded_by: z
      .object({
        hub: z.string(),
        predicate: z.string(),
        object_uuid: z.string(),
        object_name: z.string(),
      })
      .optional()
      .describe('For `superseded`: the fact that ended this one. Left out otherwise.'),
  })
  .meta({
    id: 'TemporalConflict',
    description:
      'A statement (entity, predicate, object) asserted by two or more events or relationships with different dates, or a fact a newer one superseded, with both validity windows.',
  })

const contextPathWire = z
  .object({
    hubs: z
      .tuple([z.string(), z.string()])
      .describe('Uuids of the two selected events the path joins.'),
    shared_entity: z.string().describe('Uuid of the entity both events involve.'),
    shared_entity_name: z.string(),
    weight: z.number().describe('Mean relevance of the best fact of each event that meets there.'),
    legs: z
      .tuple([z.string(), z.string()])
      .describe('Uuids of the two relationships that touch the shared entity, one per event.'),
  })
  .meta({
    id: 'ContextPath',
    description: 'Two events of the selected facts that share an entity.',
  })

const contextTopicWire = z
  .object({
    uuid: z.string(),
    name: z.string(),
    labels: z.array(z.string()),
    score: z.number().describe('Relevance summed over the selected facts that name the entity.'),
    facts: z.number().int().describe('How many selected facts name it (two or more).'),
  })
  .meta({ id: 'ContextTopic', description: 'An entity the selected facts are most about.' })

/** The body of `POST /retrieve/context` (CONTRACT.md section 6): every field present, arrays may be empty. */
export const contextPackWire = z.object({
  text_context: z
    .string()
    .describe('Topics, passages and facts as lines of text, ready for a prompt.'),
  triples: z.array(contextTripleWire),
  graph_session_ids: z.array(z.string()).describe('Sessions the facts cite, sorted.'),
  historical_context: z
    .array(z.string())
    .describe(
      "The text's best passages in the order they were written (each at most 1,000 characters); when no passage matches, the newest passages and structured records (as JSON).",
    ),
  paths: z.array(contextPathWire).describe('Best first, at most 20.'),
  source_passages: z
    .array(z.string())
    .describe("The text of the pack's passages, best first (at most `max_passages`)."),
  temporal_conflicts: z.array(temporalConflictWire),
  topics: z.array(contextTopicWire).describe('Best first, at most 5.'),
  stage_timings: stageTimingsWire,
})

const isRelationship = (x: Entity | Relationship): x is Relationship => 'subjectUuid' in x

/** The pack as the wire carries it: snake_case, no null (docs/wire-format.md). */
export function toContextWire(pack: ContextPack): z.infer<typeof contextPackWire> {
  return {
    text_context: pack.textContext,
    triples: pack.triples.map((t) => ({
      identified_entity: t.identifiedEntity,
      source_chunk_ids: t.sourceChunkIds,
      source_session_ids: t.sourceSessionIds,
      triple: t.triple.map((x) => (isRelationship(x) ? toRelationship(x) : toEntity(x))),
    })),
    graph_session_ids: pack.graphSessionIds,
    historical_context: pack.historicalContext,
    paths: pack.paths.map((p) => ({
      hubs: p.hubs,
      shared_entity: p.sharedEntity,
      shared_entity_name: p.sharedEntityName,
      weight: p.weight,
      legs: p.legs,
    })),
    source_passages: pack.sourcePassages,
    temporal_conflicts: pack.temporalConflicts.map((c) => ({
      entity_uuid: c.entityUuid,
      entity_name: c.entityName,
      predicate: c.predicate,
      object_uuid: c.objectUuid,
      object_name: c.objectName,
      hubs: c.hubs,
      happened_ats: c.happenedAts,
      facts: c.facts,
      kind: c.kind,
      windows: c.windows.map((w) => ({
        ...(w.validAt !== null ? { valid_at: w.validAt } : {}),
        ...(w.invalidAt !== null ? { invalid_at: w.invalidAt } : {}),
      })),
      ...(c.supersededBy !== null
        ? {
            superseded_by: {
              hub: c.supersededBy.hub,
              predicate: c.supersededBy.predicate,
              object_uuid: c.supersededBy.objectUuid,
              object_name: c.supersededBy.objectName,
            },
          }
        : {}),
    })),
    topics: pack.topics.map((t) => ({
      uuid: t.uuid,
      name: t.name,
      labels: t.labels,
      score: t.score,
      facts: t.facts,
    })),
    stage_timings: pack.stageTimings ?? {},
  }
}
