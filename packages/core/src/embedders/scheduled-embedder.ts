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

const sliceTexts = ({ call, start, end }: Slice) => call.texts.slice(start, end)

function sliceChars({ call, start, end }: Slice): number {
  let chars = 0
  for (let i = start; i < end; i++) chars += call.texts[i]!.length
  return chars
}

/**
 * The signal of a call to the wrapped embedder on behalf of `slices`: aborted once every one of their
 * calls is (one caller giving up must not cancel the texts of another merged with it).
 */
function eitherSignal(slices: readonly Slice[]): { signal: AbortSignal; release(): void } {
  const signals = [...new Set(slices.map((slice) => slice.call.signal))]
  if (signals.length === 1) return { signal: signals[0]!, release: () => {} }
  const controller = new AbortController()
  let live = signals.length
  const onAbort = () => {
    if (--live === 0) controller.abort(signals[0]!.reason)
  }
  for (const signal of signals)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  // Once the call is over, its callers' signals (a task's lives on) need not hold the listener.
  const release = () => signals.forEach((signal) => signal.removeEventListener('abort', onAbort))
  return { signal: controller.signal, release }
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
      const first = queues.interactive.shift()
      const queue = first === undefined ? queues.bulk : queues.interactive
      const slices = take(queue, first ?? queues.bulk.shift())
      if (slices.length === 0) return
      inFlight++
      const merged = eitherSignal(slices)
      // The priority goes on: a bulk call may wait a moment for more texts in the wrapped embedder
      // (use-lite's batching window), an interactive one must not.
      inner
        .embed(
          slices.flatMap((slice) => sliceTexts(slice)),
          merged.signal,
          { priority: queue === queues.interactive ? 'interactive' : 'bulk' },
        )
        .then(
          (vectors) => {
            let at = 0
            for (const slice of slices) {
              deliver(slice, vectors.slice(at, at + slice.end - slice.start))
              at += slice.end - slice.start
            }
          },
          (error: unknown) => {
            for (const slice of slices) fail(slice.call, error)
          },
        )
        .finally(() => {
          merged.release()
          inFlight--
          pump()
        })
    }
  }

  /**
   * `first` and the slices of other calls queued behind it in the same queue, in turn, while the whole
   * stays within `maxTexts` and `maxChars`: many small calls at once (one per ingestion task, a few
   * entity names each) then cost the embedder one call, not one each (its per-call cost, a worker
   * round trip and a model run, is most of a short text's). Fair order is kept: it stops at the first
   * slice that does not fit.
   */
  function take(queue: FairQueue<Slice>, first: Slice | undefined): Slice[] {
    if (first === undefined) return []
    const slices = [first]
    let texts = first.end - first.start
    let chars = sliceChars(first)
    for (;;) {
      const next = queue.shiftIf(
        (slice) =>
          texts + slice.end - slice.start <= maxTexts && chars + sliceChars(slice) <= maxChars,
      )
      if (next === undefined) return slices
      slices.push(next)
      texts += next.end - next.start
      chars += sliceChars(next)
    }
  }

  function deliver({ call, start }: Slice, vectors: Float32Array[]) {
    if (call.settled) return
    vectors.forEach((vector, i) => (call.vectors[start + i] = vector))
    call.remaining -= vectors.length
    if (call.remaining === 0) {
      call.settled = true
      call.resolve(call.vectors)
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
