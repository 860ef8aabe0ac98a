import { describe, expect, it } from 'vitest'
import { fixtures } from '../../../testing/fixtures.js'
import type { Embedder } from '../../contracts/embedder.js'
import type { Extractor } from '../../contracts/extractor.js'
import { createEngine } from '../../engine/create-engine.js'
import { memoryAdapter } from '../../memory-adapter/index.js'
import { INGEST_TEXT } from '../ingest-payloads.js'
import { defaultIngestionComponents } from '../default-components.js'

/** Fixed unit vectors: "New York" is 0.96 from "New York City", "Boston" far from both. */
const VECTORS: Record<string, number[]> = {
  'New York City': [1, 0, 0],
  'New York': [0.96, 0.28, 0],
  Boston: [0, 0, 1],
}

function vectorOf(text: string): Float32Array {
  const known = VECTORS[text]
  // Passages and anything else: a direction of their own, far from every name.
  return Float32Array.from(known ?? [0, 1, 0])
}

function setup() {
  const embedded: string[][] = []
  const embed = async (texts: string[]) => {
    embedded.push(texts)
    return texts.map(vectorOf)
  }
  const embedder: Embedder = { kind: 'embedder', name: 'fake', dimension: 3, embed }
  const extractor: Extractor = {
    kind: 'extractor',
    name: 'places',
    extract: async ({ passages }) => ({
      entities: ['New York', 'Boston']
        .filter((name) => passages[0]!.text.includes(name))
        .map((name) => ({ key: name, name, labels: ['PLACE'], passageIds: [passages[0]!.id] })),
      relationships: [],
      observations: [],
    }),
  }
  const components = defaultIngestionComponents({ extractor, embedder })
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 'test',
    workers: 1,
    embedder,
    ingestion: components,
  })
  return { engram, embedded }
}

const ingest = (engram: ReturnType<typeof setup>['engram'], text: string) =>
  engram.tasks.submit({
    brainId: 'default',
    kind: INGEST_TEXT,
    payload: fixtures.textPayload(text),
  })

describe('entity resolution by embedding, through ingestion', () => {
  it('merges a name no stored name matches into the stored entity its vector is close to', async () => {
    const { engram, embedded } = setup()
    await engram.start()
    try {
      const { entity: nyc } = await engram.graph.createEntity('default', {
        name: 'New York City',
        labels: ['PLACE'],
      })
      embedded.length = 0
      const { task } = await ingest(engram, 'We flew from Boston to New York.')
      await engram.tasks.idle()
      expect((await engram.tasks.get('default', task.id))?.status).toBe('completed')

      const store = await engram.store('default')
      const [merged] = await store.entities.get([nyc.uuid])
      expect(merged?.aliases).toEqual(['New York'])
      expect(merged?.sourcePassageIds).toHaveLength(1)
      expect(await store.entities.findByName('boston')).toHaveLength(1)
      const changes = await store.changelog.list({ limit: 50, skip: 0, types: ['node_merged'] })
      expect(changes.items.map((c) => [c.change['reason'], c.change['similarity']])).toEqual([
        ['embedding', expect.closeTo(0.96, 5)],
      ])
      // Each name embedded once, in one call with the other; "Boston" (new) is not embedded again.
      const names = embedded.flat().filter((t) => t in VECTORS)
      expect(names.sort()).toEqual(['Boston', 'New York'])
      // The task counts every text the embedder got, those embedded to be compared included.
      const done = await engram.tasks.get('default', task.id)
      expect(done?.counts['embedded']).toBe(embedded.flat().length)
    } finally {
      await engram.stop()
    }
  })
})
