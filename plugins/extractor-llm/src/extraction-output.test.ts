import { describe, expect, it } from 'vitest'
import {
  checkReferences,
  extractionJsonSchema,
  extractionOutput,
  type ExtractionOutput,
} from './extraction-output.js'
import { fixture } from '../test/support/fake-chat-server.js'

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema } & Record<
  string,
  unknown
>

// Keywords strict mode does not accept (OpenAI, "Structured Outputs", supported schemas).
const UNSUPPORTED = ['minLength', 'maxLength', 'minItems', 'maxItems', 'default', 'allOf', 'not']

function strictModeProblems(schema: Schema, path = '$'): string[] {
  const problems = UNSUPPORTED.filter((k) => k in schema).map((k) => `${path} uses ${k}`)
  if (schema.type === 'object') {
    const keys = Object.keys(schema.properties ?? {})
    if (schema.additionalProperties !== false) problems.push(`${path} allows extra properties`)
    if (JSON.stringify(schema.required) !== JSON.stringify(keys))
      problems.push(`${path} does not require every property`)
    for (const key of keys)
      problems.push(...strictModeProblems(schema.properties![key]!, `${path}.${key}`))
  }
  if (schema.items !== undefined) problems.push(...strictModeProblems(schema.items, `${path}[]`))
  return problems
}

function recorded(): ExtractionOutput {
  const body = fixture('emily.completion.json') as { choices: { message: { content: string } }[] }
  return extractionOutput.parse(JSON.parse(body.choices[0]!.message.content))
}

describe('extraction output schema', () => {
  it('stays inside the JSON Schema subset of strict structured output', () => {
    const schema = extractionJsonSchema() as Schema
    expect(schema.type).toBe('object')
    expect(schema).not.toHaveProperty('$schema')
    expect(strictModeProblems(schema)).toEqual([])
  })

  it('accepts the recorded answer', () => {
    expect(checkReferences(recorded(), new Set(['p1']))).toEqual([])
  })

  it('reports what strict mode cannot check: ids, references, passages, dates', () => {
    const output = recorded()
    output.entities.push({ ...output.entities[0]!, name: 'Anna' })
    output.events[0]!.actor = 'e7'
    output.events[0]!.happened_at = 'last Friday'
    output.facts.push({
      subject: 'e1',
      predicate: ' ',
      object: 'v1',
      description: null,
      amount: null,
      passages: [],
    })
    output.observations[0]!.passages = ['p2']
    expect(checkReferences(output, new Set(['p1']))).toEqual([
      "entities[3].id 'e1' is used twice",
      "events[0].actor 'e7' is not an entity id",
      "events[0].happened_at 'last Friday' is not an ISO 8601 date",
      "facts[0].object 'v1' is not an entity id",
      'facts[0].predicate is empty',
      'facts[0].passages is empty',
      "observations[0].passages has unknown ref 'p2'",
    ])
  })

  it('accepts ISO dates of reduced precision and date-times with offsets', () => {
    const output = recorded()
    for (const date of ['2024', '2024-03', '2024-03-08T18:30:00+01:00', '2024-03-08T18:30Z']) {
      output.events[0]!.happened_at = date
      expect(checkReferences(output, new Set(['p1'])), date).toEqual([])
    }
  })
})
