import type {
  Candidate,
  SearchContext,
  StageHit,
  StagePlugin,
  StageResult,
} from '../../contracts/search-plugins.js'
import { hydrateAll, type HitRecord } from './hydrate-step.js'
import { mergeByScore } from './merge-by-score.js'
import type { SearchState, StageScoreKey } from './search-state.js'

/** How many ranked hits a stage sees when it does not say (the rerank head). */
export const STAGE_HEAD = 50

/** A stage in its place in a search: the plugin, its timing name and the `hit.scores` slot it fills. */
export interface PlannedStage {
  plugin: StagePlugin
  /** `stage_timings` name: `search.expand`, `search.rerank`, `search.personalize`. */
  timing: string
  /** Where its scores land in `hit.scores`; null for a stage that only adds or reorders. */
  scoreKey: StageScoreKey | null
  /** Not run when there is no hit (a rerank has nothing to rescore). */
  skipEmpty?: boolean
}

/**
 * Stages, in order: each sees the head of the current ranking (with records when it reads them, which
 * loads the window's records first), and its result reorders that head, rescores it and adds
 * candidates. Never drops a hit.
 */
export async function runStages(
  state: SearchState,
  stages: readonly PlannedStage[],
  ctx: SearchContext,
): Promise<void> {
  for (const stage of stages) {
    const reads = stage.plugin.reads ?? 'records'
    if (reads === 'records') await hydrateAll(state, ctx)
    const head = state.ranked.slice(0, stage.plugin.head ?? STAGE_HEAD)
    if (stage.skipEmpty === true && head.length === 0) continue
    const records = state.hydration?.records
    const hits = head.map((c) => stageHit(c, reads === 'records' ? records?.get(c.id) : undefined))
    const out = await ctx.timer.time(stage.timing, () =>
      stage.plugin.run(state.request.query, hits, ctx, {
        lists: state.lists,
        ...(state.request.target !== undefined ? { target: state.request.target } : {}),
      }),
    )
    applyStage(state, stage, head, out instanceof Map ? { scores: out } : out)
  }
}

function stageHit(candidate: Candidate, record: HitRecord | undefined): StageHit {
  return {
    id: candidate.id,
    score: candidate.score,
    text: record?.text ?? '',
    entity: record?.entity ?? null,
  }
}

/**
 * The head in its new order: the stage's `order`, or rescored hits by score (ties by id) ahead of the
 * others in their order. Rescored hits take their new score; added candidates merge in by score.
 */
export function applyStage(
  state: SearchState,
  stage: PlannedStage,
  head: readonly Candidate[],
  out: StageResult,
): void {
  const { scores } = out
  let ordered: Candidate[]
  if (out.order !== undefined) {
    const byId = new Map(head.map((c) => [c.id, c]))
    const listed = out.order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))
    const seen = new Set(listed.map((c) => c.id))
    ordered = [...listed, ...head.filter((c) => !seen.has(c.id))]
  } else {
    const rescored = head
      .filter((c) => scores.has(c.id))
      .sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || (a.id < b.id ? -1 : 1))
    ordered = [...rescored, ...head.filter((c) => !scores.has(c.id))]
  }
  const rescore = (c: Candidate) => (scores.has(c.id) ? { id: c.id, score: scores.get(c.id)! } : c)
  state.ranked = [...ordered.map(rescore), ...state.ranked.slice(head.length)]
  if (stage.scoreKey !== null) {
    const slot = state.stageScores.get(stage.scoreKey) ?? new Map<string, number>()
    for (const c of head) if (scores.has(c.id)) slot.set(c.id, scores.get(c.id)!)
    state.stageScores.set(stage.scoreKey, slot)
  }
  if (out.added !== undefined) {
    const added = out.added.items.filter((c) => !state.entryScore.has(c.id))
    for (const c of added) state.entryScore.set(c.id, c.score)
    state.added.push(out.added)
    state.ranked = mergeByScore(state.ranked, added)
  }
}
