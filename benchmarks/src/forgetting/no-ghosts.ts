import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import {
  createEngine,
  INGEST_TEXT,
  useLiteEmbedder,
  type Embedder,
  type Engram,
} from '@engram/core'
import { parseLocomoDate } from '../ingest/locomo-tasks.js'
import {
  compareRankings,
  maxScoreDifference,
  type RankedKey,
  type RankingOutcome,
} from './compare-rankings.js'
import type { BenchDoc, RetrievalGroup } from '../loaders/dataset-types.js'
import { graphDiff, type GraphDiff } from './graph-diff.js'
import { loadLocomo } from '../loaders/locomo.js'
import { UNDATED_SOURCE } from '../systems/ingested-brain.js'

export type GhostEmbedder = 'none' | 'use-lite'
/** The two searches compared: the server's default request, and the same with neighbour expansion. */
export const GHOST_MODES = ['default', 'neighbors'] as const
export type GhostMode = (typeof GHOST_MODES)[number]

const K = 10

/** One hit as compared across brains: ids differ between A and B, texts do not. */
export interface HitKey extends RankedKey {
  /** `passage:<text>` for a passage, else `<channel>:<snippet>`. */
  readonly key: string
  /** The source the passage belongs to (`extras.source_id`), when a passage. */
  readonly source: string | null
}

/** A kept-session question whose top 10 in A is not identical to B's in some mode. */
export interface GhostQuery {
  readonly id: string
  readonly outcome: Record<GhostMode, RankingOutcome>
  /** Largest score gap between the same hit at the same rank. */
  readonly maxScoreDiff: Record<GhostMode, number>
}

/** A question whose rankings differ, both top-10 lists kept (texts cut) to show where. */
export interface GhostExample {
  readonly id: string
  readonly text: string
  readonly mode: GhostMode
  readonly outcome: RankingOutcome
  readonly a: readonly ShownHit[]
  readonly b: readonly ShownHit[]
}
export interface ShownHit {
  /** The hit's key, cut to 60 characters. */
  readonly key: string
  readonly score: number
}

/** Examples kept per conversation and mode: the most different question. */
const SHOWN = 1
const SEVERITY: readonly RankingOutcome[] = ['hits-differ', 'order-differs', 'scores-differ']
const shown = (hits: readonly HitKey[]): ShownHit[] =>
  hits.map((h) => ({ key: h.key.slice(0, 60), score: h.score }))

/** What is stored per brain once both are built (A after its forgets). */
export interface BrainCounts {
  readonly passages: number
  readonly entities: number
  readonly relationships: number
  readonly observations: number
  readonly sources: number
  /** BM25 over passages: live documents. */
  readonly bm25Docs: number
}

export interface ConversationGhosts {
  readonly conversation: string
  readonly sessions: number
  readonly forgotten: readonly number[]
  readonly a: BrainCounts
  readonly b: BrainCounts
  /** The multiset of passage texts of A equals B's. */
  readonly samePassageTexts: boolean
  /** `graphDiff` of A against B: per kind of difference, how many records (empty: the same graph). */
  readonly graphDiff: GraphDiff
  /** Questions whose every evidence turn is in a kept session: each searched in A and B. */
  readonly keptQuestions: number
  /** Those whose top 10 differs in some mode (the others are identical in both). */
  readonly differing: readonly GhostQuery[]
  readonly examples: readonly GhostExample[]
  /** Every question of the conversation (kept or not), searched in A in every mode: hits of forgotten sessions. */
  readonly ghostHits: readonly { query: string; mode: GhostMode; key: string }[]
  readonly questionsSearched: number
  readonly forgetTasks: { completed: number; passages: number; entities: number }
}

export interface NoGhostsResult {
  readonly embedder: GhostEmbedder
  readonly conversations: readonly ConversationGhosts[]
  readonly ingestMs: { a: number; b: number }
  readonly forgetMs: number
}

const sessionOf = (doc: BenchDoc) => Number(doc.metadata?.session ?? 0)
/** `D3:12` -> 3: LoCoMo evidence ids name their session. */
const sessionOfEvidence = (docId: string) => Number(/\/D(\d+):/.exec(docId)?.[1] ?? -1)

/** The conversation's sessions in order, each its turns (`speaker: text`) and date. */
function sessions(group: RetrievalGroup) {
  const out = new Map<number, { date: string; turns: string[] }>()
  for (const doc of group.docs) {
    const s = sessionOf(doc)
    let entry = out.get(s)
    if (entry === undefined)
      out.set(s, (entry = { date: String(doc.metadata?.session_date ?? ''), turns: [] }))
    entry.turns.push(doc.text)
  }
  return [...out.entries()].sort((x, y) => x[0] - y[0])
}

