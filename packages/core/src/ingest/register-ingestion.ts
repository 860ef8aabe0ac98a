import type { Engram, TaskHandler } from '../engine/engine-types.js'
import { EngramError } from '../errors.js'
import { buildTextBatch, type TextBatchOptions } from './pipeline/build-text-batch.js'
import { embedMissing } from './pipeline/embed-missing.js'
import type { TaskContext } from '../engine/engine-types.js'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import { buildStructuredBatch } from './structured/build-structured-batch.js'
import {
  fileIngestPayload,
  INGEST_FILE,
  INGEST_STRUCTURED,
  INGEST_TEXT,
  structuredIngestPayload,
  textIngestPayload,
} from './ingest-payloads.js'

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

/** Registers the three ingestion task kinds on an engine (text, file, structured). */
export function registerIngestion(
  engram: Engram,
  options: Omit<TextBatchOptions, 'version'>,
): void {
  const batchOptions = { ...options, version: engram.version }

  async function embed(ctx: TaskContext, batch: WriteBatch) {
    if (options.components.embed === null) return
    await ctx.progress('embedding')
    const embedded = await embedMissing(ctx.store, batch, options.components, ctx.signal)
    await ctx.progress('embedding', { embedded })
  }

  const ingestText: TaskHandler = async (ctx) => {
    const payload = parsePayload(textIngestPayload, ctx.task.payload)
    await ctx.progress('source')
    const text = payload.text ?? options.components.jsonToText(payload.json ?? {})
    const { batch, result } = await buildTextBatch(ctx, { ...payload, text }, batchOptions)
    await embed(ctx, batch)
    return { status: 'completed', result, batch }
  }

  const ingestFile: TaskHandler = async (ctx) => {
    const payload = parsePayload(fileIngestPayload, ctx.task.payload)
    await ctx.progress('source')
    const parsed = await options.components.parseFile({
      filename: payload.filename,
      mimeType: payload.mimeType,
      bytes: Buffer.from(payload.contentBase64, 'base64'),
    })
    const { batch, result } = await buildTextBatch(
      ctx,
      {
        text: parsed.text,
        metaKeys: { filename: payload.filename, ...payload.metaKeys },
        observateFor: [],
        sourceTimestamp: payload.sourceTimestamp,
        skipEnrichment: false,
      },
      batchOptions,
    )
    await embed(ctx, batch)
    return { status: 'completed', result, batch }
  }

  const ingestStructured: TaskHandler = async (ctx) => {
    const payload = parsePayload(structuredIngestPayload, ctx.task.payload)
    await ctx.progress('source', { items: payload.items.length })
    await ctx.progress('resolving')
    const built = await buildStructuredBatch(ctx.store, payload, {
      brainId: ctx.task.brainId,
      taskId: ctx.task.id,
      version: engram.version,
      now: new Date().toISOString(),
      ...(options.similar ? { similar: options.similar } : {}),
    })
    let passages = 0
    let observations = 0
    if (payload.text !== null && payload.text.trim().length > 0) {
      // hybrid/enrich: the text is stored as passages; only those modes run the extractor on it.
      const enriched = await buildTextBatch(
        ctx,
        {
          text: payload.text,
          metaKeys: { structured_id: ctx.task.id },
          observateFor: [],
          sourceTimestamp: payload.sourceTimestamp,
          skipEnrichment: payload.mode === 'deterministic',
        },
        batchOptions,
      )
      const b = enriched.batch
      built.batch.passages = b.passages ?? []
      built.batch.entities = [
        ...(built.batch.entities ?? []),
        ...(b.entities ?? []).filter((e) => !built.batch.entities?.some((x) => x.uuid === e.uuid)),
      ]
      built.batch.relationships = [...(built.batch.relationships ?? []), ...(b.relationships ?? [])]
      built.batch.observations = b.observations ?? []
      built.batch.changelog = [...(built.batch.changelog ?? []), ...(b.changelog ?? [])]
      built.batch.vectors = b.vectors ?? []
      passages = enriched.result.passages
      observations = enriched.result.observations
    }
    await embed(ctx, built.batch)
    return {
      status: 'completed',
      result: { ...built.counts, passages, observations },
      batch: built.batch,
    }
  }

  // Synchronous writes (`/model/*`) are embedded at commit time so new entities are searchable at once.
  engram.beforeCommit(async (brainId, batch) => {
    if (batch.task !== undefined || options.components.embed === null) return
    const store = await engram.store(brainId)
    await embedMissing(store, batch, options.components, AbortSignal.timeout(60_000))
  })

  engram.tasks.registerHandler(INGEST_TEXT, ingestText)
  engram.tasks.registerHandler(INGEST_FILE, ingestFile)
  engram.tasks.registerHandler(INGEST_STRUCTURED, ingestStructured)
}
