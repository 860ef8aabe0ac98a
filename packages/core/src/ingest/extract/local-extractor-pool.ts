import type { Worker } from 'node:worker_threads'
import type { ExtractionInput, Extractor } from '../../contracts/extractor.js'
import { spawnModuleWorker } from '../../embedders/spawn-module-worker.js'
import { boundedRanges } from '../../bounded-ranges.js'
import { FairQueue } from '../../fair-queue.js'
import { EngramError } from '../../errors.js'
import { union } from '../../model/common.js'
import type { ExtractedGraph } from '../../contracts/extractor.js'
import type { LocalExtractorOptions } from './local-extractor.js'
import { PersonNames, stripTitles } from './coreference.js'
import { withoutWholeText } from './markdown-mask.js'

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
  /** Requests sent whose reply has not come back (an aborted one still holds the worker). */
  busy: number
  /** Of those, the ids of long ones (`LONG_REQUEST`): nothing is queued behind one. */
  long: Set<number>
  /** Characters of text sent to this worker so far. */
  chars: number
  /** Past `recycleAfterChars`: sent nothing more, and replaced once its requests are answered. */
  retiring: boolean
  pending: Map<number, Pending>
}

/** One slice of a call, waiting for a worker. */
interface Waiting {
  input: ExtractionInput
  call: object
  sent(slot: Slot, id: number): void
  pending: Pending
}

export interface LocalExtractorPoolOptions extends LocalExtractorOptions {
  /** Worker threads (default 2). */
  workers?: number
  /**
   * Passages per worker request (default 256): an input with more is cut into parts, each extracted
   * alone (see `charsPerRequest`).
   */
  passagesPerRequest?: number
  /**
   * Characters per worker request (default 65,536; a longer passage goes alone). An input up to this
   * size is extracted whole by one worker, as `localExtractor()` extracts it; a longer one is cut into
   * parts that the workers extract at once, and a part reads nothing of the others: "she" goes to a
   * person of its own part (a short name alone is joined to another part's full name at the merge,
   * `joinPeopleAcrossParts`). So this bounds how much of a text is read together. Another brain's
   * request never waits behind more than the one long request (over 8,000 characters) a busy worker is
   * extracting: about 0.5 s at the default on one core (7.6 ms per KB of SciFact abstracts,
   * benchmarks/LOG.md 2026-12-04).
   */
  charsPerRequest?: number
  /**
   * Nice value of the worker threads on Linux (default 10; 0 leaves them at the process's): above the
   * event loop's, so that when the cores are busy the threads answering requests run before
   * extraction, which only ingestion waits for. Linux gives each thread its own nice value; elsewhere
   * a thread cannot lower only its own priority (the call would lower the whole process's), so this is
   * not applied there.
   */
  niceness?: number
  /**
   * Characters of text a worker thread extracts before it is replaced by a fresh one (default 256 Mi;
   * 0 never). wink-nlp keeps every token it has met for the life of its instance (`wink-entities.ts`),
   * about 0.6 MB of heap per MB of new text on SciFact abstracts, growing as long as new words come, and
   * a second instance in one thread is no way out (wink-eng-lite-web-model 1.8.1 serialises its
   * custom-entity model into itself at every load, so it grows until a load fails). A retiring worker
   * is sent nothing more and ends once its requests are answered; its replacement loads the libraries
   * again (about 1 s of CPU).
   */
  recycleAfterChars?: number
  /** Called with the thread id of each worker thread started (for metrics and tests). */
  onWorkerStart?: (threadId: number) => void
}

/** What an extraction worker thread is started with. */
export interface ExtractionWorkerData {
  options: LocalExtractorOptions
  niceness: number
}

/**
 * Slices a worker holds at once: the next one is already in its message queue when it finishes one,
 * so it does not idle while the main thread is busy, and another brain's slice waits behind one more.
 */
const IN_FLIGHT = 2
/** A request of more characters than this is long: a worker extracting one is sent nothing more. */
const LONG_REQUEST = 8000

/** Consecutive slices of `input`'s passages within `maxPassages` and `maxChars`. */
function slicesOf(
  input: ExtractionInput,
  maxPassages: number,
  maxChars: number,
): ExtractionInput[] {
  const sizes = input.passages.map((p) => p.text.length)
  return boundedRanges(sizes, maxPassages, maxChars).map(([start, end]) => ({
    ...input,
    passages: input.passages.slice(start, end),
  }))
}