/** Engine as the server configures it for one side of the comparison, on its own SQLite directory. */
function engine(dir: string, embedder: Embedder | null): Engram {
  return createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    embedder,
    // One task at a time: entity resolution reads what earlier tasks wrote (ingested-brain.ts).
    workers: 1,
    maxPendingTasks: 10_000,
  })
}

/**
 * One `ingest_text` task per session, one at a time. The task id is the same in both brains (ids of
 * passages and graph records derive from it), so the two brains' records have the same ids and BM25
 * ties, broken by id, break alike.
 */
async function ingestSessions(
  engram: Engram,
  brain: string,
  list: ReturnType<typeof sessions>,
): Promise<void> {
  if ((await engram.brains.get(brain)) === null) await engram.brains.create(brain)
  for (const [session, { date, turns }] of list) {
    await engram.tasks.submit({
      brainId: brain,
      kind: INGEST_TEXT,
      taskId: `${brain}.s${session}`,
      payload: {
        sourceId: `session_${session}`,
        // Turns as paragraphs: chunks end at turn boundaries (chunk-text.ts).
        text: turns.join('\n\n'),
        json: null,
        metaKeys: { conversation: brain, session, session_date: date },
        observateFor: [],
        sourceTimestamp: parseLocomoDate(date) ?? UNDATED_SOURCE,
        skipEnrichment: false,
      },
    })
  }
  await engram.tasks.idle()
}

async function allPassages(engram: Engram, brain: string) {
  const store = await engram.store(brain)
  const out: { id: string; text: string; sourceId: string | null }[] = []
  for (let after: string | null = null; ;) {
    const page = await store.passages.scan(after, 1000)
    for (const p of page) out.push({ id: p.id, text: p.text, sourceId: p.sourceId ?? null })
    if (page.length < 1000) return out
    after = page[page.length - 1]!.id
  }
}

async function counts(engram: Engram, brain: string): Promise<BrainCounts> {
  const store = await engram.store(brain)
  const stats = await store.stats()
  const sources = await engram.sources.list(brain, { limit: 1000, skip: 0 })
  const indexes = await engram.indexes.get(brain)
  return {
    passages: stats.passages,
    entities: stats.entities,
    relationships: stats.relationships,
    observations: stats.observations,
    sources: sources.total,
    bm25Docs: indexes.passages.size,
  }
}

/** The ranked hits of one search as comparable keys (passage texts read from the brain). */
async function search(
  engram: Engram,
  brain: string,
  query: string,
  mode: GhostMode,
): Promise<HitKey[]> {
  const response = await engram.search.search(brain, {
    query,
    k: K,
    ...(mode === 'neighbors' ? { expand: 'neighbors' as const } : {}),
  })
  const store = await engram.store(brain)
  const passages = new Map(
    (await store.passages.get(response.hits.map((h) => h.id))).map((p) => [p.id, p.text]),
  )
  return response.hits.map((h) => {
    const text = passages.get(h.id)
    return {
      key: text !== undefined ? `passage:${text}` : `${h.channel}:${h.snippet}`,
      score: h.score,
      source: text !== undefined ? String(h.extras.source_id ?? '') : null,
    }
  })
}

/**
 * "No ghosts" (issue 26, second check) on LoCoMo dev, one brain per conversation as the retrieval
 * configs have it: brain A ingests every session (each session one source, `session_<n>`, its turns
 * as paragraphs), then forgets every other one (sessions 2, 4, ...); brain B ingests only the kept
 * sessions, in the same order. Both on the SQLite adapter, one task at a time. The questions whose
 * every evidence turn is in a kept session are searched in both (default request, and with
 * `expand=neighbors`) and their top 10 compared by text; every question of the conversation is
 * searched in A for hits of a forgotten session.
 */
