import { EngramError, type ExtractedGraph } from '@engram/core'
import { afterEach, describe, expect, it } from 'vitest'
import { llmExtractor, type LlmExtractorOptions } from './llm-extractor.js'
import { fakeChatServer, fixture, type ScriptedReply } from '../test/support/fake-chat-server.js'

const EMILY = 'Emily organized the AI Ethics Meetup in London on March 8, 2024.'
const API_KEY = 'sk-test-SECRET-0123456789'

type Server = Awaited<ReturnType<typeof fakeChatServer>>
let server: Server | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function setup(replies: ScriptedReply[], options: Partial<LlmExtractorOptions> = {}) {
  server = await fakeChatServer(replies)
  const extractor = llmExtractor({
    baseUrl: server.baseUrl,
    model: 'gpt-4o-mini',
    apiKey: API_KEY,
    retryBaseMs: 1,
    retryMaxMs: 5,
    ...options,
  })
  return { server, extractor }
}

const input = (passages = [{ id: 'passage-1', text: EMILY }]) => ({
  passages,
  sourceTimestamp: '2024-03-10T09:00:00.000Z',
  observateFor: [],
})
const run = (
  extractor: ReturnType<typeof llmExtractor>,
  passages?: { id: string; text: string }[],
  signal = new AbortController().signal,
) => extractor.extract(input(passages), { signal })

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(EngramError)
  return error as EngramError
}

function legsOf(graph: ExtractedGraph) {
  const byName = new Map(graph.entities.map((e) => [e.name, e]))
  const event = graph.entities.find((e) => e.labels.includes('EVENT'))!
  return { byName, event, legs: graph.relationships.filter((r) => r.eventKey === event.key) }
}

const ok = (name = 'emily.completion.json'): ScriptedReply => ({ body: fixture(name) })

