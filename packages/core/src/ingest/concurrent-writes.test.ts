import { describe, expect, it } from 'vitest'
import { fixtures } from '../../testing/fixtures.js'
import { createEngine } from '../engine/create-engine.js'
import type { Engram } from '../engine/engine-types.js'
import { stableId } from '../ids.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import { normalizeEntityName } from '../model-writes/normalize-entity-name.js'
import { INGEST_STRUCTURED, INGEST_TEXT, type StructuredIngestPayload } from './ingest-payloads.js'
import type { ExtractedGraph } from '../contracts/extractor.js'
import type { IngestionComponents } from './pipeline/ingestion-components.js'

/**
 * Lost updates between writes of one brain. Each test holds one write in the middle of its
 * read-modify-write (inside a fake embedder or extractor, on a promise the test controls) while the
 * other write runs, so the two windows overlap whatever the machine's speed: no timing involved.
 */

const NAMES = ['Alice', 'Bob']

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** Resolves every arrival once `n` have arrived; later arrivals pass at once. */
function barrier(n: number) {
  const all = deferred()
  let arrived = 0
  return () => {
    if (++arrived >= n) all.resolve()
    return all.promise
  }
}

/** A unit vector per text (its character codes folded into 4 dimensions). */
function vectorOf(text: string): Float32Array {
  const v = new Float32Array(4)
  for (let i = 0; i < text.length; i++) v[i % 4]! += text.charCodeAt(i)
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}

/**
 * An extractor that finds the names in NAMES (PERSON); with `knows`, an edge `A KNOWS B` without an
 * event (as an LLM extractor gives), whose uuid is the same in every task.
 */
function extractNames(passages: { id: string; text: string }[], knows: boolean): ExtractedGraph {
  const entities: ExtractedGraph['entities'] = []
  for (const p of passages)
    for (const name of NAMES)
      if (p.text.includes(name))
        entities.push({ key: name, name, labels: ['PERSON'], passageIds: [p.id] })
  const relationships: ExtractedGraph['relationships'] =
    knows && entities.length === 2
      ? [
          {
            subjectKey: 'Alice',
            objectKey: 'Bob',
            name: 'knows',
            passageIds: passages.map((p) => p.id),
          },
        ]
      : []
  return { entities, relationships, observations: [] }
}

interface Hooks {
  /** Awaited inside every extractor call. */
  extract?: () => Promise<void>
  /** Awaited inside every embedder call, with the texts. */
  embed?: (texts: string[]) => Promise<void>
  knows?: boolean
}

function components(hooks: Hooks, withEmbedder: boolean): IngestionComponents {
  return {
    parseFile: async () => {
      throw new Error('not used')
    },
    jsonToText: (json) => JSON.stringify(json),
    chunk: (text) => [{ index: 0, text, start: 0, end: text.length }],
    extract: async (input) => {
      await hooks.extract?.()
      return extractNames(input.passages, hooks.knows ?? false)
    },
    embed: withEmbedder
      ? async (texts) => {
          await hooks.embed?.(texts)
          return texts.map(vectorOf)
        }
      : null,
    embedderInfo: withEmbedder ? { name: 'fake', dimension: 4 } : null,
  }
}

async function start(hooks: Hooks, { workers = 2, embedder = true } = {}) {
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 'test',
    workers,
    workersPerBrain: workers,
    ingestion: components(hooks, embedder),
  })
  await engram.start()
  return engram
}

const ingest = async (engram: Engram, text: string) =>
  (
    await engram.tasks.submit({
      brainId: 'default',
      kind: INGEST_TEXT,
      payload: fixtures.textPayload(text),
    })
  ).task.id

const passageOf = (taskId: string) => stableId('passage', taskId, '0')

async function entityNamed(engram: Engram, name: string): Promise<Entity> {
  const found = await (await engram.store('default')).entities.findByName(normalizeEntityName(name))
  expect(found).toHaveLength(1)
  return found[0]!
}

