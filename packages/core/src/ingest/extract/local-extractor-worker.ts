import { parentPort, workerData } from 'node:worker_threads'
import { localExtractor, type LocalExtractorOptions } from './local-extractor.js'
import type { ExtractionRequest, ExtractionReply } from './local-extractor-pool.js'

/*
 * One extraction worker thread: runs the local extractor on the passages it is sent, one request at a time
 * (they queue on this thread's event loop). Started by `spawnModuleWorker`, so no `import.meta` and no
 * top-level await.
 */
const port = parentPort!
const extractor = localExtractor(workerData as LocalExtractorOptions)
const never = new AbortController().signal

port.on('message', (request: ExtractionRequest) => {
  extractor.extract(request.input, { signal: never }).then(
    (graph) => port.postMessage({ id: request.id, graph } satisfies ExtractionReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, error: String(error) } satisfies ExtractionReply),
  )
})