describe('llm extractor', () => {
  it('maps a structured answer to the event-centric graph, citing the input passages', async () => {
    const { server, extractor } = await setup([ok()])
    const graph = await run(extractor)

    const { byName, event, legs } = legsOf(graph)
    expect(byName.get('Emily')?.labels).toEqual(['PERSON'])
    expect(byName.get('London')?.labels).toEqual(['PLACE'])
    expect(byName.get('AI Ethics Meetup')).toBeDefined()
    expect(event).toMatchObject({ happenedAt: '2024-03-08', properties: { verb: 'organized' } })
    const key = (name: string) => byName.get(name)!.key
    expect(legs.map((r) => [r.subjectKey, r.name, r.objectKey])).toEqual([
      [key('Emily'), 'ORGANIZED', event.key],
      [event.key, 'TARGETED', key('AI Ethics Meetup')],
      [event.key, 'OCCURRED_IN', key('London')],
    ])
    expect(graph.observations).toEqual([
      expect.objectContaining({ aboutKey: key('Emily'), polarity: 'positive' }),
    ])
    for (const record of [...graph.entities, ...graph.relationships, ...graph.observations])
      expect(record.passageIds).toEqual(['passage-1'])
    expect(graph.usage).toEqual({ promptTokens: 642, completionTokens: 236 })

    // The request: chat completions with strict JSON-schema output and the date anchor.
    const [request] = server.requests
    expect(request).toMatchObject({ method: 'POST', url: '/v1/chat/completions' })
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`)
    const body = request!.body as {
      model: string
      temperature: number
      messages: { role: string; content: string }[]
      response_format: { type: string; json_schema: { name: string; strict: boolean } }
    }
    expect(body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0 })
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'knowledge_graph', strict: true, schema: { type: 'object' } },
    })
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user'])
    expect(body.messages[1]!.content).toContain('Reference time: 2024-03-10T09:00:00.000Z (Sunday)')
    expect(body.messages[1]!.content).toContain(`[p1]\n${EMILY}`)
  })

  it('waits as long as a 429 asks (retry-after-ms), then succeeds', async () => {
    const { server, extractor } = await setup([
      {
        status: 429,
        headers: { 'retry-after-ms': '150' },
        body: fixture('rate-limited.error.json'),
      },
      ok(),
    ])
    const graph = await run(extractor)
    expect(graph.entities.length).toBeGreaterThan(0)
    expect(server.requests).toHaveLength(2)
    // The computed backoff is at most 5 ms here, so the gap is the server's.
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(140)
  })

  it('gives up after maxRetries on repeated 500s with a clear error', async () => {
    const error = { status: 500, body: fixture('server-error.error.json') }
    const { server, extractor } = await setup([error, error, error, ok()], { maxRetries: 2 })
    const failed = await failure(run(extractor))
    expect(failed.code).toBe('SERVICE_UNAVAILABLE')
    expect(failed.message).toContain('failed 3 times')
    expect(failed.message).toContain('HTTP 500: The server had an error')
    expect(failed.message).toContain("model 'gpt-4o-mini'")
    expect(server.requests).toHaveLength(3)
  })

  it('asks once for a repair when the answer is not valid JSON', async () => {
    const { server, extractor } = await setup([ok('emily-malformed.completion.json'), ok()])
    const graph = await run(extractor)
    expect(legsOf(graph).legs).toHaveLength(3)
    expect(graph.usage).toEqual({ promptTokens: 642 * 2, completionTokens: 48 + 236 })
    const repair = (server.requests[1]!.body as { messages: { role: string; content: string }[] })
      .messages
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(repair[2]!.content).toContain('"AI Ethics Meet')
    expect(repair[3]!.content).toContain('not valid JSON')
  })

  it('fails with a clear error when the repaired answer is still off-schema', async () => {
    const invalid = ok('emily-invalid.completion.json')
    const { server, extractor } = await setup([invalid, invalid, ok()])
    const failed = await failure(run(extractor))
    expect(failed.code).toBe('INTERNAL_ERROR')
    expect(failed.message).toContain('does not match the extraction schema')
    expect(failed.message).toContain('entities.0.label')
    expect(failed.resolution).toContain('structured output')
    expect(server.requests).toHaveLength(2)
  })

  it('stops at once when aborted, in flight or while backing off', async () => {
    const { server, extractor } = await setup([{ hang: true }])
    const controller = new AbortController()
    const pending = run(extractor, undefined, controller.signal)
    await server.untilRequests(1)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    // The server sees the connection go once the client drops it.
    await server.untilCancelled(1)
    expect(server.requests).toHaveLength(1)

    await server.close()
    // An hour's backoff asked: only an abort that ends the wait lets this test finish within its
    // timeout (no clock of its own). The transport tells when the 429 is in the extractor's hands.
    let answered!: () => void
    const received = new Promise<void>((resolve) => (answered = resolve))
    const backingOff = await setup([{ status: 429, headers: { 'retry-after': '3600' } }, ok()], {
      maxRetryAfterMs: 2 * 3_600_000,
      async fetch(url, init) {
        const response = await fetch(url, init)
        const body = await response.text()
        answered()
        return new Response(body, { status: response.status, headers: response.headers })
      },
    })
    const second = new AbortController()
    const waiting = run(backingOff.extractor, undefined, second.signal)
    await received
    second.abort()
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' })
    expect(backingOff.server.requests).toHaveLength(1)
  })

  it('retries a request that times out', async () => {
    // The 100 ms limit holds for every attempt: on a loaded machine a later answer may miss it too,
    // and is retried in turn (hence the spare replies).
    const { server, extractor } = await setup([{ hang: true }, ok(), ok(), ok()], {
      timeoutMs: 100,
    })
    const graph = await run(extractor)
    expect(graph.entities.length).toBeGreaterThan(0)
    // The first attempt, never answered, was given up at its timeout and retried.
    await server.untilCancelled(1)
    expect(server.requests.length).toBeGreaterThanOrEqual(2)
  })

  it('never shows the API key, not even when the endpoint echoes it', async () => {
    const { server, extractor } = await setup([
      { status: 401, body: fixture('invalid-api-key.error.json') },
    ])
    expect(JSON.stringify(extractor)).not.toContain(API_KEY)
    const failed = await failure(run(extractor))
    expect(failed.message).toContain('HTTP 401')
    expect(failed.message).toContain('[redacted]')
    expect(`${failed.message} ${failed.resolution} ${String(failed.detail)}`).not.toContain(API_KEY)
    expect(failed.resolution).toContain('EXTRACTOR_API_KEY')
    expect(server.requests).toHaveLength(1)
  })

  it('reports a refusal without asking again', async () => {
    const { server, extractor } = await setup([ok('refusal.completion.json'), ok()])
    const failed = await failure(run(extractor))
    expect(failed.message).toContain("refused: I'm sorry")
    expect(server.requests).toHaveLength(1)
  })

  it('batches passages and merges entities across batches by label and name', async () => {
    const { server, extractor } = await setup([ok(), ok()], { batchChars: 80 })
    const graph = await run(extractor, [
      { id: 'passage-1', text: EMILY },
      { id: 'passage-2', text: EMILY },
    ])
    expect(server.requests).toHaveLength(2)
    expect(graph.entities.find((e) => e.name === 'Emily')?.passageIds).toEqual([
      'passage-1',
      'passage-2',
    ])
    const events = graph.entities.filter((e) => e.labels.includes('EVENT'))
    expect(events.map((e) => e.key)).toEqual(['EVENT:passage-1:0', 'EVENT:passage-2:0'])
    expect(graph.usage).toEqual({ promptTokens: 642 * 2, completionTokens: 236 * 2 })
  })

  it('keeps the other names the model gives an entity as its aliases, each once, across batches', async () => {
    /** The Emily answer with `aliases` given to its meetup entity (the second). */
    const withAliases = (aliases: string[]): ScriptedReply => {
      const body = structuredClone(fixture('emily.completion.json')) as {
        choices: { message: { content: string } }[]
      }
      const message = body.choices[0]!.message
      const content = JSON.parse(message.content) as { entities: { aliases: string[] }[] }
      content.entities[1]!.aliases = aliases
      message.content = JSON.stringify(content)
      return { body }
    }
    const { extractor } = await setup(
      [withAliases(['AIEM', ' ai ethics meetup ', 'AIEM']), withAliases(['Ethics Meetup', 'aiem'])],
      { batchChars: 80 },
    )
    const graph = await run(extractor, [
      { id: 'passage-1', text: EMILY },
      { id: 'passage-2', text: EMILY },
    ])
    const byName = new Map(graph.entities.map((e) => [e.name, e]))
    expect(byName.get('AI Ethics Meetup')!.aliases).toEqual(['AIEM', 'Ethics Meetup'])
    expect(byName.get('Emily')!.aliases).toBeUndefined()
  })

  it('splits a batch whose answer was cut off at the output limit', async () => {
    const cut = structuredClone(fixture('emily.completion.json')) as {
      choices: { finish_reason: string }[]
    }
    cut.choices[0]!.finish_reason = 'length'
    const { server, extractor } = await setup([{ body: cut }, ok(), ok()])
    await run(extractor, [
      { id: 'passage-1', text: EMILY },
      { id: 'passage-2', text: 'Bob met Emily.' },
    ])
    const prompts = server.requests.map(
      (r) => (r.body as { messages: { content: string }[] }).messages[1]!.content,
    )
    expect(prompts).toHaveLength(3)
    expect(prompts[1]).toContain(EMILY)
    expect(prompts[1]).not.toContain('Bob met Emily.')
    expect(prompts[2]).toContain('Bob met Emily.')
  })

  it('refuses a configuration without an http(s) URL or a model', () => {
    expect(() => llmExtractor({ baseUrl: 'localhost:11434', model: 'llama3' })).toThrow(
      /not an http\(s\) URL/,
    )
    expect(() => llmExtractor({ baseUrl: 'http://localhost:11434/v1', model: ' ' })).toThrow(
      /model is empty/,
    )
  })
})
