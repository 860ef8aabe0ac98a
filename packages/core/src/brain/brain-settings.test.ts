import { DEFAULT_SINGLE_VALUED } from '../time/single-valued.js'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../engine/create-engine.js'
import { EngramError } from '../errors.js'
import { Bm25Index } from '../indexes/bm25/bm25-index.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { fixtures } from '../../testing/fixtures.js'

const passage = (id: string, text: string) =>
  fixtures.passage({ id, text, metadata: {}, end: text.length })
const TEXTS: [string, string][] = [
  ['p1', 'cats chase mice in the barn'],
  ['p2', 'the barn cat sleeps all day long in the warm hay of the old barn'],
  ['p3', 'mice eat grain'],
]

/** Top hits of a fresh index holding the same passages with `settings`. */
function expected(settings: ConstructorParameters<typeof Bm25Index>[0], query: string) {
  const index = new Bm25Index(settings)
  for (const [id, text] of TEXTS) index.add(id, text)
  return index.search(query, 10)
}

async function engineWith(storage = memoryAdapter(), bm25?: { k1?: number; b?: number }) {
  const engram = createEngine({ storage, version: 't', ...(bm25 ? { bm25 } : {}) })
  await engram.start()
  return engram
}

describe('brain settings', () => {
  it('scores with the engine defaults, then with a brain override applied at once', async () => {
    const engram = await engineWith(memoryAdapter(), { k1: 1.2, b: 0.75 })
    await engram.commit('default', { passages: TEXTS.map(([id, text]) => passage(id, text)) })
    const indexes = await engram.indexes.get('default')
    expect(indexes.passages.search('barn cat', 10)).toEqual(
      expected({ k1: 1.2, b: 0.75 }, 'barn cat'),
    )
    expect(await engram.brainSettings.get('default')).toEqual({
      bm25: { variant: 'bm25+', k1: 1.2, b: 0.75, delta: 1 },
      overrides: { bm25: {} },
      expiry: { defaultTtl: null },
      temporal: { singleValuedPredicates: DEFAULT_SINGLE_VALUED, override: {} },
    })

    const updated = await engram.brainSettings.update('default', {
      bm25: { variant: 'bm25l', b: 0.3 },
    })
    expect(updated).toEqual({
      bm25: { variant: 'bm25l', k1: 1.2, b: 0.3, delta: 0.5 },
      overrides: { bm25: { variant: 'bm25l', b: 0.3 } },
      expiry: { defaultTtl: null },
      temporal: { singleValuedPredicates: DEFAULT_SINGLE_VALUED, override: {} },
    })
    expect(indexes.passages.size).toBe(3)
    for (const index of [indexes.passages, indexes.entities, indexes.events, indexes.observations])
      expect(index.settings).toEqual(updated.bm25)
    expect(indexes.passages.search('barn cat', 10)).toEqual(
      expected({ variant: 'bm25l', k1: 1.2, b: 0.3 }, 'barn cat'),
    )

    const cleared = await engram.brainSettings.update('default', { bm25: null })
    expect(cleared.bm25).toEqual({ variant: 'bm25+', k1: 1.2, b: 0.75, delta: 1 })
    expect(indexes.passages.settings).toEqual(cleared.bm25)
    await engram.stop()
  })

  it('keeps the override in the brain, for indexes built later', async () => {
    const storage = memoryAdapter()
    const first = await engineWith(storage)
    await first.commit('default', { passages: TEXTS.map(([id, text]) => passage(id, text)) })
    await first.brainSettings.update('default', { bm25: { variant: 'atire', k1: 0.8 } })
    // A second engine on the same storage builds the brain's indexes from it.
    const second = await engineWith(storage)
    const indexes = await second.indexes.get('default')
    expect(indexes.passages.settings).toEqual({ variant: 'atire', k1: 0.8, b: 0.5, delta: 0 })
    expect(indexes.passages.search('mice', 10)).toEqual(
      expected({ variant: 'atire', k1: 0.8 }, 'mice'),
    )
    await second.stop()
    await first.stop()
  })

  it('rejects bad values with a 400 and leaves the settings as they were', async () => {
    const engram = await engineWith()
    const error = await engram.brainSettings
      .update('default', { bm25: { b: 2 } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EngramError)
    expect((error as EngramError).code).toBe('VALIDATION_ERROR')
    expect((error as EngramError).status).toBe(400)
    expect((error as EngramError).message).toMatch(/b must be in \[0, 1\]/)
    expect((await engram.brainSettings.get('default')).overrides.bm25).toEqual({})
    await expect(engram.brainSettings.get('nope')).rejects.toMatchObject({
      code: 'BRAIN_NOT_FOUND',
    })
    await engram.stop()
    expect(() =>
      createEngine({ storage: memoryAdapter(), version: 't', bm25: { k1: -1 } }),
    ).toThrow(/createEngine: bm25 k1 must be a number >= 0/)
  })
})
