import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { EngineCore } from '../engine/engine-core.js'
import { notFound } from '../errors.js'
import { stableId } from '../ids.js'
import { ingestionSourceId } from '../ingest/build-ingest-payloads.js'
import { changelogEntry } from '../model-writes/changelog.js'
import { isEvent } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { TaskContext, TaskHandler } from '../tasks/task-handler.js'
import { buildForgetCascade, type Cascade } from './forget-cascade.js'
import { redactHistory } from './redact-history.js'
import { sourceTombstone } from './source-records.js'
import {
  FORGET_SOURCE,
  type ForgetResult,
  type GraphDeletion,
  type SourcesService,
} from './sources-api.js'

export interface SourcesServiceDeps {
  /**
   * Adds vectors for the batch's entities whose embedded text changed (a description cleared because
   * it quoted forgotten text); a no-op without an embedder.
   */
  reembed(store: BrainStore, batch: WriteBatch, signal: AbortSignal): Promise<void>
  /** Drops forgotten texts from the embedder's cache (`Embedder.forget`). */
  forgetTexts(texts: string[]): void
}

/** What a forget task records on itself once its cascade is committed: ids and counts only. */
interface ForgetProgress {
  sourceId: string
  touched: string[]
  counts: Cascade['counts']
  erased: number
}

/** Passages read per page. */
const PAGE = 1000
const INGEST_KINDS = new Set(['ingest_text', 'ingest_file', 'ingest_structured'])

/** Every page of a passage listing. */
async function allPassages(
  store: BrainStore,
  query: { sourceId: string } | { source: string },
): Promise<Passage[]> {
  const out: Passage[] = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await store.passages.list({ ...query, limit: PAGE, skip })
    out.push(...page.items)
    if (page.items.length < PAGE) return out
  }
}

/** Ingestion tasks of the source not finished yet (their payloads are erased by the forget). */
async function pendingIngestions(store: BrainStore, sourceId: string, except?: string) {
  const pending = await store.tasks.inStatus(['queued', 'started'])
  return pending.filter(
    (t) => INGEST_KINDS.has(t.kind) && t.id !== except && ingestionSourceId(t) === sourceId,
  )
}

/**
 * Sources and forgetting (docs/forgetting.md), the engine side of `/sources` and `DELETE /model/*`.
 * A forget runs as a task in three steps: the cascade (records, indexes and the source's tombstone in
 * one commit: from then on no search returns the content), the redaction of history (changelog
 * entries that quote what was touched, in a second commit: it may scan the whole changelog), then the
 * adapter's purge of freed bytes.
 */
