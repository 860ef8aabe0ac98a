import { brainSlots } from '../time/single-valued.js'
import type { EmbedOptions } from '../contracts/embedder.js'
import type { VectorReader } from '../contracts/search-plugins.js'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import type { EngineCore } from '../engine/engine-core.js'
import type { LockedOutcome, TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-handler.js'
import { EngramError } from '../errors.js'
import type { JsonObject } from '../model/common.js'
import { buildTextBatch } from './pipeline/build-text-batch.js'
import { checkEmbedder } from './pipeline/check-embedder.js'
import { EmbedFlights } from './pipeline/embed-flights.js'
import { embedMemo, embedMemoOf, embedMissing, type EmbedMemo } from './pipeline/embed-missing.js'
import { extractText, type ExtractedText } from './pipeline/extract-text.js'
import type { IngestionComponents } from './pipeline/ingestion-components.js'
import type { ResolverOptions } from './resolve/entity-resolver.js'
import { candidateText, similarEntities } from './resolve/similar-entities.js'
import { addTextBatch } from './structured/add-text-batch.js'
import { buildStructuredBatch } from './structured/build-structured-batch.js'
import { ingestionSourceId } from './build-ingest-payloads.js'
import {
  createSourceIngestion,
  type SourceRequest,
  type SourceSession,
} from '../sources/source-ingestion.js'
import { titleOf } from '../sources/source-records.js'
import {
  type StructuredIngestPayload,
  fileIngestPayload,
  INGEST_FILE,
  INGEST_STRUCTURED,
  INGEST_TEXT,
  structuredIngestPayload,
  textIngestPayload,
} from './ingest-payloads.js'

export interface IngestionOptions {
  /**
   * End facts that newer single-valued facts contradict (docs/time.md, "Contradictions"); default
   * true. False keeps every fact open (validity windows are still recorded): the benchmarks' baseline.
   */
  contradictions?: boolean
  components: IngestionComponents
  /**
   * The brain's vector indexes (the search service's `vectors`), for the embedding-similarity step of
   * entity resolution: a candidate no name resolves merges into a stored entity whose vector is close
   * enough (`similar-entities.ts`). Needs an embedder; without either, resolution stops at names.
   */
  entityVectors?: (brainId: string) => Promise<VectorReader | null>
}

/** The resolver's embedding step for one build of a task, or none. */
type Similarity = Pick<ResolverOptions, 'similar' | 'prepareSimilar'> & {
  /** Built only to learn what to embed (`buildTextBatch`'s `forecast`): never committed. */
  forecast?: boolean
}

/** The part of a task that reads the brain: builds its batch and result from the records as stored. */
type BuildBatch = (similarity: Similarity) => Promise<{ batch: WriteBatch; result: JsonObject }>

function parsePayload<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: Error } },
  value: unknown,
): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success)
    throw new EngramError(
      'VALIDATION_ERROR',
      `Stored task payload is invalid: ${parsed.error.message}`,
    )
  return parsed.data
}

/** `components` whose embedding is `call`'s work (brain and priority), for a shared embedder's scheduler. */
function embeddingAs(components: IngestionComponents, call: EmbedOptions): IngestionComponents {
  const embed = components.embed
  if (embed === null) return components
  return { ...components, embed: (texts, signal) => embed(texts, signal, call) }
}

