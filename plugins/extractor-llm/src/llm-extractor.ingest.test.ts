import {
  createEngine,
  defaultIngestionComponents,
  INGEST_TEXT,
  memoryAdapter,
  type TextIngestPayload,
} from '@engram/core'
import { afterEach, describe, expect, it } from 'vitest'
import { llmExtractor } from './llm-extractor.js'
import { fakeChatServer, fixture, type ScriptedReply } from '../test/support/fake-chat-server.js'

const payload: TextIngestPayload = {
  text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
  json: null,
  metaKeys: {},
  observateFor: [],
  sourceTimestamp: '2024-03-10T09:00:00.000Z',
  skipEnrichment: false,
}

let close: (() => Promise<void>) | null = null
afterEach(async () => {
  await close?.()
  close = null
})

/** The engine's text ingestion with this extractor in place of the local one. */
async function ingest(replies: ScriptedReply[]) {
  const server = await fakeChatServer(replies)
  close = server.close
  const extractor = llmExtractor({
    baseUrl: server.baseUrl,
    model: 'gpt-4o-mini',
    maxRetries: 1,
    retryBaseMs: 1,
  })
  // No embedder: this test is about extraction and must not depend on the default embedder.
  const components = {
    ...defaultIngestionComponents({ extractor }),
    embed: null,
    embedderInfo: null,
  }
  const engram = createEngine({ storage: memoryAdapter(), version: 'test', ingestion: components })
  await engram.start()
  const { task } = await engram.tasks.submit({ brainId: 'default', kind: INGEST_TEXT, payload })
  await engram.tasks.idle()
  return { engram, task: (await engram.tasks.get('default', task.id))! }
}

describe('llm extractor in the ingestion pipeline', () => {
  it('completes the task, records token usage on it and builds the event legs', async () => {
    const { engram, task } = await ingest([{ body: fixture('emily.completion.json') }])
    expect(task.status).toBe('completed')
    expect(task.counts).toMatchObject({ prompt_tokens: 642, completion_tokens: 236 })
    expect(task.result).toMatchObject({ entities: 3, events: 1, relationships: 3, observations: 1 })

    const store = await engram.store('default')
    const entities = (await store.entities.list({ limit: 100, skip: 0 })).items
    const event = entities.find((e) => e.labels.includes('EVENT'))!
    expect(event.happenedAt).toBe('2024-03-08')
    const legs = await store.relationships.of(event.uuid)
    expect(legs).toHaveLength(3)
    expect(new Set(legs.map((l) => l.flowKey)).size).toBe(1)
    expect(legs[0]!.flowKey).not.toBeNull()
    const emily = entities.find((e) => e.name === 'Emily')!
    const observations = (await store.observations.list({ limit: 10, skip: 0 })).items
    expect(observations.map((o) => o.resourceId)).toEqual([emily.uuid])
    await engram.stop({ graceMs: 0 })
  })

  it('fails the task with the extractor error when the endpoint keeps failing', async () => {
    const error = { status: 503, body: fixture('server-error.error.json') }
    const { engram, task } = await ingest([error, error])
    expect(task).toMatchObject({ status: 'failed', stage: 'failed' })
    expect(task.error).toContain('failed 2 times')
    await engram.stop({ graceMs: 0 })
  })
})
