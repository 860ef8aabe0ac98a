import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, type ListeningApp } from '../support/listening-app.js'
import { PROBE_WORD, probePlugins } from '../support/probe-plugin/probe-plugin.js'

// One plugin package, written only against @engram/core, registered with the engine: its channel
// reaches /retrieve/search by request, and /retrieve/ and POST /retrieve/context through the engine's
// graph channels; its fusion's score lands in `scores.plugin.<name>`; its stage runs between the
// built-in expansion and personalization.

const PASSAGES = [
  'Alice bakes pizza in Naples every Sunday.',
  'Bob likes pizza with olives and anchovies.',
  `The ${PROBE_WORD} drifted over the harbour at dawn.`,
]

interface Hit {
  id: string
  snippet: string
  score: number
  channel: string
  scores: Record<string, number | Record<string, number>>
}

const seen: { ids: string[]; scores: number[] }[] = []
let plain: ListeningApp
let probed: ListeningApp

async function start(withGraphChannels: boolean): Promise<ListeningApp> {
  const app = await listeningApp({
    storage: 'memory',
    plugins: probePlugins(seen),
    ...(withGraphChannels
      ? { graphChannels: { passages: ['passages', 'plugin:probe'], fusion: 'rrf' } }
      : {}),
  })
  for (const text of PASSAGES) {
    const res = await fetch(`${app.url}/ingest/`, {
      method: 'POST',
      headers: { ...app.headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    })
    expect(res.status).toBe(202)
  }
  await app.engram.tasks.idle()
  return app
}

async function call(app: ListeningApp, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...app.headers(), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as Record<string, unknown>
}

beforeAll(async () => {
  plain = await start(false)
  probed = await start(true)
}, 60_000)

afterAll(async () => {
  await plain?.close()
  await probed?.close()
})

const mentionsProbe = (texts: string[]) => texts.some((t) => t.includes(PROBE_WORD))

describe('a plugin channel reaches every ranked operation', () => {
  it('/retrieve/search: by request, with the fusion score under scores.plugin', async () => {
    const without = await call(plain, '/retrieve/search?query=pizza&k=5')
    expect(mentionsProbe((without.hits as Hit[]).map((h) => h.snippet))).toBe(false)
    const withProbe = await call(
      plain,
      // expand=none: the fusion's score is the hit's score only when no stage re-scores it.
      '/retrieve/search?query=pizza&k=5&channels=passages,plugin:probe&fusion=plugin:probefuse&expand=none',
    )
    const hits = withProbe.hits as Hit[]
    const probe = hits.find((h) => h.snippet.includes(PROBE_WORD))!
    expect(probe).toBeDefined()
    expect(probe.channel).toBe('plugin:probe')
    expect(probe.scores.plugin).toEqual({ probe: 1, probefuse: 2 })
    expect(probe.score).toBe(2)
    // Built-in fusions report their score under their own name.
    const rrf = await call(
      plain,
      '/retrieve/search?query=pizza&k=5&channels=passages,plugin:probe&fusion=rrf',
    )
    expect((rrf.hits as Hit[])[0]!.scores.rrf).toBeGreaterThan(0)
  })

  it('/retrieve/: through the engine graph channels', async () => {
    const texts = (body: Record<string, unknown>) =>
      (body.data as { text: string }[]).map((p) => p.text)
    expect(
      mentionsProbe(
        texts(await call(plain, '/retrieve/?text=pizza&limit=5&preferred_entities=PERSON')),
      ),
    ).toBe(false)
    expect(
      mentionsProbe(
        texts(await call(probed, '/retrieve/?text=pizza&limit=5&preferred_entities=PERSON')),
      ),
    ).toBe(true)
  })

  it('POST /retrieve/context: the pack passages come from the same channels', async () => {
    const sources = (body: Record<string, unknown>) => body.source_passages as string[]
    expect(mentionsProbe(sources(await call(plain, '/retrieve/context', { text: 'pizza' })))).toBe(
      false,
    )
    expect(mentionsProbe(sources(await call(probed, '/retrieve/context', { text: 'pizza' })))).toBe(
      true,
    )
  })
})

describe('a third-party stage runs in order with the built-in stages', () => {
  const search = (extra: string) =>
    call(
      plain,
      `/retrieve/search?query=pizza&k=10&channels=passages,entities&expand=neighbors&rerank=plugin:probestage&profile_stages=true${extra}`,
    )

  it('sees the expanded ranking and rescores it in the rerank slot', async () => {
    seen.length = 0
    const body = await search('')
    // The stage saw the expanded ranking: neighbours of the entity hits are among its hits.
    const neighbours = (body.channel_lists as Record<string, string[]>).neighbors!
    expect(neighbours.length).toBeGreaterThan(0)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.ids.some((id) => neighbours.includes(id))).toBe(true)
    // Its scores reversed the head and land in scores.rerank, which hit.score follows.
    const hits = body.hits as Hit[]
    expect(hits.map((h) => h.id)).toEqual(seen[0]!.ids.slice().reverse().slice(0, hits.length))
    for (const hit of hits) {
      expect(hit.scores.rerank).toBeGreaterThan(1000)
      expect(hit.score).toBe(hit.scores.rerank)
    }
  })

  it('runs after expansion and before personalization, which blends its scores', async () => {
    seen.length = 0
    const body = await search('&target=alice')
    const stages = (body.stage_timings as { stages: { stage: string }[] }).stages.map(
      (s) => s.stage,
    )
    const at = (name: string) => stages.indexOf(name)
    expect(at('search.expand')).toBeGreaterThan(at('search.fusion'))
    expect(at('search.plugin.probestage')).toBeGreaterThan(at('search.expand'))
    expect(at('search.rerank')).toBeGreaterThan(at('search.expand'))
    expect(at('search.personalize')).toBeGreaterThan(at('search.rerank'))
    // Personalization started from the stage's scores: every hit kept its rerank score.
    for (const hit of body.hits as Hit[]) {
      expect(hit.scores.rerank).toBeGreaterThan(1000)
      expect(hit.score).toBe(hit.scores.personalize ?? hit.scores.rerank)
    }
  })
})
