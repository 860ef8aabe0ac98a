import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { localExtractor } from './local-extractor.js'
import type {
  ExtractionRequest,
  ExtractionReply,
  ExtractionWorkerData,
} from './local-extractor-pool.js'

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
const { options, niceness } = workerData as ExtractionWorkerData
// This thread only (Linux keeps a nice value per thread; see `LocalExtractorPoolOptions.niceness`).
if (niceness > 0 && process.platform === 'linux') {
  try {
    setPriority(niceness)
  } catch {
    // A sandbox that forbids it: extraction runs at the process's priority, as with `niceness: 0`.
  }
}
const extractor = localExtractor(options)
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
