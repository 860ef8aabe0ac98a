import { performance } from 'node:perf_hooks'
import {
  createEngine,
  createRetrieveDeps,
  EVENT_LABEL,
  INGEST_TEXT,
  memoryAdapter,
  type Embedder,
  type Engram,
  type RetrieveDeps,
  type SearchService,
  type TextIngestPayload,
} from '@engram/core'
import { parseLocomoDate } from '../ingest/locomo-tasks.js'
import type { BenchDoc } from '../loaders/dataset-types.js'

/**
 * `source_timestamp` of a document without a date (MuSiQue's Wikipedia paragraphs). Fixed rather than
 * "now" (the server's default) so relative dates and recency scores, hence the numbers, do not drift.
 */
export const UNDATED_SOURCE = '2024-01-01T00:00:00.000Z'

/** Passage metadata key (a `meta_keys` entry) carrying the dataset document id back to the harness. */
export const DOC_ID_KEY = 'doc_id'

/** One benchmark document as the `ingest_text` task a client would send for it. */
export interface DocTask {
  /** The client-chosen task id (`Task-Identifier`): passage and event ids derive from it, so reruns match. */
  readonly taskId: string
  readonly payload: TextIngestPayload
}

/**
 * The `ingest_text` task of one document: its index text (title and body), its metadata as `meta_keys`
 * plus `doc_id`, and, for a LoCoMo turn, the session date as `source_timestamp` (what anchors "yesterday").
 */
export function docTask(doc: BenchDoc): DocTask {
  const date = doc.metadata?.session_date
  return {
    taskId: `bench:${doc.id}`,
    payload: {
      text: taskText(doc),
      json: null,
      metaKeys: { ...(doc.metadata ?? {}), [DOC_ID_KEY]: doc.id },
      observateFor: [],
      sourceTimestamp: (typeof date === 'string' ? parseLocomoDate(date) : null) ?? UNDATED_SOURCE,
      skipEnrichment: false,
    },
  }
}

/**
 * The text a client sends for a document: a title on its own line above the body (a paragraph break), as a
 * titled page is written, so the extractor reads the title as a heading rather than as the first words of
 * the body's first sentence (joined by a space, `David Aja David Aja (born ...)` became one entity).
 */
export function taskText(doc: BenchDoc): string {
  return doc.title ? `${doc.title}\n\n${doc.text}` : doc.text
}

/** What ingestion wrote for one group, counted from the store afterwards. */
export interface IngestedCounts {
  readonly passages: number
  /** Documents whose text the chunker split into more than one passage. */
  readonly splitDocs: number
  /** Entities that are not events. */
  readonly entities: number
  readonly events: number
  readonly relationships: number
  readonly observations: number
}

/** Logs ingestion progress with the task rate (the systems pass it as `progress`). */
export function logProgress(start = performance.now()): (done: number, total: number) => void {
  return (done, total) => {
    const s = (performance.now() - start) / 1000
    console.log(`  ingesting: ${done} of ${total} tasks, ${(done / s).toFixed(1)} tasks/s`)
  }
}

/** One log line: what ingestion wrote. */
export function ingestCountsLine(c: IngestedCounts): string {
  return (
    `ingested ${c.passages} passages (${c.splitDocs} documents split into several), ${c.entities} entities, ` +
    `${c.events} events, ${c.relationships} relationships, ${c.observations} observations`
  )
}

export interface IngestedBrain {
  readonly engram: Engram
  /** The engine's search service on the same engine and embedder, indexes built. */
  readonly search: SearchService
  readonly brainId: string
  readonly counts: IngestedCounts
  /** Documents that became at least one passage (the harness's index check). */
  readonly documents: number
  /** Dataset document of a passage id. */
  docOfPassage(passageId: string): string | undefined
  /** Dataset documents a record stands for: a passage's own, an entity's or event's source passages'. */
  docsOf(recordId: string): readonly string[]
  /** The dependencies of a `/retrieve/*` request, built as the server builds them, on a pinned clock. */
  retrieveDeps(): Promise<RetrieveDeps>
  close(): Promise<void>
}

export interface IngestOptions {
  /** Embeds passages and entities at ingestion and queries at search; null for lexical only. Not closed. */
  readonly embedder: Embedder | null
  /** Called every `progressMs` (default 30 s) while tasks run, with the tasks finished so far. */
  readonly progress?: (done: number, total: number) => void
  readonly progressMs?: number
  /**
   * False ingests with `EngineOptions.contradictions: false`: validity windows are recorded but no newer
   * single-valued fact ends an older one (issue 28's "without" condition). Default: the engine's (on).
   */
  readonly contradictions?: boolean
}

const BRAIN = 'bench'
const PAGE = 1000

/**
 * Ingests one group's documents through the real pipeline, in process: `createEngine` on the memory adapter
 * with the default ingestion components (local extractor, 256/32-token chunks, the embedder),
 * one `ingest_text` task per document submitted with `engram.tasks.submit`, then `tasks.idle()`. One task at
 * a time (`workers: 1`): entity resolution reads what earlier tasks wrote, so two tasks in flight could
 * resolve differently from run to run, and quality numbers must not. Every task must complete.
 *
 * Afterwards passages are mapped back to documents through their `doc_id` metadata, and entities and events
 * through their source passages. The clock of `/retrieve/*` operations is pinned to the newest
 * `source_timestamp` (a LoCoMo conversation's last session), so recency scores are reproducible.
 */
