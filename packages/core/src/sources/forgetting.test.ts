import { afterEach, describe, expect, it } from 'vitest'
import { createEngine } from '../engine/create-engine.js'
import type { Engram } from '../engine/engine-types.js'
import { buildStructuredPayload, buildTextPayload } from '../ingest/build-ingest-payloads.js'
import { INGEST_STRUCTURED, INGEST_TEXT } from '../ingest/ingest-payloads.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Task } from '../model/task.js'
import { StorageUnavailableError } from '../errors.js'

const BRAIN = 'default'
const MARKER = 'zorblaxian'

let engram: Engram | null = null
afterEach(async () => {
  await engram?.stop()
  engram = null
})

async function started(): Promise<Engram> {
  engram = createEngine({ storage: memoryAdapter(), version: 't' })
  await engram.start()
  return engram
}

async function settle(e: Engram, submitted: Promise<{ task: Task }>): Promise<Task> {
  const { task } = await submitted
  return e.tasks.settled(BRAIN, task.id)
}

function ingest(e: Engram, text: string, sourceId?: string, meta?: Record<string, string>) {
  return settle(
    e,
    e.tasks.submit({
      brainId: BRAIN,
      kind: INGEST_TEXT,
      payload: buildTextPayload({ text, sourceId: sourceId ?? null, metaKeys: meta ?? null }),
    }),
  )
}

async function forget(e: Engram, sourceId: string): Promise<Task> {
  return settle(e, e.sources.forget(BRAIN, sourceId))
}

/** Every record of the brain as JSON, for "the word is nowhere". */
async function everything(e: Engram): Promise<string> {
  const store = await e.store(BRAIN)
  const page = { limit: 1000, skip: 0 }
  const parts = [
    await store.passages.list(page),
    await store.entities.list(page),
    await store.relationships.list(page),
    await store.observations.list(page),
    await store.structured.list(page),
    await store.changelog.list(page),
    await store.tasks.list(page),
    await store.sources.list(page),
  ]
  return JSON.stringify(parts)
}

const hitTexts = async (e: Engram, query: string) =>
  (await e.search.search(BRAIN, { query, k: 20 })).hits.map((h) => h.snippet)

