import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FUSION_CALIBRATIONS } from '@engram/core'
import { hashingTestEmbedder } from '@engram/core/testing'
import { loadConfig, startServer, type RunningServer } from '@engram/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Issue 27, item 1, "Fix on the way": a third-party channel that finds one strong passage must change
 * what the default fusion (`cc`) returns. A 25-passage brain; a channel loaded through ENGRAM_PLUGINS
 * returns only the passage with a marker word, whatever the query; `POST /retrieve/search` with
 * `channels: ["passages", "plugin:marker"]` and `k: 8`, `/retrieve/` and the context pack (with
 * ENGRAM_RETRIEVE_CHANNELS naming the channel) must all include that passage.
 *
 * The bug shows under z-score, the normalisation calibrated for the default embedder (use-lite; the
 * calibration without an embedder is min-max, where a single hit already ties a BM25 list's top). The
 * server is the real one (`startServer` from an environment, as `engram serve` runs it), given a
 * hashing embedder that carries use-lite's calibration instead of the model itself, so the test needs
 * no model and takes about a second.
 */

const TOKEN = 'spat_plugin-channel-fusion-token-0123'
const MARKER = 'zeppelin'
const QUERY = 'pizza oven dough'

// The channel, as a researcher would write it: the passages that mention the marker word.
const PLUGIN = `
export default () => ({
  kind: 'channel',
  name: 'marker',
  yields: 'passages',
  async search(query, ctx) {
    const items = ctx.text.search('passages', '${MARKER}', query.depth)
    return [{ name: 'marker', signal: 'plugin', items }]
  },
})
`

/** 24 passages, about half on the query's words, and one with the marker word and none of them. */
const PASSAGES = [
  'Our pizza oven reaches four hundred degrees in twenty minutes.',
  'The dough for a good pizza rests overnight in the fridge.',
  'A wood fired oven gives the pizza crust its smoky taste.',
  'Knead the dough for ten minutes until it is smooth.',
  'The pizza place on the corner sells slices until midnight.',
  'She bought a stone for baking pizza in a home oven.',
  'Sourdough starter makes the dough rise slowly and tastes sour.',
  'The oven timer rang while the bread was still pale.',
  'Neapolitan pizza uses soft flour, tomatoes and buffalo mozzarella.',
  'Frozen pizza is rarely as good as a fresh one.',
  'Roll the dough thin, then add the sauce and the cheese.',
  'The bakery oven broke down on Monday morning.',
  'The train to Lisbon left at seven and arrived late.',
  'Tom repaired the fence behind the barn last weekend.',
  'A storm closed the mountain pass for three days.',
  'The library opens at nine and closes at five on Saturdays.',
  'Maria plays the violin in the city orchestra.',
  'The river froze early this winter and the ferries stopped.',
  'He planted tomatoes, beans and courgettes in the garden.',
  'The museum shows paintings from the northern coast.',
  'Our cat sleeps on the warm windowsill every afternoon.',
  'The football match was cancelled because of the rain.',
  'A new bridge will link the two halves of the town.',
  'The children built a kite and flew it on the beach.',
  `A ${MARKER} drifted slowly over the harbour at dawn.`,
]

const headers = { ServicePAT: TOKEN, 'content-type': 'application/json' }
const dir = mkdtempSync(join(tmpdir(), 'engram-plugin-fusion-'))
let server: RunningServer
let markerId: string

async function call<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(res.status, path).toBe(200)
  return (await res.json()) as T
}

interface SearchBody {
  hits: { id: string; snippet: string }[]
  channel_lists: Record<string, string[]>
}
const search = (channels: string[], expand?: 'none') =>
  call<SearchBody>('/retrieve/search', {
    query: QUERY,
    channels,
    k: 8,
    ...(expand ? { expand } : {}),
  })

beforeAll(async () => {
  writeFileSync(join(dir, 'marker.mjs'), PLUGIN)
  const { normalization, denseShare, graphWeight } = FUSION_CALIBRATIONS['use-lite']!
  expect(normalization).toBe('z-score')
  const embedder = {
    ...hashingTestEmbedder(64),
    fusion: { normalization, denseShare, graphWeight },
  }
  const config = loadConfig({
    ENGRAM_DATA_DIR: join(dir, 'data'),
    SERVICEPAT_TOKEN: TOKEN,
    STORAGE: 'memory',
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDER: 'none',
    EXTRACTOR_WORKERS: '0',
    LOG_LEVEL: 'silent',
    ENGRAM_PLUGINS: join(dir, 'marker.mjs'),
    ENGRAM_RETRIEVE_CHANNELS: 'passages,plugin:marker',
  })
  server = await startServer(config, () => {}, { embedder: Promise.resolve(embedder) })
  for (const text of PASSAGES) {
    const res = await fetch(`${server.url}/ingest/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text }),
    })
    expect(res.status).toBe(202)
  }
  await server.engram.tasks.idle()
  const found = await search(['plugin:marker'], 'none')
  expect(found.hits.map((h) => h.snippet)).toEqual([PASSAGES.at(-1)])
  markerId = found.hits[0]!.id
})

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a plugin channel with one hit, under the default fusion (cc, z-score)', () => {
  it('POST /retrieve/search with channels passages and plugin:marker, k 8, includes its passage', async () => {
    const without = await search(['passages'])
    expect(without.hits).toHaveLength(8)
    expect(without.hits.map((h) => h.id)).not.toContain(markerId)
    // The default pipeline (the graph stage) and the fused list alone.
    for (const expand of [undefined, 'none'] as const) {
      const withMarker = await search(['passages', 'plugin:marker'], expand)
      expect(withMarker.channel_lists['plugin:marker']).toEqual([markerId])
      expect(withMarker.hits).toHaveLength(8)
      expect(withMarker.hits.map((h) => h.id)).toContain(markerId)
    }
  })

  it('/retrieve/ includes it (ENGRAM_RETRIEVE_CHANNELS names the channel)', async () => {
    const body = await call<{ data: { text: string }[] }>(
      `/retrieve/?text=${encodeURIComponent(QUERY)}&preferred_entities=&limit=8`,
    )
    expect(body.data.map((p) => p.text)).toContain(PASSAGES.at(-1))
  })

  it('the context pack includes it (ENGRAM_RETRIEVE_CHANNELS names the channel)', async () => {
    // The pack's default ordering: the walk over the fused passages (the query is not a composed one).
    const body = await call<{ source_passages: string[] }>('/retrieve/context', {
      text: QUERY,
      max_passages: 8,
    })
    expect(body.source_passages).toHaveLength(8)
    expect(body.source_passages).toContain(PASSAGES.at(-1))
  })
})