export function createSourcesService(core: EngineCore, deps: SourcesServiceDeps): SourcesService {
  /** Redacts history about `touched`, then purges storage; returns what the two did. */
  async function redactAndPurge(
    brainId: string,
    store: BrainStore,
    touched: string[],
    reason: string,
  ) {
    let redacted = 0
    if (touched.length > 0) {
      await core.commit(brainId, async () => {
        const history = await redactHistory(store, touched, reason)
        redacted = history.redacted
        return history.batch
      })
    }
    const note = await store.purge()
    return { redacted, note }
  }

  /**
   * The cascade's commit, which also records on the task what the later steps need (the touched ids,
   * the counts): a process killed after it redacts on the re-run what the first run touched, although
   * the records are gone by then.
   */
  async function cascadeStep(
    ctx: TaskContext,
    sourceId: string,
    expiredAt: string | null,
  ): Promise<ForgetProgress | null> {
    const { task, store } = ctx
    let progress: ForgetProgress | null = null
    let texts: string[] = []
    await core.commit(task.brainId, async () => {
      const source = await store.sources.get(sourceId)
      // A sweep's forget of a source re-ingested since with a later expiry (or none): nothing to do.
      const expires = source?.status === 'active' ? source.expiresAt : null
      if (
        expiredAt !== null &&
        source?.status === 'active' &&
        !(expires != null && expires <= expiredAt)
      )
        return {}
      const own = await allPassages(store, { sourceId })
      // A source written before sources existed is its task's passages.
      const passages =
        own.length > 0 || source !== null ? own : await allPassages(store, { source: sourceId })
      const pending = await pendingIngestions(store, sourceId, task.id)
      const tasks = [...(source?.taskIds ?? [sourceId]), ...pending.map((t) => t.id)].filter(
        (id) => id !== task.id,
      )
      const cascade = await buildForgetCascade(store, {
        passageIds: passages.map((p) => p.id),
        structuredIds: tasks,
        now: new Date().toISOString(),
        seed: task.id,
      })
      await deps.reembed(store, cascade.batch, ctx.signal)
      texts = cascade.forgottenTexts
      progress = {
        sourceId,
        touched: cascade.touched,
        counts: cascade.counts,
        erased: tasks.length,
      }
      return {
        ...cascade.batch,
        sources: [sourceTombstone(sourceId, task.id, task.createdAt)],
        erasePayloads: tasks,
        changelog: [
          ...(cascade.batch.changelog ?? []),
          changelogEntry(
            'source_forgotten',
            {
              source_id: sourceId,
              task_id: task.id,
              counts: cascade.counts,
              // The entries the cascade wrote before this one (see `sourceIngestedEntry`).
              entries: cascade.batch.changelog?.length ?? 0,
            },
            `${task.id}:forgotten`,
          ),
        ],
        task: { ...task, payload: progress, updatedAt: new Date().toISOString() },
      }
    })
    deps.forgetTexts(texts)
    return progress
  }

  const forgetSource: TaskHandler = async (ctx) => {
    const { task, store } = ctx
    const payload = task.payload as { sourceId?: unknown; touched?: unknown; expiredAt?: unknown }
    const sourceId = String(payload.sourceId)
    // Re-run after a crash between the cascade and the end: the cascade is done, its record is here.
    const progress = Array.isArray(payload.touched)
      ? (payload as unknown as ForgetProgress)
      : await cascadeStep(
          ctx,
          sourceId,
          typeof payload.expiredAt === 'string' ? payload.expiredAt : null,
        )
    if (progress === null)
      return { status: 'completed', result: { source_id: sourceId, no_longer_expired: true } }
    const { counts } = progress
    const { redacted, note } = await redactAndPurge(
      task.brainId,
      store,
      progress.touched,
      'forgotten',
    )
    const result: ForgetResult = {
      source_id: sourceId,
      passages: counts.passages,
      structured: counts.structured,
      entities: counts.entities,
      relationships: counts.relationships,
      observations: counts.observations,
      vectors: counts.vectors,
      rewritten: counts.rewritten,
      changelog_redacted: redacted,
      payloads_erased: progress.erased,
      storage_note: note,
    }
    return { status: 'completed', result: { ...result } }
  }
  core.tasks.registerHandler(FORGET_SOURCE, forgetSource)

  /**
   * Deletes through `build` (which throws RESOURCE_NOT_FOUND for an unknown id) under the brain's
   * write lock, then redacts the history of what it deleted.
   */
  async function deleteRecords(
    brainId: string,
    build: (store: BrainStore) => Promise<WriteBatch>,
  ): Promise<GraphDeletion> {
    const store = await core.store(brainId)
    let batch: WriteBatch = {}
    await core.commit(brainId, async () => {
      batch = await build(store)
      return batch
    })
    const entities = batch.deleteEntities ?? []
    const relationships = batch.deleteRelationships ?? []
    const observations = batch.deleteObservations ?? []
    await redactAndPurge(
      brainId,
      store,
      [...entities, ...relationships, ...observations],
      'deleted',
    )
    return {
      entities: entities.length,
      relationships: relationships.length,
      observations: observations.length,
    }
  }

  /** The observations about a resource (an entity uuid), every page. */
  async function observationsOf(store: BrainStore, resourceId: string): Promise<string[]> {
    const ids: string[] = []
    for (let skip = 0; ; skip += PAGE) {
      const page = await store.observations.list({ resourceId, limit: PAGE, skip })
      ids.push(...page.items.map((o) => o.id))
      if (page.items.length < PAGE) return ids
    }
  }

  const deletedEntry = (
    type: 'node_deleted' | 'relationship_deleted' | 'observation_deleted',
    id: string,
  ) =>
    changelogEntry(
      type,
      type === 'node_deleted'
        ? { node: { uuid: id } }
        : type === 'relationship_deleted'
          ? { relationship: { uuid: id } }
          : { observation: { id } },
    )

  return {
    async list(brainId, query) {
      return (await core.store(brainId)).sources.list(query)
    },

    async get(brainId, sourceId, page) {
      const store = await core.store(brainId)
      const source = await store.sources.get(sourceId)
      if (source === null || source.status !== 'active') throw notFound('Source', sourceId)
      const passages = await store.passages.list({ sourceId, ...page })
      return { source, passages }
    },

    async forget(brainId, sourceId, options = {}) {
      const store = await core.store(brainId)
      const source = await store.sources.get(sourceId)
      const active = source?.status === 'active'
      const legacy =
        source === null &&
        (await store.passages.list({ source: sourceId, limit: 1, skip: 0 })).total > 0
      const pending = active || legacy ? [] : await pendingIngestions(store, sourceId)
      if (!active && !legacy && pending.length === 0) throw notFound('Source', sourceId)
      // One forget per state of the source: asked again before it ran, the same task answers.
      const stateKey = active ? source!.updatedAt : pending.map((t) => t.id).join(',')
      // The sweep's forget has its own id, per expiry too: a DELETE is never answered with a task that
      // may keep the source, and an expiry moved by an unchanged re-ingestion gets a forget of its own.
      const taskId =
        options.expiredAt !== undefined
          ? stableId('forget', brainId, sourceId, stateKey, 'expired', source?.expiresAt ?? '')
          : stableId('forget', brainId, sourceId, stateKey)
      const payload =
        options.expiredAt !== undefined ? { sourceId, expiredAt: options.expiredAt } : { sourceId }
      return core.tasks.submit({ brainId, kind: FORGET_SOURCE, payload, taskId })
    },

    deleteEntity(brainId, uuid) {
      return deleteRecords(brainId, async (store) => {
        const [entity] = await store.entities.get([uuid])
        if (entity === undefined) throw notFound('Entity', uuid)
        // The events it takes part in go with it: an event is who did what to whom, and its name and
        // description tell who (an event deleted directly keeps the entities it links).
        const edges = await store.relationships.of(uuid)
        const others = edges.map((r) => (r.subjectUuid === uuid ? r.objectUuid : r.subjectUuid))
        const events = isEvent(entity)
          ? []
          : (await store.entities.get([...new Set(others)])).filter(isEvent).map((e) => e.uuid)
        const entities = [uuid, ...events]
        const relationships = new Set<string>()
        const observations: string[] = []
        for (const id of entities) {
          for (const r of await store.relationships.of(id)) relationships.add(r.uuid)
          observations.push(...(await observationsOf(store, id)))
        }
        return {
          deleteEntities: entities,
          deleteRelationships: [...relationships],
          deleteObservations: observations,
          deleteVectors: entities.map((id) => ({ space: 'entities', id })),
          changelog: [
            ...entities.map((id) => deletedEntry('node_deleted', id)),
            ...[...relationships].map((id) => deletedEntry('relationship_deleted', id)),
            ...observations.map((id) => deletedEntry('observation_deleted', id)),
          ],
        }
      })
    },

    deleteRelationship(brainId, uuid) {
      return deleteRecords(brainId, async (store) => {
        const [relationship] = await store.relationships.get([uuid])
        if (relationship === undefined) throw notFound('Relationship', uuid)
        return {
          deleteRelationships: [uuid],
          changelog: [deletedEntry('relationship_deleted', uuid)],
        }
      })
    },

    deleteObservation(brainId, id) {
      return deleteRecords(brainId, async (store) => {
        if ((await store.observations.get(id)) === null) throw notFound('Observation', id)
        return { deleteObservations: [id], changelog: [deletedEntry('observation_deleted', id)] }
      })
    },
  }
}