describe('writes of one brain at once', () => {
  it('two tasks creating the same entity at once both cite their passages (embedding overlaps)', async () => {
    const engram = await start({ embed: barrier(2) })
    const a = await ingest(engram, 'Alice met Bob.')
    const b = await ingest(engram, 'Alice smiled.')
    await engram.tasks.idle()
    expect((await engram.tasks.get('default', a))?.status).toBe('completed')
    expect((await engram.tasks.get('default', b))?.status).toBe('completed')
    const alice = await entityNamed(engram, 'Alice')
    expect([...alice.sourcePassageIds].sort()).toEqual([passageOf(a), passageOf(b)].sort())
    const [vector] = await (await engram.store('default')).vectors.get('entities', [alice.uuid])
    expect(vector?.vector).toEqual(vectorOf('Alice'))
  })

  it('two tasks updating an existing entity at once both cite their passages (no embedder)', async () => {
    let arrive: (() => Promise<void>) | null = null
    const engram = await start(
      { extract: () => arrive?.() ?? Promise.resolve() },
      { embedder: false },
    )
    const seed = await ingest(engram, 'Alice arrived.')
    await engram.tasks.idle()
    // Both extractions finish together, so both tasks reach resolution with Alice as stored now.
    arrive = barrier(2)
    const a = await ingest(engram, 'Alice met Bob.')
    const b = await ingest(engram, 'Alice smiled.')
    await engram.tasks.idle()
    const alice = await entityNamed(engram, 'Alice')
    expect([...alice.sourcePassageIds].sort()).toEqual(
      [passageOf(seed), passageOf(a), passageOf(b)].sort(),
    )
  })

  it('two tasks writing the same edge at once both cite their passages', async () => {
    const engram = await start({ embed: barrier(2), knows: true })
    const a = await ingest(engram, 'Alice knows Bob.')
    const b = await ingest(engram, 'Bob and Alice go way back.')
    await engram.tasks.idle()
    const store = await engram.store('default')
    const alice = await entityNamed(engram, 'Alice')
    const edges = await store.relationships.of(alice.uuid)
    expect(edges).toHaveLength(1)
    expect([...edges[0]!.sourcePassageIds].sort()).toEqual([passageOf(a), passageOf(b)].sort())
  })

  it('a /model/entity update made while a task embeds survives the task', async () => {
    let hold: { entered: () => void; release: Promise<void> } | null = null
    const engram = await start({
      embed: async () => {
        const h = hold
        hold = null
        if (h !== null) {
          h.entered()
          await h.release
        }
      },
    })
    const { entity } = await engram.graph.createEntity('default', {
      name: 'Alice',
      labels: ['PERSON'],
    })
    const entered = deferred()
    const release = deferred()
    hold = { entered: entered.resolve, release: release.promise }
    const task = await ingest(engram, 'Alice smiled.')
    await entered.promise
    // The task has read Alice and waits on its embedder: the update lands in between.
    await engram.graph.updateEntity('default', {
      uuid: entity.uuid,
      newProperties: { team: 'red' },
    })
    release.resolve()
    await engram.tasks.idle()
    const alice = await entityNamed(engram, 'Alice')
    expect(alice.properties).toEqual({ team: 'red' })
    expect(alice.sourcePassageIds).toEqual([passageOf(task)])
  })

  it('a task finishing while a /model/entity update embeds keeps its citation', async () => {
    let hold: { entered: () => void; release: Promise<void> } | null = null
    const engram = await start({
      embed: async (texts) => {
        if (hold === null || !texts.includes('Alice: an engineer')) return
        const h = hold
        hold = null
        h.entered()
        await h.release
      },
    })
    const { entity } = await engram.graph.createEntity('default', {
      name: 'Alice',
      labels: ['PERSON'],
    })
    const entered = deferred()
    const release = deferred()
    hold = { entered: entered.resolve, release: release.promise }
    const update = engram.graph.updateEntity('default', {
      uuid: entity.uuid,
      newDescription: 'an engineer',
    })
    await entered.promise
    // The update has read Alice and waits on its embedder, outside the brain's write lock: the task
    // runs to its end meanwhile (with the embedding under the lock, it would wait for the update).
    const task = await ingest(engram, 'Alice smiled.')
    await engram.tasks.idle()
    release.resolve()
    await update
    await engram.tasks.idle()
    const alice = await entityNamed(engram, 'Alice')
    expect(alice.description).toBe('an engineer')
    expect(alice.sourcePassageIds).toEqual([passageOf(task)])
    const [vector] = await (await engram.store('default')).vectors.get('entities', [alice.uuid])
    expect(vector?.vector).toEqual(vectorOf('Alice: an engineer'))
  })

  it('a structured ingestion of an existing edge keeps the properties a /model/relationship update gave it', async () => {
    const engram = await start({}, { embedder: false })
    const payload: StructuredIngestPayload = {
      items: [
        {
          subject: { name: 'Alice', type: 'person' },
          subjEvent: { name: 'lives in' },
          object: { name: 'London', type: 'place' },
        },
      ],
      anchor: null,
      text: null,
      mode: 'deterministic',
      sourceTimestamp: '2024-01-01T00:00:00.000Z',
    }
    const submit = () =>
      engram.tasks.submit({ brainId: 'default', kind: INGEST_STRUCTURED, payload })
    await submit()
    await engram.tasks.idle()
    const store = await engram.store('default')
    const [edge] = await store.relationships.of((await entityNamed(engram, 'Alice')).uuid)
    await engram.graph.updateRelationship('default', {
      uuid: edge!.uuid,
      newProperties: { since: 2020 },
    })
    await submit()
    await engram.tasks.idle()
    const [after] = await store.relationships.get([edge!.uuid])
    expect(after?.properties).toEqual({ since: 2020 })
  })
})
