import type { Worker } from 'node:worker_threads'
import type { ExtractionInput, Extractor } from '../../contracts/extractor.js'
import { spawnModuleWorker } from '../../embedders/spawn-module-worker.js'
import { EngramError } from '../../errors.js'
import type { ExtractedGraph } from '../pipeline/ingestion-components.js'
import type { LocalExtractorOptions } from './local-extractor.js'

export interface ExtractionRequest {
  id: number
  input: ExtractionInput
}

export type ExtractionReply =
  { id: number; graph: ExtractedGraph } | { id: number; error: string; graph?: undefined }

interface Pending {
  resolve(graph: ExtractedGraph): void
  reject(error: unknown): void
}

interface Slot {
  worker: Worker
  pending: Map<number, Pending>
}

export interface LocalExtractorPoolOptions extends LocalExtractorOptions {
  /** Worker threads (default 2). */
  workers?: number
  /** Passages per worker request: a large input is split so every worker takes part (default 16). */
  passagesPerRequest?: number
}

/**
 * Joins the graphs of consecutive slices of one input, in slice order: entity keys are stable across
 * slices (`LABEL:normalised name`), so an entity seen in several slices becomes one, citing every passage.
 */
export function mergeExtractedGraphs(graphs: ExtractedGraph[]): ExtractedGraph {
  if (graphs.length === 1) return graphs[0]!
  const entities = new Map<string, ExtractedGraph['entities'][number]>()
  for (const graph of graphs) {
    for (const entity of graph.entities) {
      const seen = entities.get(entity.key)
      if (seen === undefined)
        entities.set(entity.key, { ...entity, passageIds: [...entity.passageIds] })
      else
        for (const id of entity.passageIds)
          if (!seen.passageIds.includes(id)) seen.passageIds.push(id)
    }
  }
  return {
    entities: [...entities.values()],
    relationships: graphs.flatMap((g) => g.relationships),
    observations: graphs.flatMap((g) => g.observations),
  }
}

/**
 * The local extractor on worker threads: compromise's tagging is synchronous and costs about 3 ms per
 * short passage, so on the main thread it would compete with request handling and use one core only.
 * Each request goes to the worker with the fewest requests in flight; results are identical to
 * `localExtractor()` (the same code runs in the worker). A worker that dies fails its requests (the task
 * is retried by the queue) and is replaced on the next request.
 */
export function localExtractorPool(options: LocalExtractorPoolOptions = {}): Extractor & {
  close(): Promise<void>
} {
  const size = Math.max(1, options.workers ?? 2)
  const perRequest = Math.max(1, options.passagesPerRequest ?? 16)
  const { workers: _workers, passagesPerRequest: _perRequest, ...extractorOptions } = options
  const slots: (Slot | null)[] = Array.from({ length: size }, () => null)
  let nextId = 0
  let closed = false

  function start(index: number): Slot {
    const worker = spawnModuleWorker(new URL('./local-extractor-worker.js', import.meta.url), {
      workerData: extractorOptions,
    })
    const slot: Slot = { worker, pending: new Map() }
    const failAll = (error: unknown) => {
      for (const p of slot.pending.values()) p.reject(error)
      slot.pending.clear()
      if (slots[index] === slot) slots[index] = null
    }
    worker.on('message', (reply: ExtractionReply) => {
      const pending = slot.pending.get(reply.id)
      if (pending === undefined) return
      slot.pending.delete(reply.id)
      if (reply.graph !== undefined) pending.resolve(reply.graph)
      else pending.reject(new EngramError('INTERNAL_ERROR', `Extraction failed: ${reply.error}`))
      if (slot.pending.size === 0) worker.unref()
    })
    worker.on('error', failAll)
    worker.on('exit', (code) =>
      failAll(new EngramError('INTERNAL_ERROR', `Extraction worker exited (code ${code}).`)),
    )
    worker.unref()
    return slot
  }

  function pick(): Slot {
    let best = -1
    for (let i = 0; i < size; i++) {
      const load = slots[i]?.pending.size ?? 0
      if (best < 0 || load < (slots[best]?.pending.size ?? 0)) best = i
    }
    return (slots[best] ??= start(best))
  }

  function request(input: ExtractionInput, signal: AbortSignal): Promise<ExtractedGraph> {
    if (closed) return Promise.reject(new EngramError('SERVICE_UNAVAILABLE', 'Extractor closed.'))
    signal.throwIfAborted()
    const slot = pick()
    const id = nextId++
    return new Promise<ExtractedGraph>((resolve, reject) => {
      const onAbort = () => {
        slot.pending.delete(id)
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal.removeEventListener('abort', onAbort)
          fn(value)
        }
      slot.pending.set(id, { resolve: settle(resolve), reject: settle(reject) })
      slot.worker.ref()
      slot.worker.postMessage({ id, input } satisfies ExtractionRequest)
    })
  }

  return {
    kind: 'extractor',
    name: 'local',
    async extract(input, ctx) {
      const slices: ExtractionInput[] = []
      for (let i = 0; i < input.passages.length; i += perRequest)
        slices.push({ ...input, passages: input.passages.slice(i, i + perRequest) })
      if (slices.length === 0) slices.push(input)
      return mergeExtractedGraphs(await Promise.all(slices.map((s) => request(s, ctx.signal))))
    },
    async close() {
      closed = true
      await Promise.all(slots.map((slot) => slot?.worker.terminate()))
    },
  }
}
