import type { TaskContext } from '../../tasks/task-handler.js'
import { stableId } from '../../ids.js'
import type { Passage } from '../../model/passage.js'
import type { ExtractedGraph } from '../../contracts/extractor.js'
import type { IngestionComponents } from './ingestion-components.js'

export interface TextBatchInput {
  text: string
  metaKeys: Record<string, string | number | boolean>
  observateFor: string[]
  sourceTimestamp: string
  skipEnrichment: boolean
}

/** A text chunked into passages and run through the extractor: what resolution starts from. */
export interface ExtractedText {
  input: TextBatchInput
  passages: Passage[]
  /** Null when enrichment is skipped or there is no passage. */
  extracted: ExtractedGraph | null
  /** Timestamp of every record the task writes. */
  now: string
}

/**
 * The stages of the text pipeline that read nothing of the brain: chunking -> extracting. They run
 * outside the brain's write lock, with other tasks of the brain at once. Passage ids derive from the
 * task id, so a re-run after a crash rewrites the same records (DESIGN.md section 3).
 */
export async function extractText(
  ctx: TaskContext,
  input: TextBatchInput,
  options: { components: IngestionComponents; version: string },
): Promise<ExtractedText> {
  const { components } = options
  const taskId = ctx.task.id
  const now = new Date().toISOString()

  await ctx.progress('chunking')
  const passages: Passage[] = components.chunk(input.text).map((chunk) => ({
    id: stableId('passage', taskId, String(chunk.index)),
    text: chunk.text,
    metadata: { ...input.metaKeys },
    insertedAt: now,
    brainVersion: options.version,
    source: taskId,
    position: chunk.index,
    start: chunk.start,
    end: chunk.end,
  }))
  await ctx.progress('chunking', { passages: passages.length })
  if (input.skipEnrichment || passages.length === 0)
    return { input, passages, extracted: null, now }

  await ctx.progress('extracting')
  const extracted = await components.extract(
    {
      passages: passages.map((p) => ({ id: p.id, text: p.text })),
      sourceTimestamp: input.sourceTimestamp,
      observateFor: input.observateFor,
    },
    ctx.signal,
    ctx.task.brainId,
  )
  await ctx.progress('resolving', {
    extracted_entities: extracted.entities.length,
    extracted_relationships: extracted.relationships.length,
    ...(extracted.usage
      ? {
          prompt_tokens: extracted.usage.promptTokens,
          completion_tokens: extracted.usage.completionTokens,
        }
      : {}),
  })
  return { input, passages, extracted, now }
}