/** Registers the three ingestion task kinds on an engine (text, file, structured). */
export function registerIngestion(engram: EngineCore, options: IngestionOptions): void {
  const { components, entityVectors } = options
  const sourceIngestion = createSourceIngestion(engram)
  const embedFlights = new EmbedFlights()

  /**
   * The embedding step of resolution for a task, sharing `memo` with its embedding so that a candidate
   * embedded to be compared is not embedded again as a new entity.
   */
  async function similarity(
    ctx: TaskContext,
    memo: EmbedMemo,
    own: IngestionComponents,
  ): Promise<Similarity> {
    const embed = own.embed
    if (embed === null || components.embedderInfo === null || entityVectors === undefined) return {}
    // Comparing with vectors of another model would be meaningless: refuse as embedding would.
    await checkEmbedder(ctx.store, components.embedderInfo)
    const reader = await entityVectors(ctx.task.brainId)
    if (reader === null) return {}
    return similarEntities({ reader, embed, vectors: memo.vectors, signal: ctx.signal })
  }

  /**
   * The end of every ingestion task: resolution and batch building (`build`) run under the brain's
   * write lock, against the records as the writes before it left them, so two tasks adding to one
   * entity both keep their additions. Embedding, the slow part (USE-lite embeds ~10 passages/s per
   * core), stays outside: a forecast of the batch, built from the records as they are now, is embedded
   * first; under the lock only texts that changed since are (`embedMissing` with the forecast's memo),
   * usually none. Without an embedder nothing is forecast: resolution runs once, under the lock.
   * The task's embedding is its brain's bulk work on a shared embedder, and a text another running
   * task of the brain has sent is taken from that task's call (`EmbedFlights`).
   */
  async function finish(ctx: TaskContext, build: BuildBatch): Promise<LockedOutcome> {
    const complete = (batch: WriteBatch, result: JsonObject): TaskOutcome => ({
      status: 'completed',
      result,
      batch,
    })
    const embed = components.embed
    if (embed === null) {
      return async () => {
        const { batch, result } = await build({})
        return complete(batch, result)
      }
    }
    const { brainId } = ctx.task
    const flights = embedFlights.task(brainId, (texts, signal) =>
      embed(texts, signal, { brainId, priority: 'bulk' }),
    )
    try {
      // Every text the task sends to the embedder goes through `flights`, which counts them: the
      // task's `counts.embedded`.
      const own: IngestionComponents = { ...components, embed: flights.embed }
      const memo = embedMemo()
      const similar = await similarity(ctx, memo, own)
      // The forecast only tells what to embed, so it neither searches the entity index (that search
      // runs once, under the lock, where its answer counts) nor embeds the candidates on their own:
      // their texts join the forecast's one embedder call (`embedMissing`'s `also`), so the locked
      // build finds their vectors in `memo`. A candidate the locked build merges by similarity has its
      // target's text embedded there if it changed.
      const candidates: string[] = []
      const forecast = await build({
        ...similar,
        ...(similar.similar === undefined
          ? {}
          : {
              similar: async () => [],
              prepareSimilar: async (asked) => void candidates.push(...asked.map(candidateText)),
            }),
        forecast: true,
      })
      await ctx.progress('embedding')
      await embedMissing(ctx.store, forecast.batch, own, ctx.signal, memo, candidates)
      let reported = flights.sent()
      await ctx.progress('embedding', { embedded: reported })
      const locked = async () => {
        const { batch, result } = await build(similar)
        await embedMissing(ctx.store, batch, own, ctx.signal, memo)
        // Candidates resolved under the lock may have been embedded to be compared, too.
        if (flights.sent() > reported) {
          reported = flights.sent()
          await ctx.progress('persisting', { embedded: reported })
        }
        return complete(batch, result)
      }
      return Object.assign(locked, { dispose: flights.release })
    } catch (error) {
      flights.release()
      throw error
    }
  }

  const textBatch = async (ctx: TaskContext, text: ExtractedText, similar: Similarity) =>
    buildTextBatch(ctx.store, text, {
      taskId: ctx.task.id,
      ...similar,
      ...(options.contradictions === false ? {} : { slots: await brainSlots(ctx.store.meta) }),
    })

  /** The source's passages after the task, for its record (none without a text). */
  const currentOf = (text: ExtractedText | null) => ({
    passageIds: text?.current ?? [],
    kept: text?.kept ?? 0,
    removed: text?.removed.length ?? 0,
  })

  /**
   * Runs an ingestion within its source (docs/forgetting.md): nothing to do when the source already
   * holds this content or was forgotten after the task was sent; otherwise `prepare` chunks and
   * extracts against the source's stored passages (`session.stored`), passages the new content dropped
   * are forgotten, and the batch `build` returns is completed with the source record (titled by
   * `title`, the title the content gives itself, when the caller's meta has none).
   */
  async function withinSource(
    ctx: TaskContext,
    request: SourceRequest,
    prepare: (
      session: SourceSession,
    ) => Promise<{ build: BuildBatch; text: ExtractedText | null; title?: string | null }>,
  ): Promise<TaskOutcome | LockedOutcome> {
    const opened = await sourceIngestion.open(ctx, request)
    if ('outcome' in opened) return opened.outcome
    const { session } = opened
    try {
      const { build, text, title = null } = await prepare(session)
      await session.forgetRemoved(text?.removed ?? [])
      const locked = await finish(ctx, async (similar) => {
        const built = await build(similar)
        return session.complete(built.batch, built.result, currentOf(text), title)
      })
      // The source (and the task's texts, `EmbedFlights`) are held until the queue is done with the
      // write, committed or not.
      const dispose = () => {
        locked.dispose?.()
        session.release()
      }
      return Object.assign(() => locked(), { dispose })
    } catch (error) {
      session.release()
      throw error
    }
  }

  /** A task whose payload a forget erased before it ran: nothing left to ingest. */
  const erased = (ctx: TaskContext): TaskOutcome | null =>
    (ctx.task.payload as { forgotten?: unknown } | null)?.forgotten === true
      ? { status: 'completed', result: { superseded_by_forget: true } }
      : null

  const ingestText: TaskHandler = async (ctx) => {
    const gone = erased(ctx)
    if (gone !== null) return gone
    const payload = parsePayload(textIngestPayload, ctx.task.payload)
    await ctx.progress('source')
    const text = payload.text ?? components.jsonToText(payload.json ?? {})
    const { sourceId: _sourceId, sourceTimestamp: _at, ...content } = payload
    const sourceId = ingestionSourceId(ctx.task)
    return withinSource(
      ctx,
      { sourceId, kind: INGEST_TEXT, content, meta: payload.metaKeys, filename: null },
      async (session) => {
        const extracted = await extractText(
          ctx,
          { ...payload, text },
          { components, version: engram.version, sourceId, stored: session.stored },
        )
        return { text: extracted, build: (similar) => textBatch(ctx, extracted, similar) }
      },
    )
  }

  const ingestFile: TaskHandler = async (ctx) => {
    const gone = erased(ctx)
    if (gone !== null) return gone
    const payload = parsePayload(fileIngestPayload, ctx.task.payload)
    await ctx.progress('source')
    const { sourceId: _sourceId, sourceTimestamp: _at, ...content } = payload
    const sourceId = ingestionSourceId(ctx.task)
    const metaKeys = { filename: payload.filename, ...payload.metaKeys }
    return withinSource(
      ctx,
      { sourceId, kind: INGEST_FILE, content, meta: metaKeys, filename: payload.filename },
      async (session) => {
        const parsed = await components.parseFile({
          filename: payload.filename,
          mimeType: payload.mimeType,
          bytes: Buffer.from(payload.contentBase64, 'base64'),
        })
        // The document's own title (a Markdown heading, an HTML or PDF title) unless the caller named one.
        const title =
          titleOf(metaKeys) === null && typeof parsed.metadata?.title === 'string'
            ? parsed.metadata.title
            : null
        const extracted = await extractText(
          ctx,
          {
            text: parsed.text,
            metaKeys: title === null ? metaKeys : { ...metaKeys, title },
            observateFor: [],
            sourceTimestamp: payload.sourceTimestamp,
            skipEnrichment: false,
          },
          { components, version: engram.version, sourceId, stored: session.stored },
        )
        return { text: extracted, build: (similar) => textBatch(ctx, extracted, similar), title }
      },
    )
  }

  const ingestStructured: TaskHandler = async (ctx) => {
    const gone = erased(ctx)
    if (gone !== null) return gone
    const payload = parsePayload(structuredIngestPayload, ctx.task.payload)
    await ctx.progress('source', { items: payload.items.length })
    const { sourceId: _sourceId, sourceTimestamp: _at, ...content } = payload
    const sourceId = ingestionSourceId(ctx.task)
    return withinSource(
      ctx,
      { sourceId, kind: INGEST_STRUCTURED, content, meta: {}, filename: null },
      (session) => structuredWork(ctx, payload, sourceId, session),
    )
  }

  /** Structured ingestion's text (hybrid and enrich modes) and its batch builder. */
  async function structuredWork(
    ctx: TaskContext,
    payload: StructuredIngestPayload,
    sourceId: string,
    session: SourceSession,
  ): Promise<{ build: BuildBatch; text: ExtractedText | null }> {
    // hybrid/enrich: the text is stored as passages; only those modes run the extractor on it.
    const extracted =
      payload.text != null && payload.text.trim().length > 0
        ? await extractText(
            ctx,
            {
              text: payload.text,
              metaKeys: { structured_id: ctx.task.id },
              observateFor: [],
              sourceTimestamp: payload.sourceTimestamp,
              skipEnrichment: payload.mode === 'deterministic',
            },
            { components, version: engram.version, sourceId, stored: session.stored },
          )
        : null
    await ctx.progress('resolving')
    const build: BuildBatch = async (similar) => {
      const now = new Date().toISOString()
      const built = await buildStructuredBatch(ctx.store, payload, {
        brainId: ctx.task.brainId,
        taskId: ctx.task.id,
        version: engram.version,
        now,
        ...similar,
        ...(options.contradictions === false ? {} : { slots: await brainSlots(ctx.store.meta) }),
      })
      if (extracted === null) {
        return { batch: built.batch, result: { ...built.counts, passages: 0, observations: 0 } }
      }
      const text = await textBatch(ctx, extracted, similar)
      return {
        batch: addTextBatch(built.batch, text.batch, now),
        result: {
          ...built.counts,
          passages: text.result.passages,
          observations: text.result.observations,
        },
      }
    }
    return { build, text: extracted }
  }

  // Synchronous writes (`/model/*`) are embedded at commit time so new entities are searchable at once:
  // their forecast outside the brain's write lock, then, under it, only texts the forecast did not have.
  // Someone waits for them: interactive, ahead of ingestion (a shared embedder's deadline gives a 503).
  engram.beforeCommit(async (brainId, batch, forecast) => {
    if (batch.task !== undefined || components.embed === null) return
    const store = await engram.store(brainId)
    const memo = forecast === undefined ? embedMemo() : embedMemoOf(forecast)
    const interactive = embeddingAs(components, { brainId, priority: 'interactive' })
    await embedMissing(store, batch, interactive, AbortSignal.timeout(60_000), memo)
  })

  engram.tasks.registerHandler(INGEST_TEXT, ingestText)
  engram.tasks.registerHandler(INGEST_FILE, ingestFile)
  engram.tasks.registerHandler(INGEST_STRUCTURED, ingestStructured)
}