/**
 * Folds the graphs of consecutive slices of one input in slice order, each as soon as it and the
 * slices before it have arrived, so a long text is merged while the workers still extract instead
 * of in one stretch at the end. Entity keys are stable across slices (`LABEL:normalised name`), so
 * an entity seen in several slices becomes one, citing every passage.
 */
function sliceMerger(count: number) {
  const waiting = new Map<number, ExtractedGraph>()
  let next = 0
  let only: ExtractedGraph | null = null
  const entities = new Map<string, ExtractedGraph['entities'][number]>()
  // A set per entity: a name found in every slice of a long text would make `includes` quadratic.
  const cited = new Map<string, Set<string>>()
  const relationships: ExtractedGraph['relationships'] = []
  const observations: ExtractedGraph['observations'] = []

  /** Adds `ids` to the passages a merged entity cites, each once. */
  function cite(entity: ExtractedGraph['entities'][number], ids: readonly string[]) {
    const known = cited.get(entity.key)!
    for (const id of ids)
      if (!known.has(id)) {
        known.add(id)
        entity.passageIds.push(id)
      }
  }

  function fold(graph: ExtractedGraph) {
    for (const entity of graph.entities) {
      const seen = entities.get(entity.key)
      if (seen === undefined) {
        const copy = { ...entity, passageIds: [...entity.passageIds] }
        if (entity.aliases !== undefined) copy.aliases = [...entity.aliases]
        entities.set(entity.key, copy)
        cited.set(entity.key, new Set(entity.passageIds))
      } else {
        cite(seen, entity.passageIds)
        if (entity.aliases !== undefined) seen.aliases = union(seen.aliases ?? [], entity.aliases)
      }
    }
    for (const r of graph.relationships) relationships.push(r)
    for (const o of graph.observations) observations.push(o)
  }

  return {
    add(index: number, graph: ExtractedGraph) {
      if (count === 1) only = graph
      waiting.set(index, graph)
      for (let g = waiting.get(next); g !== undefined; g = waiting.get(next)) {
        waiting.delete(next++)
        if (count > 1) fold(g)
      }
    },
    result(): ExtractedGraph {
      if (next < count) throw new Error(`merged ${next} of ${count} slices`)
      return (
        only ?? joinPeopleAcrossParts([...entities.values()], relationships, observations, cite)
      )
    },
  }
}

/**
 * The people of a text read in parts, joined as the extractor joins them within a part (`PersonNames`,
 * coreference.ts): a person named by a surname, first name or nickname alone ("Smith") is the full name
 * of the text that contains it ("John Smith", the first named when several do), wherever in the text
 * each stands. Within a part the extractor did this already; a part that named only "Smith" made a
 * person of its own, whose records now go to the full name's. What the extractor derived from the
 * short name inside its part (an event's name, "she" resolved in that part) stays as it was. `cite`
 * adds passages to a merged entity (`sliceMerger`'s, each once).
 */
function joinPeopleAcrossParts(
  entities: ExtractedGraph['entities'],
  relationships: ExtractedGraph['relationships'],
  observations: ExtractedGraph['observations'],
  cite: (entity: ExtractedGraph['entities'][number], ids: readonly string[]) => void,
): ExtractedGraph {
  const persons = entities.filter((e) => e.labels.includes('PERSON'))
  const people = new PersonNames()
  /** A full name (titles stripped) -> the first person entity of that name. */
  const byFullName = new Map<string, ExtractedGraph['entities'][number]>()
  for (const e of persons) {
    people.addFullName(e.name)
    const clean = stripTitles(e.name)
    if (!byFullName.has(clean)) byFullName.set(clean, e)
  }
  const joined = new Map<string, string>()
  for (const e of persons) {
    const full = people.fullNameOf(e.name)
    const target = full === null ? undefined : byFullName.get(full)
    if (target === undefined || target.key === e.key) continue
    joined.set(e.key, target.key)
    cite(target, e.passageIds)
  }
  if (joined.size === 0) return { entities, relationships, observations }
  const to = (key: string) => joined.get(key) ?? key
  return {
    entities: entities.filter((e) => !joined.has(e.key)),
    relationships: relationships
      .map((r) => ({ ...r, subjectKey: to(r.subjectKey), objectKey: to(r.objectKey) }))
      .filter((r) => r.subjectKey !== r.objectKey),
    observations: observations.map((o) => ({ ...o, aboutKey: to(o.aboutKey) })),
  }
}

