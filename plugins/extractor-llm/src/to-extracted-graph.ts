import { normalizeEntityName, otherNames, predicateName, type ExtractedGraph } from '@engram/core'
import type { ExtractionOutput } from './extraction-output.js'

/** One batch's validated answer, with its prompt refs mapped back to passage ids. */
export interface AnsweredBatch {
  output: ExtractionOutput
  passageIds: Map<string, string>
}

type Entity = ExtractedGraph['entities'][number]

/**
 * Adds the other names the model gave an entity (`aliases`, as the local extractor fills it): trimmed,
 * each once by its normalised form, never the entity's own name; left unset while there are none.
 */
function addAliases(entity: Entity, aliases: readonly string[]): void {
  const all = otherNames(entity.name, [...(entity.aliases ?? []), ...aliases.map((a) => a.trim())])
  if (all.length > 0) entity.aliases = all
}

/**
 * Maps the model's answers to the pipeline's graph, with the local extractor's conventions so both
 * extractors produce the same shapes: entity keys `LABEL:normalised name` (one entity per key across
 * batches, passage ids merged), event keys `EVENT:<first passage id>:<index>`, and per event the legs
 * actor -VERB-> EVENT -TARGETED-> target and EVENT -OCCURRED_IN-> context, all carrying the event key
 * (the pipeline turns it into the legs' shared flow_key). Facts become direct edges without one.
 */
export function toExtractedGraph(
  batches: AnsweredBatch[],
  observateFor: string[],
): Omit<ExtractedGraph, 'usage'> {
  const entities = new Map<string, Entity>()
  const relationships: ExtractedGraph['relationships'] = []
  const observations: ExtractedGraph['observations'] = []
  const focus = observateFor.map((f) => f.toLowerCase()).filter((f) => f.length > 0)

  for (const { output, passageIds } of batches) {
    const cite = (refs: string[]) => [
      ...new Set(refs.map((ref) => passageIds.get(ref)).filter((id) => id !== undefined)),
    ]
    const keys = new Map<string, string>()

    for (const e of output.entities) {
      const name = e.name.trim()
      const key = `${e.label}:${normalizeEntityName(name)}`
      keys.set(e.id, key)
      const existing = entities.get(key)
      if (existing === undefined) {
        const entity: Entity = {
          key,
          name,
          labels: [e.label],
          description: e.description,
          properties: {},
          polarity: e.polarity,
          passageIds: cite(e.passages),
        }
        addAliases(entity, e.aliases)
        entities.set(key, entity)
        continue
      }
      existing.description ??= e.description
      addAliases(existing, e.aliases)
      for (const id of cite(e.passages))
        if (!existing.passageIds.includes(id)) existing.passageIds.push(id)
    }

    output.events.forEach((v, index) => {
      const cited = cite(v.passages)
      const key = `EVENT:${cited[0]}:${index}`
      keys.set(v.id, key)
      const verb = v.verb.trim().toLowerCase()
      entities.set(key, {
        key,
        name: v.name.trim(),
        labels: ['EVENT'],
        description: v.description,
        properties: { verb },
        happenedAt: v.happened_at === null ? null : isoInstant(v.happened_at),
        polarity: v.polarity,
        passageIds: cited,
      })
      const leg = (subjectKey: string, objectKey: string, name: string, first: boolean) =>
        relationships.push({
          subjectKey,
          objectKey,
          name,
          description: first ? (v.description ?? v.name) : null,
          amount: v.amount,
          eventKey: key,
          passageIds: cited,
        })
      if (v.actor !== null) leg(keys.get(v.actor)!, key, predicateName(verb), true)
      if (v.target !== null) leg(key, keys.get(v.target)!, 'TARGETED', v.actor === null)
      for (const place of new Set(v.context))
        if (place !== v.target) leg(key, keys.get(place)!, 'OCCURRED_IN', false)
    })

    for (const f of output.facts) {
      relationships.push({
        subjectKey: keys.get(f.subject)!,
        objectKey: keys.get(f.object)!,
        name: predicateName(f.predicate),
        description: f.description,
        amount: f.amount,
        eventKey: null,
        passageIds: cite(f.passages),
      })
    }

    for (const o of output.observations) {
      const text = o.text.trim()
      const lower = text.toLowerCase()
      observations.push({
        aboutKey: keys.get(o.about)!,
        text,
        polarity: o.polarity,
        labels: focus.some((f) => lower.includes(f)) ? ['FOCUS'] : [],
        passageIds: cite(o.passages),
      })
    }
  }
  return { entities: [...entities.values()], relationships, observations }
}

/** A date stays a date ("2024-03-08", as the local extractor writes it); a date-time becomes UTC ISO. */
function isoInstant(value: string): string {
  return value.includes('T') ? new Date(value).toISOString() : value
}