describe('forgetting a source', () => {
  it('leaves no trace of its text in any record, index or search, and keeps what others support', async () => {
    const e = await started()
    const diary = 'diary-2024'
    await ingest(e, `Alice Martin met Bob Stone in Paris on Monday.`, diary, { title: 'Diary' })
    await ingest(e, `Alice Martin visited the ${MARKER} observatory in Lyon.`, diary)
    await ingest(e, `Carol Dunn wrote to Alice Martin about the harvest.`, 'letters')

    expect((await hitTexts(e, MARKER)).some((t) => t.includes(MARKER))).toBe(true)
    const before = await e.store(BRAIN)
    const alice = (await before.entities.findByName('alice martin'))[0]!
    expect(alice).toBeDefined()

    const task = await forget(e, diary)
    expect(task.status).toBe('completed')
    // The second ingestion replaced the first (same source): one passage was left to forget.
    expect(task.result).toMatchObject({ source_id: diary, passages: 1 })

    expect(await hitTexts(e, MARKER)).toEqual([])
    expect(await everything(e)).not.toContain(MARKER)
    expect(await everything(e)).not.toContain('observatory')
    // Alice is still supported by the letter; Lyon and Bob only came from the diary.
    const store = await e.store(BRAIN)
    const [kept] = await store.entities.get([alice.uuid])
    expect(kept).toBeDefined()
    const letterPassages = (await store.passages.list({ sourceId: 'letters', limit: 10, skip: 0 }))
      .items
    expect(kept!.sourcePassageIds).toEqual(letterPassages.map((p) => p.id))
    expect(await store.entities.findByName('lyon')).toEqual([])
    expect(await store.entities.findByName('bob stone')).toEqual([])
    expect(await store.sources.get(diary)).toMatchObject({ status: 'forgotten', title: null })
    expect((await store.sources.list({ limit: 10, skip: 0 })).items.map((s) => s.id)).toEqual([
      'letters',
    ])
    // The lexical index scores as if the diary had never been ingested.
    const indexes = await e.indexes.get(BRAIN)
    expect(indexes.passages.size).toBe(1)
  })

  it('is refused for an unknown source, and a second forget of the same state is the same task', async () => {
    const e = await started()
    await expect(e.sources.forget(BRAIN, 'nope')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    await ingest(e, 'Dana Reyes planted olive trees.', 's1')
    const first = await e.sources.forget(BRAIN, 's1')
    const second = await e.sources.forget(BRAIN, 's1')
    expect(second.task.id).toBe(first.task.id)
    await e.tasks.settled(BRAIN, first.task.id)
    await expect(e.sources.forget(BRAIN, 's1')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
  })

  it('supersedes an ingestion sent before it that had not run yet', async () => {
    const e = await started()
    await ingest(e, 'Erin Walsh repaired the bridge.', 'log')
    const late = await e.tasks.submit({
      brainId: BRAIN,
      kind: INGEST_TEXT,
      payload: buildTextPayload({ text: `Erin Walsh found ${MARKER} stones.`, sourceId: 'log' }),
    })
    const forgot = await e.sources.forget(BRAIN, 'log')
    await e.tasks.settled(BRAIN, late.task.id)
    await e.tasks.settled(BRAIN, forgot.task.id)
    expect(await everything(e)).not.toContain(MARKER)
    expect(await hitTexts(e, MARKER)).toEqual([])
  })

  it('forgets structured records and the nodes only they stated', async () => {
    const e = await started()
    const payload = buildStructuredPayload({
      items: [
        {
          subject: { name: 'Frank Ocean', type: 'person' },
          subjEvent: { name: 'likes' },
          object: { name: `${MARKER} jazz`, type: 'genre' },
        },
      ],
      sourceId: 'prefs',
    })
    await settle(e, e.tasks.submit({ brainId: BRAIN, kind: INGEST_STRUCTURED, payload }))
    expect(await everything(e)).toContain(MARKER)
    await forget(e, 'prefs')
    expect(await everything(e)).not.toContain(MARKER)
    expect(await everything(e)).not.toContain('Frank Ocean')
  })
})

describe('a surviving entity', () => {
  it('is spelled as its first remaining mention once the first mention is forgotten', async () => {
    const e = await started()
    await ingest(e, 'Lighthouse Keepers met in Oslo on Monday.', 'first')
    await ingest(e, 'The meeting of lighthouse keepers in Oslo was long.', 'second')
    const store = await e.store(BRAIN)
    const [before] = await store.entities.findByName('lighthouse keepers')
    expect(before?.name).toBe('Lighthouse Keepers')
    await forget(e, 'first')
    const [after] = await store.entities.findByName('lighthouse keepers')
    expect(after?.uuid).toBe(before!.uuid)
    expect(after?.name).toBe('lighthouse keepers')
  })
})

describe('a forget interrupted after its cascade', () => {
  it('redacts history on the next try from what the first try recorded on the task', async () => {
    const storage = memoryAdapter()
    const brain = storage.brain.bind(storage)
    let failures = 1
    // The first redaction read fails as a lost database connection does: the queue tries the task again.
    storage.brain = async (id) => {
      const store = await brain(id)
      const containing = store.changelog.containing.bind(store.changelog)
      store.changelog.containing = async (needles) => {
        if (failures-- > 0) throw new StorageUnavailableError(new Error('connection lost'))
        return containing(needles)
      }
      return store
    }
    engram = createEngine({ storage, version: 't' })
    const e = engram
    await e.start()
    await ingest(e, `Jonas Pike built a ${MARKER} kiln in Turku.`, 'kiln')
    const task = await forget(e, 'kiln')
    expect(task.status).toBe('completed')
    expect(failures).toBeLessThan(0)
    expect(task.result).toMatchObject({ passages: 1 })
    expect(await everything(e)).not.toContain(MARKER)
    expect(await everything(e)).not.toContain('Jonas Pike')
  })
})

describe('re-ingesting a source', () => {
  const paragraphs = Array.from(
    { length: 10 },
    (_, i) =>
      `Paragraph ${i} tells how the keeper number ${i} tended lighthouse ${i} on the coast. ` +
      `Every night keeper ${i} climbed the stairs, trimmed the wick and watched the ships pass the reef.`,
  )

  it('changes only the passages of the paragraph that changed, and identical content is a no-op', async () => {
    const e = await started()
    await ingest(e, paragraphs.join('\n\n'), 'book')
    const store = await e.store(BRAIN)
    const list = async () =>
      (await store.passages.list({ sourceId: 'book', limit: 100, skip: 0 })).items
    const before = await list()
    expect(before.length).toBeGreaterThan(1)

    const edited = [...paragraphs]
    edited[4] =
      `Paragraph 4 now tells of a ${MARKER} storm that broke the lantern of the old tower. ` +
      `The keeper waited for the dawn, and the ships stayed in the harbour until the sea calmed down.`
    const task = await ingest(e, edited.join('\n\n'), 'book')
    expect(task.result).toMatchObject({ source_id: 'book' })
    const after = await list()
    const beforeIds = new Set(before.map((p) => p.id))
    const afterIds = new Set(after.map((p) => p.id))
    const gone = before.filter((p) => !afterIds.has(p.id))
    const added = after.filter((p) => !beforeIds.has(p.id))
    expect(gone.every((p) => p.text.includes('Paragraph 4'))).toBe(true)
    expect(added.every((p) => p.text.includes('Paragraph 4'))).toBe(true)
    expect(added.length).toBeGreaterThan(0)
    expect(after.map((p) => p.text).join('\n\n')).toContain(MARKER)
    expect((await hitTexts(e, 'keeper number 4 tended lighthouse 4')).join(' ')).not.toContain(
      'keeper number 4',
    )

    const again = await ingest(e, edited.join('\n\n'), 'book')
    expect(again.result).toMatchObject({ unchanged: true })
    expect((await list()).map((p) => p.id)).toEqual(after.map((p) => p.id))
    const source = await store.sources.get('book')
    expect(source?.taskIds).toHaveLength(3)
  })
})

describe('graph deletes', () => {
  it('deletes an entity with its edges and observations, and redacts its history', async () => {
    const e = await started()
    await ingest(e, 'Gina Holt married Hugo Brandt in Vienna in 2019.', 'wedding')
    const store = await e.store(BRAIN)
    const [gina] = await store.entities.findByName('gina holt')
    expect(gina).toBeDefined()
    const edges = await store.relationships.of(gina!.uuid)
    expect(edges.length).toBeGreaterThan(0)
    const deleted = await e.sources.deleteEntity(BRAIN, gina!.uuid)
    // Gina and the wedding event she is the actor of, with the event's legs.
    expect(deleted.entities).toBe(2)
    expect(deleted.relationships).toBeGreaterThan(edges.length)
    expect(await store.entities.get([gina!.uuid])).toEqual([])
    const history = JSON.stringify((await store.changelog.list({ limit: 1000, skip: 0 })).items)
    expect(history).not.toContain('Gina Holt')
    await expect(e.sources.deleteEntity(BRAIN, gina!.uuid)).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
  })

  it('keeps an entity written through /model when a source that mentions it is forgotten', async () => {
    const e = await started()
    const { entity } = await e.graph.createEntity(BRAIN, { name: 'Iris Keane', labels: ['PERSON'] })
    await ingest(e, 'Iris Keane sailed to Malta.', 'voyage')
    await forget(e, 'voyage')
    const store = await e.store(BRAIN)
    expect(await store.entities.get([entity.uuid])).toHaveLength(1)
  })
})