export async function ingestDocs(
  docs: readonly BenchDoc[],
  options: IngestOptions,
): Promise<IngestedBrain> {
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 'bench',
    defaultBrain: BRAIN,
    workers: 1,
    maxPendingTasks: docs.length + 1,
    // Configured as the server: the indexes follow every commit and resolution compares candidates
    // with the entity vectors.
    embedder: options.embedder,
    ...(options.contradictions === false ? { contradictions: false } : {}),
  })
  const search = engram.search
  try {
    await engram.start()
    const tasks = docs.map(docTask)
    for (const t of tasks)
      await engram.tasks.submit({
        brainId: BRAIN,
        kind: INGEST_TEXT,
        payload: t.payload,
        taskId: t.taskId,
      })
    const timer = setInterval(() => {
      const { running, pending } = engram.tasks.stats()
      options.progress?.(docs.length - running - pending, docs.length)
    }, options.progressMs ?? 30_000)
    try {
      await engram.tasks.idle()
    } finally {
      clearInterval(timer)
    }
    await requireCompleted(engram, docs.length)

    const store = await engram.store(BRAIN)
    const passageDoc = new Map<string, string>()
    const chunksPerDoc = new Map<string, number>()
    for (let after: string | null = null; ;) {
      const page = await store.passages.scan(after, PAGE)
      for (const p of page) {
        const doc = p.metadata[DOC_ID_KEY]
        if (typeof doc !== 'string') continue
        passageDoc.set(p.id, doc)
        chunksPerDoc.set(doc, (chunksPerDoc.get(doc) ?? 0) + 1)
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.id
    }
    const entityDocs = new Map<string, readonly string[]>()
    let events = 0
    for (let after: string | null = null; ;) {
      const page = await store.entities.scan(after, PAGE)
      for (const e of page) {
        if (e.labels.includes(EVENT_LABEL)) events++
        const sources = e.sourcePassageIds.map((id) => passageDoc.get(id))
        entityDocs.set(e.uuid, [...new Set(sources.filter((d): d is string => d !== undefined))])
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
    }
    const stats = await store.stats()
    const counts: IngestedCounts = {
      passages: passageDoc.size,
      splitDocs: [...chunksPerDoc.values()].filter((n) => n > 1).length,
      entities: entityDocs.size - events,
      events,
      relationships: stats.relationships,
      observations: stats.observations,
    }

    await engram.indexes.get(BRAIN)
    const newest = Math.max(...tasks.map((t) => Date.parse(t.payload.sourceTimestamp)))
    const clock = new Date(Number.isFinite(newest) ? newest : Date.parse(UNDATED_SOURCE))
    return {
      engram,
      search,
      brainId: BRAIN,
      counts,
      documents: chunksPerDoc.size,
      docOfPassage: (id) => passageDoc.get(id),
      docsOf: (id) => {
        const doc = passageDoc.get(id)
        return doc !== undefined ? [doc] : (entityDocs.get(id) ?? [])
      },
      retrieveDeps: () => createRetrieveDeps(engram, BRAIN, { now: () => clock }),
      close: () => engram.stop({ graceMs: 0 }),
    }
  } catch (error) {
    await engram.stop({ graceMs: 0 })
    throw error
  }
}

/** Throws unless every submitted task completed (a failed task would silently drop documents). */
async function requireCompleted(engram: Engram, submitted: number): Promise<void> {
  let completed = 0
  const failures: string[] = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await engram.tasks.list(BRAIN, { limit: PAGE, skip })
    for (const task of page) {
      if (task.status === 'completed') completed++
      else failures.push(`${task.id}: ${task.status} ${task.error ?? ''}`.trim())
    }
    if (page.length < PAGE) break
  }
  if (completed !== submitted)
    throw new Error(
      `ingestion: ${completed} of ${submitted} tasks completed; ${failures.slice(0, 3).join('; ')}`,
    )
}

/** Brains by documents, then by the options that change what ingestion writes (`contradictions`). */
const shared = new Map<readonly BenchDoc[], Map<string, Promise<IngestedBrain>>>()

/**
 * `ingestDocs` shared by the systems of one config run that read the same documents with the same embedder
 * (a graph condition and its ablations, which run one after another): the first ingests, the others reuse
 * the brain; `close` on a shared brain does nothing, and `closeSharedBrains` (at the end of the config) stops
 * them all. Ingestion is deterministic, so sharing changes no number, only the time. A system asking for
 * another ingestion (`contradictions: false`) gets a brain of its own, shared the same way.
 */
export async function sharedIngest(
  docs: readonly BenchDoc[],
  options: IngestOptions,
): Promise<IngestedBrain> {
  const key = options.contradictions === false ? 'no-contradictions' : 'default'
  const ofDocs = shared.get(docs) ?? new Map<string, Promise<IngestedBrain>>()
  shared.set(docs, ofDocs)
  let brain = ofDocs.get(key)
  if (brain === undefined) {
    brain = ingestDocs(docs, options)
    ofDocs.set(key, brain)
  }
  return { ...(await brain), close: async () => {} }
}

/** Stops every brain `sharedIngest` made (the run calls it after each config). */
export async function closeSharedBrains(): Promise<void> {
  const brains = [...shared.values()].flatMap((m) => [...m.values()])
  shared.clear()
  for (const brain of brains) await (await brain.catch(() => null))?.close()
}