export async function measureNoGhosts(
  dataDir: string,
  embedderName: GhostEmbedder,
  log: (line: string) => void = () => {},
): Promise<NoGhostsResult> {
  const dataset = loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev')
  const dirs = {
    a: mkdtempSync(join(tmpdir(), 'engram-ghosts-a-')),
    b: mkdtempSync(join(tmpdir(), 'engram-ghosts-b-')),
  }
  const embedder = embedderName === 'use-lite' ? useLiteEmbedder() : null
  const a = engine(dirs.a, embedder)
  const b = engine(dirs.b, embedder)
  const ingestMs = { a: 0, b: 0 }
  let forgetMs = 0
  const conversations: ConversationGhosts[] = []
  try {
    await a.start()
    await b.start()
    for (const group of dataset.groups) {
      const brain = group.name
      const all = sessions(group)
      const kept = all.filter((_, i) => i % 2 === 0)
      const forgotten = all.filter((_, i) => i % 2 === 1).map(([s]) => s)
      const keptSet = new Set(kept.map(([s]) => s))

      let t = performance.now()
      await ingestSessions(a, brain, all)
      ingestMs.a += performance.now() - t
      const before = await allPassages(a, brain)
      const keptTexts = new Set(
        before.filter((p) => keptSet.has(Number(p.sourceId?.slice(8)))).map((p) => p.text),
      )
      const forgottenIds = new Set(
        before.filter((p) => !keptSet.has(Number(p.sourceId?.slice(8)))).map((p) => p.id),
      )
      const forgottenTexts = new Set(
        before.filter((p) => forgottenIds.has(p.id) && !keptTexts.has(p.text)).map((p) => p.text),
      )
      const forgottenTurns = new Set(
        all
          .filter(([s]) => !keptSet.has(s))
          .flatMap(([, { turns }]) => turns)
          .filter((turn) => turn.length >= 40 && ![...keptTexts].some((k) => k.includes(turn))),
      )

      t = performance.now()
      const forgetIds = []
      for (const s of forgotten)
        forgetIds.push((await a.sources.forget(brain, `session_${s}`)).task.id)
      const forgetTasks = { completed: 0, passages: 0, entities: 0 }
      for (const id of forgetIds) {
        const task = await a.tasks.settled(brain, id)
        if (task.status === 'completed') forgetTasks.completed++
        const result = (task.result ?? {}) as { passages?: number; entities?: number }
        forgetTasks.passages += result.passages ?? 0
        forgetTasks.entities += result.entities ?? 0
      }
      forgetMs += performance.now() - t

      t = performance.now()
      await ingestSessions(b, brain, kept)
      ingestMs.b += performance.now() - t

      const textsA = (await allPassages(a, brain)).map((p) => p.text).sort()
      const textsB = (await allPassages(b, brain)).map((p) => p.text).sort()
      const samePassageTexts =
        textsA.length === textsB.length && textsA.every((text, i) => text === textsB[i])

      let keptQuestions = 0
      const differing: GhostQuery[] = []
      const candidates: GhostExample[] = []
      const ghostHits: ConversationGhosts['ghostHits'][number][] = []
      for (const query of group.queries) {
        const gold = [...(group.qrels.get(query.id)?.keys() ?? [])]
        const onKept = gold.length > 0 && gold.every((id) => keptSet.has(sessionOfEvidence(id)))
        const inA = {} as Record<GhostMode, HitKey[]>
        for (const mode of GHOST_MODES) {
          inA[mode] = await search(a, brain, query.text, mode)
          for (const hit of inA[mode]) {
            const text = hit.key.slice(hit.key.indexOf(':') + 1)
            const ghost =
              (hit.source !== null && !keptSet.has(Number(hit.source.slice(8)))) ||
              forgottenTexts.has(text) ||
              [...forgottenTurns].some((turn) => text.includes(turn))
            if (ghost) ghostHits.push({ query: query.text, mode, key: hit.key.slice(0, 200) })
          }
        }
        if (!onKept) continue
        keptQuestions++
        const outcome = {} as GhostQuery['outcome']
        const maxScoreDiff = {} as GhostQuery['maxScoreDiff']
        for (const mode of GHOST_MODES) {
          const inB = await search(b, brain, query.text, mode)
          outcome[mode] = compareRankings(inA[mode], inB)
          maxScoreDiff[mode] = maxScoreDifference(inA[mode], inB)
          if (outcome[mode] !== 'identical')
            candidates.push({
              id: query.id,
              text: query.text,
              mode,
              outcome: outcome[mode],
              a: shown(inA[mode]),
              b: shown(inB),
            })
        }
        if (GHOST_MODES.some((mode) => outcome[mode] !== 'identical'))
          differing.push({ id: query.id, outcome, maxScoreDiff })
      }
      const conversation: ConversationGhosts = {
        conversation: brain,
        sessions: all.length,
        forgotten,
        a: await counts(a, brain),
        b: await counts(b, brain),
        samePassageTexts,
        graphDiff: await graphDiff(a, b, brain),
        keptQuestions,
        differing,
        examples: GHOST_MODES.flatMap((mode) =>
          candidates
            .filter((e) => e.mode === mode)
            .sort((x, y) => SEVERITY.indexOf(x.outcome) - SEVERITY.indexOf(y.outcome))
            .slice(0, SHOWN),
        ),
        ghostHits,
        questionsSearched: group.queries.length,
        forgetTasks,
      }
      conversations.push(conversation)
      log(
        `  ${brain}: ${all.length} sessions, ${forgotten.length} forgotten; ${keptQuestions} kept questions; ` +
          `passages A ${conversation.a.passages} / B ${conversation.b.passages}; ghosts ${ghostHits.length}`,
      )
    }
  } finally {
    await a.stop({ graceMs: 0 })
    await b.stop({ graceMs: 0 })
    await embedder?.close?.()
    rmSync(dirs.a, { recursive: true, force: true })
    rmSync(dirs.b, { recursive: true, force: true })
  }
  return { embedder: embedderName, conversations, ingestMs, forgetMs }
}
