import { z } from 'zod'

/**
 * Entity labels the model may use: the ones the built-in local extractor emits, so entity resolution
 * treats both extractors' records alike. EVENT is not here: events have their own list.
 */
export const ENTITY_LABELS = [
  'PERSON',
  'PLACE',
  'ORGANIZATION',
  'CONCEPT',
  'MONEY',
  'QUANTITY',
  'EMAIL',
  'URL',
] as const

const polarity = z
  .enum(['positive', 'negative', 'neutral'])
  .describe('What the text says: achievement or liking positive, loss or need negative.')
const passages = z
  .array(z.string())
  .describe('Refs of the passages this comes from, e.g. ["p1"]. At least one.')

/*
 * The schema is sent as `response_format.json_schema` with `strict: true`, so it stays inside the
 * subset strict mode accepts: every property required, absence expressed as null, no
 * `additionalProperties`, no string or array length keywords (OpenAI, "Structured Outputs",
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas). Everything strict
 * mode cannot say (ids unique, references resolvable, dates well formed) is checked by
 * `checkReferences` after parsing.
 */
export const extractionOutput = z.object({
  entities: z.array(
    z.object({
      id: z.string().describe('Unique id of this entity within the answer: e1, e2, ...'),
      name: z.string().describe('Name as written in the text, without a leading article.'),
      label: z.enum(ENTITY_LABELS),
      description: z.string().nullable().describe('One short sentence, or null.'),
      aliases: z
        .array(z.string())
        .describe(
          'Other names the text gives this thing (an abbreviation it defines, a nickname), not the name itself; [] when none.',
        ),
      polarity,
      passages,
    }),
  ),
  events: z.array(
    z.object({
      id: z.string().describe('Unique id of this event within the answer: v1, v2, ...'),
      name: z
        .string()
        .describe('Short phrase: actor, verb, target ("Emily organized AI Ethics Meetup").'),
      verb: z.string().describe('The action, past tense, lower case ("organized").'),
      description: z.string().nullable().describe('The sentence that states the event, or null.'),
      happened_at: z
        .string()
        .nullable()
        .describe(
          'ISO 8601 date (YYYY-MM-DD), or date-time with offset when a time of day is stated; relative expressions resolved against the reference time; null when the text gives no time.',
        ),
      actor: z.string().nullable().describe('Entity id of who or what acted, or null.'),
      target: z.string().nullable().describe('Entity id of what was acted on, or null.'),
      context: z.array(z.string()).describe('Entity ids of where or within what it happened.'),
      amount: z
        .number()
        .nullable()
        .describe('A number the event involves (price, count), or null.'),
      polarity,
      passages,
    }),
  ),
  facts: z.array(
    z.object({
      subject: z.string().describe('Entity id.'),
      predicate: z.string().describe('Relation in UPPER_SNAKE_CASE, e.g. SISTER_OF, BASED_IN.'),
      object: z.string().describe('Entity id.'),
      description: z.string().nullable(),
      amount: z.number().nullable(),
      passages,
    }),
  ),
  observations: z.array(
    z.object({
      about: z.string().describe('Entity or event id the observation is about.'),
      text: z.string().describe('A short standalone statement worth remembering.'),
      polarity,
      passages,
    }),
  ),
})
export type ExtractionOutput = z.infer<typeof extractionOutput>

/** The JSON Schema sent to the endpoint (draft 2020-12 as zod emits it, minus the `$schema` key). */
export function extractionJsonSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(extractionOutput) as Record<
    string,
    unknown
  >
  return schema
}

// ISO 8601 calendar date or date-time, reduced precision allowed ("2024", "2024-03").
const ISO_DATE = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/

/**
 * What strict mode cannot express: unique ids, resolvable references, known passage refs, non-empty
 * names, well-formed dates. Returns one line per problem (empty when the answer is usable).
 */
export function checkReferences(output: ExtractionOutput, passageRefs: Set<string>): string[] {
  const issues: string[] = []
  const entityIds = new Set<string>()
  const allIds = new Set<string>()
  for (const [path, id] of [
    ...output.entities.map((e, i) => [`entities[${i}]`, e.id] as const),
    ...output.events.map((e, i) => [`events[${i}]`, e.id] as const),
  ]) {
    if (allIds.has(id)) issues.push(`${path}.id '${id}' is used twice`)
    allIds.add(id)
    if (path.startsWith('entities')) entityIds.add(id)
  }
  const entity = (path: string, id: string | null) => {
    if (id !== null && !entityIds.has(id)) issues.push(`${path} '${id}' is not an entity id`)
  }
  const cites = (path: string, refs: string[]) => {
    if (refs.length === 0) issues.push(`${path}.passages is empty`)
    for (const ref of refs)
      if (!passageRefs.has(ref)) issues.push(`${path}.passages has unknown ref '${ref}'`)
  }
  const named = (path: string, text: string) => {
    if (text.trim().length === 0) issues.push(`${path} is empty`)
  }
  output.entities.forEach((e, i) => {
    named(`entities[${i}].name`, e.name)
    cites(`entities[${i}]`, e.passages)
  })
  output.events.forEach((e, i) => {
    const path = `events[${i}]`
    named(`${path}.verb`, e.verb)
    entity(`${path}.actor`, e.actor)
    entity(`${path}.target`, e.target)
    e.context.forEach((c, j) => entity(`${path}.context[${j}]`, c))
    if (e.actor === null && e.target === null) issues.push(`${path} has neither actor nor target`)
    if (e.happened_at !== null && !isIsoDate(e.happened_at))
      issues.push(`${path}.happened_at '${e.happened_at}' is not an ISO 8601 date`)
    cites(path, e.passages)
  })
  output.facts.forEach((f, i) => {
    entity(`facts[${i}].subject`, f.subject)
    entity(`facts[${i}].object`, f.object)
    named(`facts[${i}].predicate`, f.predicate)
    cites(`facts[${i}]`, f.passages)
  })
  output.observations.forEach((o, i) => {
    if (!allIds.has(o.about))
      issues.push(`observations[${i}].about '${o.about}' is not an entity or event id`)
    named(`observations[${i}].text`, o.text)
    cites(`observations[${i}]`, o.passages)
  })
  return issues
}

function isIsoDate(value: string): boolean {
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
}