/**
 * Joins the graphs of consecutive slices of one input, in slice order: entity keys are stable across
 * slices (`LABEL:normalised name`), so an entity seen in several slices becomes one, citing every passage,
 * and a person one slice names by a short name alone joins the full name of another
 * (`joinPeopleAcrossParts`).
 */
export function mergeExtractedGraphs(graphs: ExtractedGraph[]): ExtractedGraph {
  const merger = sliceMerger(graphs.length)
  graphs.forEach((graph, index) => merger.add(index, graph))
  return merger.result()
}

/**
 * The local extractor on worker threads: compromise's tagging is synchronous and costs about 1 ms per
 * short passage, so on the main thread it would compete with request handling and use one core only.
 * A call of up to `charsPerRequest` characters goes to one worker whole, so its results are those of
 * `localExtractor()` (the same code runs in the worker: a text's later surname joins its full name, "she"
 * goes to its main person); a longer call is cut into parts of that size, which the workers extract at
 * once. Each worker takes requests from a queue that serves brains in turn (`FairQueue`,
 * `ExtractionContext.brainId`), so one brain's megabyte of text delays another brain's next request by
 * one part, not by the whole text. (Parts were 8,000 characters until 2026-12-04: a README of 45 KB was
 * then read in six parts, and 5% of the relationships of this project's docs differed from the in-thread
 * extractor's: "Smith" and "Tim" were nodes of their own beside "John Smith" and "Tim Commerford".) A
 * worker that dies fails its requests (the task is retried by the queue) and is replaced on the next
 * request.
 */
