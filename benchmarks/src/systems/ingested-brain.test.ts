import { describe, expect, it } from 'vitest'
import type { BenchDoc } from '../loaders/dataset-types.js'
import {
  closeSharedBrains,
  DOC_ID_KEY,
  docTask,
  ingestDocs,
  sharedIngest,
  UNDATED_SOURCE,
} from './ingested-brain.js'

const turns: BenchDoc[] = [
  {
    id: 'conv-1/D1:1',
    text: 'Emily: I organized the AI Ethics Meetup in London yesterday.',
    metadata: { dia_id: 'D1:1', session: 1, session_date: '1:56 pm on 8 May, 2023' },
  },
  {
    id: 'conv-1/D1:2',
    text: 'Tom: Great, I met Emily and Sarah there.',
    metadata: { dia_id: 'D1:2', session: 1, session_date: '1:56 pm on 8 May, 2023' },
  },
  {
    id: 'conv-1/D2:1',
    text: 'Emily: I flew from London to Paris last week.',
    metadata: { dia_id: 'D2:1', session: 2, session_date: '9:05 am on 25 May, 2023' },
  },
]
/** A paragraph of 321 tokens in 40 sentences: more than one 256-token chunk. */
const long: BenchDoc = {
  id: 'p9',
  title: 'Lighthouses',
  text: Array.from({ length: 40 }, (_, i) => `Keeper ${i} lit the lamp of the tower.`).join(' '),
}

describe('docTask', () => {
  it('sends the index text, the metadata plus doc_id, and the LoCoMo session date', () => {
    const { taskId, payload } = docTask(turns[0]!)
    expect(taskId).toBe('bench:conv-1/D1:1')
    expect(payload).toMatchObject({
      text: turns[0]!.text,
      metaKeys: { dia_id: 'D1:1', session: 1, [DOC_ID_KEY]: 'conv-1/D1:1' },
      sourceTimestamp: '2023-05-08T13:56:00.000Z',
      skipEnrichment: false,
    })
  })

  it('puts the title on its own line above the text and pins undated documents to a fixed timestamp', () => {
    const { payload } = docTask({ id: 'p1', title: 'Oslo', text: 'A city.' })
    expect(payload.text).toBe('Oslo\n\nA city.')
    expect(payload.sourceTimestamp).toBe(UNDATED_SOURCE)
    expect(payload.metaKeys).toEqual({ [DOC_ID_KEY]: 'p1' })
  })
})

describe('ingestDocs (lexical, no embedder)', () => {
  it('maps every passage, chunk and extracted record back to its documents', async () => {
    const brain = await ingestDocs([...turns, long], { embedder: null })
    try {
      expect(brain.documents).toBe(4)
      expect(brain.counts.splitDocs).toBe(1)
      expect(brain.counts.passages).toBeGreaterThan(4)
      const store = await brain.engram.store(brain.brainId)
      const passages = (await store.passages.list({ limit: 100, skip: 0 })).items
      for (const p of passages) expect(brain.docsOf(p.id)).toEqual([p.metadata[DOC_ID_KEY]])
      expect(passages.filter((p) => brain.docOfPassage(p.id) === 'p9').length).toBeGreaterThan(1)

      // London is named in two turns: one entity, standing for both.
      const [london] = await store.entities.findByName('london')
      expect(brain.docsOf(london!.uuid)).toEqual(['conv-1/D1:1', 'conv-1/D2:1'])
      const events = await store.entities.list({ labels: ['EVENT'], limit: 100, skip: 0 })
      expect(events.total).toBe(brain.counts.events)
      for (const e of events.items) expect(brain.docsOf(e.uuid).length).toBeGreaterThan(0)
      expect(brain.docsOf('nothing')).toEqual([])

      // The retrieve clock is the newest source_timestamp (here the undated paragraph's fixed one, after
      // the 2023 sessions); a lexical brain gets no dense readers.
      const deps = await brain.retrieveDeps()
      expect(deps.now?.().toISOString()).toBe(UNDATED_SOURCE)
      expect(deps.embed).toBeNull()
    } finally {
      await brain.close()
    }
  })
})

describe('sharedIngest with contradictions off', () => {
  const moves: BenchDoc[] = [
    {
      id: 'c/D1:1',
      text: 'Alice Moreau lives in Lisbon.',
      metadata: { session: 1, session_date: '1:56 pm on 8 May, 2019' },
    },
    {
      id: 'c/D2:1',
      text: 'Alice Moreau moved to Berlin.',
      metadata: { session: 2, session_date: '1:56 pm on 8 May, 2022' },
    },
  ]
  const ended = async (brain: Awaited<ReturnType<typeof sharedIngest>>) => {
    const store = await brain.engram.store(brain.brainId)
    const all = await store.relationships.scan(null, 1000)
    return all.filter((r) => r.invalidAt !== null && r.invalidAt !== undefined).length
  }

  it('builds a brain of its own in which no fact is ended', async () => {
    try {
      const on = await sharedIngest(moves, { embedder: null })
      const off = await sharedIngest(moves, { embedder: null, contradictions: false })
      expect(off.engram).not.toBe(on.engram)
      expect((await sharedIngest(moves, { embedder: null })).engram).toBe(on.engram)
      expect(await ended(on)).toBeGreaterThan(0)
      expect(await ended(off)).toBe(0)
    } finally {
      await closeSharedBrains()
    }
  })
})
