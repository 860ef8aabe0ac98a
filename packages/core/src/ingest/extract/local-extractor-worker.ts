import { parentPort, workerData } from 'node:worker_threads'
import { localExtractor, type LocalExtractorOptions } from './local-extractor.js'
import type { ExtractionRequest, ExtractionReply } from './local-extractor-pool.js'

/*
 * One extraction worker thread: runs the local extractor on the passages it is sent, one request at a
 * time, in order of arrival. Started by `spawnModuleWorker`, so no `import.meta` and no top-level await.
 *
 * The extractor gives the event loop a turn every ~10 ms; without the queue below, every request
 * waiting here would start at once and advance in turns, so that the hundreds of slices of a long text
 * all finished together at the end (the pool could not merge them as they came, and the main thread
 * then merged them in one stretch), and a short task's request waited behind all of them.
 */
const port = parentPort!
const extractor = localExtractor(workerData as LocalExtractorOptions)
const never = new AbortController().signal
let queue: Promise<void> = Promise.resolve()

port.on('message', (request: ExtractionRequest) => {
  queue = queue.then(() =>
    extractor.extract(request.input, { signal: never }).then(
      (graph) => port.postMessage({ id: request.id, graph } satisfies ExtractionReply),
      (error: unknown) =>
        port.postMessage({ id: request.id, error: String(error) } satisfies ExtractionReply),
    ),
  )
})
