import { hashToken } from '@engram/core'
import { buildApp, jsonBody } from '@engram/server'
import { ingestLocomoBrain } from './engine-suites.js'
import { cycle } from './latency-fixture.js'
import type { LatencySuite } from './latency-suites.js'

const TOKEN = 'bench-response-body-token-0123456789'

/** Whether a JSON text holds a character beyond Latin-1 (V8's stringify output is then two-byte). */
const beyondLatin1 = (text: string) => /[\u0100-\uffff]/.test(text)

/**
 * Response bodies (issue 29 item 1): the server's `jsonBody` against what it did before,
 * `JSON.stringify` and then Fastify's `Buffer.byteLength` (Content-Length) and the UTF-8 encoding
 * (`Buffer.from`, as the socket write does), on real responses of the LoCoMo conv-26 brain captured
 * through the app (`inject`) and parsed back: context packs and searches of its questions, and
 * pages of 100 entities.
 */
export const responseBodySuite: LatencySuite = {
  name: 'response-body',
  stage:
    'JSON response bodies: `jsonBody` (packages/server/src/json-body.ts) against JSON.stringify',
  missing: null,
  async add(bench, fixture) {
    const brain = await ingestLocomoBrain(fixture, { systemTokenHash: hashToken(TOKEN) })
    const { engram, brainId } = brain
    const app = await buildApp({ engram })
    const headers = { servicepat: TOKEN, 'x-brain-id': brainId }
    const body = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
      if (r.statusCode !== 200) throw new Error(`${method} ${url} answered ${r.statusCode}`)
      return r.body
    }
    const kinds: Record<string, string[]> = { 'context pack': [], search: [], 'entities page': [] }
    for (const q of brain.queries) {
      kinds['context pack']!.push(await body('POST', '/retrieve/context', { text: q }))
      kinds.search!.push(await body('GET', `/retrieve/search?query=${encodeURIComponent(q)}&k=10`))
    }
    for (let skip = 0; skip < 1000; skip += 100)
      kinds['entities page']!.push(await body('GET', `/retrieve/entities?limit=100&skip=${skip}`))
    const notes: string[] = []
    for (const [kind, texts] of Object.entries(kinds)) {
      const next = cycle(texts.map((t) => JSON.parse(t) as unknown))
      bench.add(`${kind}: JSON.stringify, Buffer.byteLength, Buffer.from (before)`, () => {
        const text = JSON.stringify(next())
        Buffer.byteLength(text)
        Buffer.from(text)
      })
      bench.add(`${kind}: jsonBody`, () => void jsonBody(next()))
      const kb = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / texts.length / 1024
      const wide = texts.filter(beyondLatin1).length
      notes.push(
        `${kind}: ${texts.length} bodies, mean ${kb.toFixed(1)} KB, ${wide} with a character beyond Latin-1`,
      )
    }
    return {
      note: `${brain.note}; ${notes.join('; ')}`,
      async teardown() {
        await app.close()
        await brain.close()
      },
    }
  },
}
