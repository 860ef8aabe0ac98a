import { MONTH_NAMES, type TextIngestPayload } from '@engram/core'
import type { RetrievalDataset } from '../loaders/dataset-types.js'

/** How LoCoMo turns become ingestion tasks: one per session (turns joined by newlines) or one per turn. */
export type IngestUnit = 'session' | 'turn'

/** One `ingest_text` task of the benchmark. */
export interface IngestTaskSpec {
  /** One brain per conversation: a conversation is one person's memory, as in the retrieval configs. */
  readonly brainId: string
  readonly payload: TextIngestPayload
  /** LoCoMo turns the task carries (1 per turn task, the session's count per session task). */
  readonly turns: number
}

/**
 * LoCoMo session dates (`1:56 pm on 8 May, 2023`) as ISO 8601 UTC, the `source_timestamp` that anchors relative
 * dates ("yesterday"); null when the string has another shape.
 */
export function parseLocomoDate(text: string): string | null {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(
    text.trim(),
  )
  if (!m) return null
  const month = MONTH_NAMES.indexOf(m[5]!.toLowerCase())
  if (month < 0) return null
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0)
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString()
}

/** Whitespace-separated tokens: the unit the chunker counts (about 256 per passage). */
export function countTokens(text: string): number {
  return (text.match(/\S+/g) ?? []).length
}

/**
 * The LoCoMo turns of a loaded dataset (loaders/locomo.ts: one doc per turn, `speaker: text`, metadata
 * `dia_id`, `session`, `session_date`) as ingestion tasks, in conversation and session order.
 */
export function locomoTasks(dataset: RetrievalDataset, unit: IngestUnit): IngestTaskSpec[] {
  const tasks: IngestTaskSpec[] = []
  for (const group of dataset.groups) {
    const sessions = new Map<number, { date: string; turns: { text: string; diaId: string }[] }>()
    for (const doc of group.docs) {
      const session = Number(doc.metadata?.session ?? 0)
      let entry = sessions.get(session)
      if (!entry)
        sessions.set(
          session,
          (entry = { date: String(doc.metadata?.session_date ?? ''), turns: [] }),
        )
      entry.turns.push({ text: doc.text, diaId: String(doc.metadata?.dia_id ?? doc.id) })
    }
    for (const [session, { date, turns }] of sessions) {
      const base = {
        json: null,
        observateFor: [],
        sourceTimestamp: parseLocomoDate(date) ?? new Date(0).toISOString(),
        skipEnrichment: false,
      }
      const meta = { conversation: group.name, session, session_date: date }
      if (unit === 'session') {
        tasks.push({
          brainId: group.name,
          turns: turns.length,
          payload: { ...base, text: turns.map((t) => t.text).join('\n'), metaKeys: meta },
        })
      } else {
        for (const t of turns)
          tasks.push({
            brainId: group.name,
            turns: 1,
            payload: { ...base, text: t.text, metaKeys: { ...meta, dia_id: t.diaId } },
          })
      }
    }
  }
  return tasks
}