export function localExtractorPool(options: LocalExtractorPoolOptions = {}): Extractor & {
  /**
   * Starts every worker and waits until each has loaded its NLP models and extracted one sentence;
   * resolves to the milliseconds each took. Optional: workers otherwise start on first use, and the
   * first requests wait for them (about 0.7 s of CPU each when run from TypeScript sources).
   */
  warmUp(): Promise<number[]>
  close(): Promise<void>
} {
  const size = Math.max(1, options.workers ?? 2)
  const perRequest = Math.max(1, options.passagesPerRequest ?? 256)
  const charsPerRequest = Math.max(1, options.charsPerRequest ?? 65_536)
  const {
    workers: _workers,
    passagesPerRequest: _perRequest,
    charsPerRequest: _chars,
    niceness = 10,
    recycleAfterChars = 256 * 2 ** 20,
    onWorkerStart,
    ...extractorOptions
  } = options
  const slots: (Slot | null)[] = Array.from({ length: size }, () => null)
  const waiting = new FairQueue<Waiting>()
  let nextId = 0
  let closed = false

  function start(index: number): Slot {
    const worker = spawnModuleWorker(new URL('./local-extractor-worker.js', import.meta.url), {
      workerData: { options: extractorOptions, niceness } satisfies ExtractionWorkerData,
    })
    onWorkerStart?.(worker.threadId)
    const slot: Slot = {
      worker,
      busy: 0,
      long: new Set(),
      chars: 0,
      retiring: false,
      pending: new Map(),
    }
    const failAll = (error: unknown) => {
      for (const p of slot.pending.values()) p.reject(error)
      slot.pending.clear()
      if (slots[index] === slot) slots[index] = null
      dispatch()
    }
    worker.on('message', (reply: ExtractionReply) => {
      slot.busy--
      slot.long.delete(reply.id)
      const pending = slot.pending.get(reply.id)
      slot.pending.delete(reply.id)
      // The reply of an aborted request has no one waiting, but may still be the worker's last.
      if (pending !== undefined) {
        if (reply.graph !== undefined) pending.resolve(reply.graph)
        else pending.reject(new EngramError('INTERNAL_ERROR', `Extraction failed: ${reply.error}`))
      }
      if (slot.busy === 0) worker.unref()
      if (slot.retiring && slot.busy === 0 && slots[index] === slot) {
        // Nothing in flight: its exit fails no request, and the next dispatch starts a fresh worker here.
        slots[index] = null
        void worker.terminate()
      }
      dispatch()
    })
    worker.on('error', failAll)
    worker.on('exit', (code) =>
      failAll(new EngramError('INTERNAL_ERROR', `Extraction worker exited (code ${code}).`)),
    )
    worker.unref()
    return slot
  }

  /** Sends one request to a worker. */
  function send(slot: Slot, input: ExtractionInput, pending: Pending): number {
    const id = nextId++
    slot.pending.set(id, pending)
    slot.busy++
    const chars = input.passages.reduce((n, p) => n + p.text.length, 0)
    if (chars > LONG_REQUEST) slot.long.add(id)
    slot.chars += chars
    if (recycleAfterChars > 0 && slot.chars >= recycleAfterChars) slot.retiring = true
    slot.worker.ref()
    slot.worker.postMessage({ id, input } satisfies ExtractionRequest)
    return id
  }

  /**
   * Keeps every worker fed with up to IN_FLIGHT waiting slices, brains in turn, least loaded first: a
   * slice queues behind another in a busy worker only when no worker is idle. (Filling worker 0 to
   * IN_FLIGHT first left worker 1 idle whenever two slices waited, e.g. a few short tasks at once.)
   * A worker extracting a long request is sent nothing more until it ends.
   */
  function dispatch(): void {
    if (closed) return
    for (let load = 0; load < IN_FLIGHT && waiting.size > 0; load++) {
      for (let index = 0; index < size && waiting.size > 0; index++) {
        const held = slots[index]
        if ((held?.busy ?? 0) > load || (held?.long.size ?? 0) > 0 || held?.retiring) continue
        const next = waiting.shift()!
        const slot = (slots[index] ??= start(index))
        next.sent(slot, send(slot, next.input, next.pending))
      }
    }
  }

  return {
    kind: 'extractor',
    name: 'local',
    async extract(input, ctx) {
      if (closed) throw new EngramError('SERVICE_UNAVAILABLE', 'Extractor closed.')
      const { signal } = ctx
      signal.throwIfAborted()
      const slices = slicesOf(withoutWholeText(input), perRequest, charsPerRequest)
      // One abort listener per call, not per slice: a text of a few megabytes is hundreds of slices.
      const call = {}
      const sent: { slot: Slot; id: number }[] = []
      let onAbort = () => {}
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => {
          waiting.remove((w) => w.call === call)
          for (const { slot, id } of sent) slot.pending.delete(id)
          reject(signal.reason)
        }
        signal.addEventListener('abort', onAbort, { once: true })
      })
      const merger = sliceMerger(slices.length)
      const replies = slices.map((slice, index) =>
        new Promise<ExtractedGraph>((resolve, reject) => {
          waiting.push(ctx.brainId ?? '', {
            input: slice,
            call,
            sent: (slot, id) => sent.push({ slot, id }),
            pending: { resolve, reject },
          })
        }).then((graph) => merger.add(index, graph)),
      )
      dispatch()
      try {
        await Promise.race([Promise.all(replies), aborted])
        return merger.result()
      } finally {
        signal.removeEventListener('abort', onAbort)
        waiting.remove((w) => w.call === call)
      }
    },
    async warmUp() {
      if (closed) throw new EngramError('SERVICE_UNAVAILABLE', 'Extractor closed.')
      const probe: ExtractionInput = {
        passages: [{ id: 'warm-up', text: 'Dana met Omar in Lisbon yesterday.' }],
        sourceTimestamp: new Date(0).toISOString(),
        observateFor: [],
      }
      return Promise.all(
        slots.map(async (_, index) => {
          const t0 = performance.now()
          const slot = (slots[index] ??= start(index))
          await new Promise<ExtractedGraph>((resolve, reject) =>
            send(slot, probe, { resolve, reject }),
          )
          return performance.now() - t0
        }),
      )
    },
    async close() {
      closed = true
      const error = new EngramError('SERVICE_UNAVAILABLE', 'Extractor closed.')
      waiting.remove((w) => (w.pending.reject(error), true))
      await Promise.all(slots.map((slot) => slot?.worker.terminate()))
    },
  }
}
