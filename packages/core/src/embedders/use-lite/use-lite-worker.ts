import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { l2Normalize } from '../l2-normalize.js'
import { pieceRows, sparseBatch } from './use-lite-batch.js'
import type { EmbedRequest, WorkerMessage } from './use-lite-protocol.js'
import { useLiteOnnxRuntime } from './use-lite-onnx-runtime.js'
import type { UseLiteRuntime, UseLiteWorkerData } from './use-lite-runtime.js'
import { useLiteTfjsRuntime } from './use-lite-tfjs-runtime.js'
import { UseLiteTokenizer, type Vocabulary } from './use-lite-tokenizer.js'

/*
 * One use-lite worker: loads the Universal Sentence Encoder lite (Cer et al., "Universal Sentence Encoder",
 * 2018; the TF.js port packaged by @energetic-ai, weights read from node_modules, no network) on the
 * runtime the pool names (`UseLiteWorkerData`: ONNX Runtime by default, or TF.js) and embeds the batches
 * it is sent, one at a time. Texts are tokenised here (`UseLiteTokenizer`: linear time, at most
 * `maxTokens` pieces) and the graph model runs on the ids, as the package's own `embed` does after its
 * quadratic tokenizer. Started by `spawnModuleWorker`, so no `import.meta` and no top-level await.
 */

const port = parentPort!
/** USE-lite's vector size. */
const DIMENSION = 512
const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer)
const { runtime: runtimeName, modelDir, precision } = workerData as UseLiteWorkerData

const started = performance.now()
const loading: Promise<{ runtime: UseLiteRuntime; tokenizer: UseLiteTokenizer }> = (async () => {
  if (runtimeName === 'tfjs') {
    const { runtime, vocabulary } = await useLiteTfjsRuntime()
    return { runtime, tokenizer: new UseLiteTokenizer(vocabulary) }
  }
  const vocabulary = JSON.parse(readFileSync(join(modelDir, 'vocab.json'), 'utf8')) as Vocabulary
  return {
    runtime: await useLiteOnnxRuntime(modelDir, precision),
    tokenizer: new UseLiteTokenizer(vocabulary),
  }
})()
// Ready means ready: a runtime prepares its kernels on a model's first run (TF.js: about 0.4 s), so one
// sentence is embedded before the pool is told, and no caller's first query pays for it.
loading
  .then(() => embedTexts(['Engram warms up its sentence encoder.'], 32))
  .then(
    () => send({ type: 'ready', loadMs: performance.now() - started }),
    (error: unknown) => send({ type: 'load-failed', message: String(error) }),
  )

port.on('message', (request: EmbedRequest) => {
  void embed(request)
})

async function embed({ id, texts, maxTokens }: EmbedRequest): Promise<void> {
  try {
    const vectors = await embedTexts(texts, maxTokens)
    send({ type: 'result', id, count: texts.length, vectors }, [vectors.buffer])
  } catch (error) {
    send({ type: 'error', id, message: String(error) })
  }
}

/**
 * Texts of at most this many pieces run on the float model under `precision: 'int8'`. A vector pools its
 * tokens, so the rounding of int8 products averages out over a text's pieces; over one to three pieces it
 * does not: single LoCoMo words went down to cosine 0.9987 against the float model, while every text of
 * four or more pieces stayed at 0.9993 or above (docs/embedders.md). Such texts are also the cheapest to run.
 */
const FLOAT_MAX_PIECES = 3

/** The L2-normalised vectors of `texts`, one after the other in one array. */
async function embedTexts(texts: string[], maxTokens: number): Promise<Float32Array<ArrayBuffer>> {
  const { runtime, tokenizer } = await loading
  const rows = pieceRows(tokenizer, texts, maxTokens)
  const vectors = new Float32Array(texts.length * DIMENSION)
  // Only the int8 graph has texts to keep apart; the float model runs the batch as one.
  const split = runtimeName === 'onnx' && precision === 'int8'
  const short = rows.map((ids) => !split || ids.length <= FLOAT_MAX_PIECES)
  for (const onFloat of [true, false]) {
    const members = rows.flatMap((_, row) => (short[row] === onFloat ? [row] : []))
    if (members.length === 0) continue
    const flat = await runtime.run(...sparseBatch(members.map((row) => rows[row]!)), onFloat)
    members.forEach((row, i) =>
      vectors.set(l2Normalize(flat.subarray(i * DIMENSION, (i + 1) * DIMENSION)), row * DIMENSION),
    )
  }
  return vectors
}
