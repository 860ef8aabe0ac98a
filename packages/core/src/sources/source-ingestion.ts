import type { WriteBatch } from '../contracts/storage-adapter.js'
import type { EngineCore } from '../engine/engine-core.js'
import { keyedMutex } from '../engine/keyed-mutex.js'
import type { JsonObject } from '../model/common.js'
import type { Passage } from '../model/passage.js'
import type { Source } from '../model/source.js'
import type { LockedOutcome, TaskContext, TaskOutcome } from '../tasks/task-handler.js'
import { buildForgetCascade } from './forget-cascade.js'
import { ingestionExpiry } from './source-expiry.js'
import {
  contentHash,
  ingestedSource,
  sourceCounts,
  sourceIngestedEntry,
  titleOf,
} from './source-records.js'

/** What an ingestion task says about its source before any work. */
export interface SourceRequest {
  sourceId: string
  kind: string
  /** Everything that shapes the records: content, meta keys, options (hashed; identical = no-op). */
  content: unknown
  meta: JsonObject
  filename: string | null
}

/** One ingestion's hold on its source, from the first read to the outcome under the write lock. */
export interface SourceSession {
  /** The source as stored (a tombstone included), or null for a new one. */
  readonly previous: Source | null
  /** The source's passages as stored, in position order (none for a new or forgotten source). */
  readonly stored: readonly Passage[]
  /**
   * Forgets passages the new content no longer has, with the full cascade, in a commit of its own
   * before the ingestion's: the new content then resolves against the brain as if they had never been.
   */
  forgetRemoved(removed: readonly Passage[]): Promise<void>
  /**
   * Adds the source record, its `source_ingested` entry and the stored vectors of kept passages the
   * batch rewrites, to the ingestion's batch (a forecast's, then under the brain's write lock). The
   * record's title is the caller's `title` meta key, else `documentTitle`, the content's own.
   */
  complete(
    batch: WriteBatch,
    result: JsonObject,
    current: { passageIds: readonly string[]; kept: number; removed: number },
    documentTitle?: string | null,
  ): Promise<{ batch: WriteBatch; result: JsonObject }>
  /** Releases the source: once the queue is done with the task's write, or when the task fails. Idempotent. */
  release(): void
}

/** Passages read per page when listing a source's. */
const PAGE = 1000

/**
 * Sources for ingestion (docs/forgetting.md). Ingestions of one source run one at a time in this
 * process, from reading the source's passages to committing, so that a re-ingestion compares with
 * what the previous one left; other sources and brains are not held up.
 */
export function createSourceIngestion(engine: EngineCore) {
  const mutex = keyedMutex()

  /**
   * Waits for the source. The task that held it released it once the queue was done with its write
   * (`LockedOutcome.dispose`), so what it wrote is in storage when the next one reads.
   */
  function acquire(brainId: string, sourceId: string): Promise<() => void> {
    return new Promise((granted) => {
      void mutex.run(
        `${brainId}\u0000${sourceId}`,
        () =>
          new Promise<void>((done) => {
            let released = false
            granted(() => {
              if (released) return
              released = true
              done()
            })
          }),
      )
    })
  }

  /**
   * Opens an ingestion's source. Returns the outcome instead when there is nothing to do: the source
   * was forgotten after this task was created (a forget supersedes what was sent before it), or the
   * source already holds exactly this content.
   */
  async function open(
    ctx: TaskContext,
    request: SourceRequest,
  ): Promise<{ session: SourceSession } | { outcome: LockedOutcome }> {
    const { task, store } = ctx
    const release = await acquire(task.brainId, request.sourceId)
    // Held until the queue has written the outcome, as a session is.
    const done = (outcome: TaskOutcome) => ({
      outcome: Object.assign(async () => outcome, { dispose: release }),
    })
    try {
      const previous = await store.sources.get(request.sourceId)
      const hash = contentHash(request.kind, request.content)
      // Not part of the hash: the same content with another expiry is a no-op but for the expiry.
      const expiresAt = await ingestionExpiry(task, store.meta)
      if (
        previous?.status === 'forgotten' &&
        previous.forgottenAt !== null &&
        previous.forgottenAt >= task.createdAt
      ) {
        return done({
          status: 'completed',
          result: { source_id: request.sourceId, superseded_by_forget: true },
          batch: { erasePayloads: [task.id] },
        })
      }
      if (previous?.status === 'active' && previous.contentHash === hash) {
        const source = {
          ...previous,
          taskIds: [...previous.taskIds.filter((id) => id !== task.id), task.id],
          expiresAt,
        }
        return done({
          status: 'completed',
          result: { source_id: request.sourceId, unchanged: true, ...previous.counts },
          batch: { sources: [source] },
        })
      }
      const stored: Passage[] = []
      if (previous?.status === 'active') {
        for (let skip = 0; ; skip += PAGE) {
          const page = await store.passages.list({ sourceId: request.sourceId, limit: PAGE, skip })
          stored.push(...page.items)
          if (page.items.length < PAGE) break
        }
      }
      return { session: session(ctx, request, previous, stored, { hash, expiresAt }, release) }
    } catch (error) {
      release()
      throw error
    }
  }

  function session(
    ctx: TaskContext,
    request: SourceRequest,
    previous: Source | null,
    stored: Passage[],
    { hash, expiresAt }: { hash: string; expiresAt: string | null },
    release: () => void,
  ): SourceSession {
    const { task, store } = ctx
    const brainId = task.brainId
    const storedIds = new Set(stored.map((p) => p.id))
    return {
      previous,
      stored,
      release,

      async forgetRemoved(removed) {
        const structuredIds =
          request.kind === 'ingest_structured' && previous?.status === 'active'
            ? previous.taskIds
            : []
        if (removed.length === 0 && structuredIds.length === 0) return
        await engine.commit(brainId, async () => {
          const cascade = await buildForgetCascade(store, {
            passageIds: removed.map((p) => p.id),
            structuredIds,
            now: new Date().toISOString(),
            seed: `${task.id}:replace`,
          })
          return cascade.batch
        })
      },

      async complete(batch, result, current, documentTitle = null) {
        const now = new Date().toISOString()
        // Kept passages the batch rewrites (moved, or new metadata) keep their stored vectors.
        const moved = (batch.passages ?? []).filter((p) => storedIds.has(p.id)).map((p) => p.id)
        if (moved.length > 0) {
          const vectors = await store.vectors.get('passages', moved)
          batch.vectors = [...(batch.vectors ?? []), ...vectors]
        }
        // Stored links exist only for the passages kept; the batch brings the new ones' links.
        const counts = await sourceCounts(
          store,
          current.passageIds.filter((id) => storedIds.has(id)),
          current.passageIds.length,
          batch,
        )
        const source = ingestedSource(previous, {
          id: request.sourceId,
          taskId: task.id,
          kind: request.kind,
          hash,
          title: titleOf(request.meta) ?? documentTitle,
          filename: request.filename,
          meta: request.meta,
          now,
          counts,
          expiresAt,
        })
        const passages = {
          added: current.passageIds.length - current.kept,
          kept: current.kept,
          removed: current.removed,
        }
        return {
          batch: {
            ...batch,
            sources: [source],
            changelog: [
              ...(batch.changelog ?? []),
              sourceIngestedEntry(source, task.id, passages, batch.changelog?.length ?? 0),
            ],
          },
          result: {
            ...result,
            source_id: source.id,
            passages_kept: current.kept,
            passages_removed: current.removed,
          },
        }
      },
    }
  }

  return { open }
}

export type SourceIngestion = ReturnType<typeof createSourceIngestion>
