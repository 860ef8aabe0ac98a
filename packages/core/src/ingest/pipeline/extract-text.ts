import type { TaskContext } from '../../tasks/task-handler.js'
import { stableId } from '../../ids.js'
import type { Passage } from '../../model/passage.js'
import type { ExtractedGraph } from '../../contracts/extractor.js'
import type { IngestionComponents } from './ingestion-components.js'
import { writeTime } from '../../time/write-time.js'

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
  /** Passages to write: the new chunks, and kept ones whose position or metadata changed. */
  passages: Passage[]
  /** Every passage id of the source once written, in position order. */
  current: string[]
  /** Stored passages of the source whose text is no longer in it: to forget. */
  removed: Passage[]
  /** Chunks found unchanged among the stored passages (their ids, vectors and graph stay). */
  kept: number
  /** Null when enrichment is skipped or there is no passage. */
  extracted: ExtractedGraph | null
  /** Timestamp of every record the task writes. */
  now: string
}

/** Same metadata, compared as JSON of sorted keys. */
function sameMetadata(a: Passage['metadata'], b: Passage['metadata']): boolean {
  const json = (m: Passage['metadata']) =>
    JSON.stringify(Object.entries(m).sort(([x], [y]) => (x < y ? -1 : 1)))
  return json(a) === json(b)
}

/**
 * The stages of the text pipeline that read nothing of the brain: chunking -> extracting. They run
 * outside the brain's write lock, with other tasks of the brain at once. New passage ids derive from
 * the task id, so a re-run after a crash rewrites the same records (DESIGN.md section 3).
 *
 * Re-ingestion of a source (docs/forgetting.md): `stored` are the source's passages as they are. A
 * chunk whose exact text is among them keeps that passage (its id, vector and the graph built from
 * it; only its position and metadata follow the new text), and is not extracted again; stored
 * passages no chunk matched are `removed`, for the caller to forget; only new chunks are extracted.
 */
export async function extractText(
  ctx: TaskContext,
  input: TextBatchInput,
  options: {
    components: IngestionComponents
    version: string
    sourceId?: string
    stored?: readonly Passage[]
  },
): Promise<ExtractedText> {
  const { components } = options
  const taskId = ctx.task.id
  // Strictly after the previous task's: passages of a session are read in the order they were written.
  const now = writeTime()

  await ctx.progress('chunking')
  const byText = new Map<string, Passage[]>()
  for (const p of options.stored ?? []) {
    const same = byText.get(p.text)
    if (same === undefined) byText.set(p.text, [p])
    else same.push(p)
  }
  const passages: Passage[] = []
  const fresh: Passage[] = []
  const current: string[] = []
  let kept = 0
  for (const chunk of components.chunk(input.text)) {
    const metadata = { ...input.metaKeys }
    const match = byText.get(chunk.text)?.shift()
    if (match !== undefined) {
      kept++
      current.push(match.id)
      const moved = {
        ...match,
        position: chunk.index,
        start: chunk.start,
        end: chunk.end,
        metadata,
      }
      const changed =
        match.position !== chunk.index ||
        match.start !== chunk.start ||
        match.end !== chunk.end ||
        !sameMetadata(match.metadata, metadata)
      if (changed) passages.push({ ...moved, sourceId: options.sourceId ?? taskId })
      continue
    }
    const passage: Passage = {
      id: stableId('passage', taskId, String(chunk.index)),
      text: chunk.text,
      metadata,
      insertedAt: now,
      brainVersion: options.version,
      source: taskId,
      sourceId: options.sourceId ?? taskId,
      position: chunk.index,
      start: chunk.start,
      end: chunk.end,
    }
    passages.push(passage)
    fresh.push(passage)
    current.push(passage.id)
  }
  const removed = [...byText.values()].flat()
  await ctx.progress('chunking', { passages: current.length })
  const base = { input, passages, current, removed, kept, now }
  if (input.skipEnrichment || fresh.length === 0) return { ...base, extracted: null }

  await ctx.progress('extracting')
  const extracted = await components.extract(
    {
      passages: fresh.map((p) => ({ id: p.id, text: p.text, start: p.start, end: p.end })),
      text: input.text,
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
  return { ...base, extracted }
}
