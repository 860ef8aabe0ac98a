import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Embedder } from '@engram/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTinyBertModel } from '../test/support/write-tiny-bert-model.js'
import { transformersEmbedder } from './transformers-embedder.js'

const never = new AbortController().signal
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0)

// A tiny BERT-shaped model written offline (no hub is reachable here), loaded once for the file.
const dir = mkdtempSync(join(tmpdir(), 'engram-transformers-'))
let embedder: Embedder
beforeAll(async () => {
  writeTinyBertModel(join(dir, 'tiny-bert'), { hidden: 16 })
  embedder = await transformersEmbedder({ model: 'tiny-bert', localDir: dir })
})
afterAll(async () => {
  await embedder?.close?.()
  rmSync(dir, { recursive: true, force: true })
})

describe('transformersEmbedder', () => {
  it('reads its dimension from the model config', () => {
    expect(embedder).toMatchObject({
      kind: 'embedder',
      name: 'transformers:tiny-bert',
      dimension: 16,
    })
  })

  it('returns one unit vector per text, deterministically', async () => {
    const texts = ['The cat sat on the mat.', 'Revenue grew.', '', 'zzz words it does not know']
    const first = await embedder.embed(texts, never)
    expect(first).toHaveLength(4)
    for (const vector of first) {
      expect(vector).toBeInstanceOf(Float32Array)
      expect(vector).toHaveLength(16)
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5)
    }
    expect(dot(first[0]!, first[1]!)).toBeLessThan(0.99)
    const again = await transformersEmbedder({ model: 'tiny-bert', localDir: dir, cacheSize: 0 })
    expect(await again.embed(texts, never)).toEqual(first)
    await again.close?.()
  })

  it('mean-pools over the attention mask: padding does not change a vector', async () => {
    const uncached = await transformersEmbedder({
      model: 'tiny-bert',
      localDir: dir,
      cacheSize: 0,
      batchSize: 8,
    })
    const [alone] = await uncached.embed(['a cat'], never)
    const [padded] = await uncached.embed(['a cat', 'the company reported higher profits'], never)
    expect(Array.from(padded!)).toEqual(Array.from(alone!).map((x) => expect.closeTo(x, 5)))
    await uncached.close?.()
  })

  it('passes the pooling choice through: with cls, every text is its [CLS] row', async () => {
    // The tiny model has no attention, so the [CLS] position never sees the rest of the text.
    const cls = await transformersEmbedder({ model: 'tiny-bert', localDir: dir, pooling: 'cls' })
    const [a, b] = await cls.embed(['the cat', 'revenue grew in the quarter'], never)
    expect(a).toEqual(b)
    expect(Math.sqrt(dot(a!, a!))).toBeCloseTo(1, 5)
    await cls.close?.()
  })

  it("cuts a long text at the model's input limit (model_max_length tokens)", async () => {
    const [cut] = await embedder.embed(['cat '.repeat(600)], never)
    const [longer] = await embedder.embed(['cat '.repeat(5000)], never)
    const [shorter] = await embedder.embed(['cat '.repeat(100)], never)
    expect(Array.from(longer!)).toEqual(Array.from(cut!))
    // [CLS] and [SEP] weigh more in a shorter mean: a text under the limit is not cut.
    expect(Array.from(shorter!)).not.toEqual(Array.from(cut!))
  })

  it('takes the limit from max_position_embeddings when the tokenizer config has none', async () => {
    writeTinyBertModel(join(dir, 'no-max-length'), { hidden: 16, modelMaxLength: null })
    const own = await transformersEmbedder({ model: 'no-max-length', localDir: dir })
    try {
      const [cut] = await own.embed(['cat '.repeat(600)], never)
      const [longer] = await own.embed(['cat '.repeat(5000)], never)
      expect(Array.from(longer!)).toEqual(Array.from(cut!))
    } finally {
      await own.close?.()
    }
  })

  it('stops between batches when the signal aborts', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    await expect(embedder.embed(['never embedded'], controller.signal)).rejects.toThrow('stop')
  })

  it('fails with a clear EngramError when the model files are missing', async () => {
    mkdirSync(join(dir, 'empty-model'))
    const error = await transformersEmbedder({ model: 'empty-model', localDir: dir }).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({
      name: 'EngramError',
      code: 'INTERNAL_ERROR',
      message: expect.stringContaining(
        `${join(dir, 'empty-model', 'config.json')} is missing, and downloading from the hub is off`,
      ),
      resolution: expect.stringContaining('onnx/model.onnx'),
    })
    await expect(
      transformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2', localDir: dir }),
    ).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: /found no model/ })
  })
})
