import type { EmbedOptions, Embedder } from '../contracts/embedder.js'
import { boundedRanges } from '../bounded-ranges.js'
import { FairQueue } from '../fair-queue.js'
import { EngramError } from '../errors.js'

export interface ScheduledEmbedderOptions {
  /** Calls in flight at the wrapped embedder at once: its parallelism (use-lite: its workers). */
  concurrency: number
  /** Texts per call to the wrapped embedder (default 32). */
  maxTexts?: number
  /**
   * Characters per call (default 4,000; a longer text goes alone). A call holds a worker until it
   * returns, so this bounds how long a query waits behind ingestion: about 0.3 s of USE-lite.
   */
  maxChars?: number
  /** How long an interactive call may wait for its vectors before it fails with 503 (default 10 s). */
  interactiveDeadlineMs?: number
}

interface Call {
  texts: string[]
  vectors: Float32Array[]
  remaining: number
  signal: AbortSignal
  settled: boolean
  resolve(vectors: Float32Array[]): void
  reject(error: unknown): void
}

interface Slice {
  call: Call
  start: number
  end: number
}

/**
 * Shares one embedder fairly between brains and between people and ingestion (CONTRACT.md section 1,
 * fairness): every call is cut into small slices, and at most `concurrency` slices are in the wrapped
 * embedder at once, taken from two fair queues: interactive calls (`EmbedOptions.priority`: a query, a
 * `/model` write) before bulk ones (ingestion), and within each, brains in turn (`FairQueue`). So a
 * brain ingesting a megabyte holds the embedder one slice at a time, and a query of another brain
 * waits for one slice to finish, not for the backlog. An interactive call that still waits after
 * `interactiveDeadlineMs` fails with 503 SERVICE_UNAVAILABLE and a Retry-After.
 */
export function scheduledEmbedder<E extends Embedder>(
  inner: E,
  options: ScheduledEmbedderOptions,
): E {
  const concurrency = Math.max(1, options.concurrency)
  const maxTexts = Math.max(1, options.maxTexts ?? 32)
  const maxChars = Math.max(1, options.maxChars ?? 4000)
  const deadlineMs = options.interactiveDeadlineMs ?? 10_000
  const queues = { interactive: new FairQueue<Slice>(), bulk: new FairQueue<Slice>() }
  let inFlight = 0

  function fail(call: Call, error: unknown) {
    if (call.settled) return
    call.settled = true
    queues.interactive.remove((slice) => slice.call === call)
    queues.bulk.remove((slice) => slice.call === call)
    call.reject(error)
  }

  function pump() {
    while (inFlight < concurrency) {
      const slice = queues.interactive.shift() ?? queues.bulk.shift()
      if (slice === undefined) return
      const { call, start, end } = slice
      inFlight++
      inner
        .embed(call.texts.slice(start, end), call.signal)
        .then(
          (vectors) => {
            if (call.settled) return
            vectors.forEach((vector, i) => (call.vectors[start + i] = vector))
            call.remaining -= end - start
            if (call.remaining === 0) {
              call.settled = true
              call.resolve(call.vectors)
            }
          },
          (error: unknown) => fail(call, error),
        )
        .finally(() => {
          inFlight--
          pump()
        })
    }
  }

  function embed(texts: string[], signal: AbortSignal, how: EmbedOptions = {}) {
    if (texts.length === 0) return Promise.resolve([])
    signal.throwIfAborted()
    const priority = how.priority ?? 'bulk'
    const deadline = priority === 'interactive' ? AbortSignal.timeout(deadlineMs) : null
    const callSignal = deadline === null ? signal : AbortSignal.any([signal, deadline])
    return new Promise<Float32Array[]>((resolve, reject) => {
      const done = () => callSignal.removeEventListener('abort', onAbort)
      const call: Call = {
        texts,
        vectors: new Array<Float32Array>(texts.length),
        remaining: texts.length,
        signal: callSignal,
        settled: false,
        resolve: (vectors) => (done(), resolve(vectors)),
        reject: (error) => (done(), reject(error)),
      }
      const onAbort = () =>
        fail(
          call,
          signal.aborted
            ? signal.reason
            : new EngramError(
                'SERVICE_UNAVAILABLE',
                `The embedder did not answer within ${deadlineMs / 1000} s.`,
                { retryAfter: 5 },
              ),
        )
      callSignal.addEventListener('abort', onAbort, { once: true })
      const sizes = texts.map((text) => text.length)
      for (const [start, end] of boundedRanges(sizes, maxTexts, maxChars))
        queues[priority].push(how.brainId ?? '', { call, start, end })
      pump()
    })
  }

  return { ...inner, embed }
}
