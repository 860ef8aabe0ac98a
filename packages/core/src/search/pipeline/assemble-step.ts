import type { FusionPlugin, SearchContext } from '../../contracts/search-plugins.js'
import type { HitScores, SearchHit, SearchResponse } from '../../model/search.js'
import { BUILTIN_NAMES } from '../../registry/plugin-registry.js'
import { tokenize } from '../../analysis/analyze.js'
import { facetsOf, matchesExtras } from '../extras.js'
import { snippetMaker } from '../snippet.js'
import type { StageTimer } from '../stage-timer.js'
import { hydrateThrough, startHydration } from './hydrate-step.js'
import type { SearchState } from './search-state.js'

/**
 * Where a fusion's own score lands in `hit.scores`: a built-in under its name (`rrf`, `cc`), a plugin
 * under `plugin.<name>`; nowhere for a fusion that passes channel scores through (`none`).
 */
export function fusionScoreSlot(
  fusion: FusionPlugin,
): ((scores: HitScores, s: number) => void) | null {
  if (fusion.scored === false) return null
  if (BUILTIN_NAMES.fusion.includes(fusion.name))
    return (scores, s) => ((scores as Record<string, unknown>)[fusion.name] = s)
  return (scores, s) => ((scores.plugin ??= {})[fusion.name] = s)
}

/**
 * Assemble: the first k ranked candidates that have a record (loading records k at a time when no
 * step loaded them) and pass the extras filter, each with its per-signal scores, the channel that
 * found it, a snippet and its extras; then channel lists, facets and stage timings.
 */
export async function assemble(
  state: SearchState,
  fusion: FusionPlugin,
  ctx: SearchContext,
  timer: StageTimer,
): Promise<SearchResponse> {
  const { request, lists } = state
  const hydration = startHydration(state)
  const ranked = state.ranked
  const snippet = snippetMaker(tokenize(request.query))
  const fusionSlot = fusionScoreSlot(fusion)
  const hits: SearchHit[] = []
  for (let i = 0; i < ranked.length && hits.length < request.k; i++) {
    const candidate = ranked[i]!
    // The next records in rank order, enough to fill the remaining hits if all of them qualify.
    if (i >= hydration.hydrated) await hydrateThrough(hydration, i + request.k - hits.length, ctx)
    const record = hydration.records.get(candidate.id)
    if (record === undefined) continue
    const extras = record.extras
    if (!matchesExtras(extras, request.extras)) continue
    const scores: HitScores = {}
    let channel = state.added.find((l) => l.items.some((i) => i.id === candidate.id))?.name ?? ''
    for (const list of lists) {
      const item = list.items.find((listed) => listed.id === candidate.id)
      if (item === undefined) continue
      if (list.signal === 'plugin')
        (scores.plugin ??= {})[list.name.replace(/^plugin:/, '')] = item.score
      else if (list.signal === 'graph')
        scores.graph = Math.max(scores.graph ?? -Infinity, item.score)
      else scores[list.signal] = item.score
      const owner = state.listChannel.get(list)!
      if (channel === '' || (owner === 'passages' && channel !== 'passages')) channel = owner
    }
    fusionSlot?.(scores, state.entryScore.get(candidate.id) ?? candidate.score)
    for (const [key, stageScores] of state.stageScores)
      if (stageScores.has(candidate.id)) scores[key] = stageScores.get(candidate.id)!
    hits.push({
      id: candidate.id,
      nodeId: record.nodeId,
      channel: channel || 'passages',
      labels: record.labels,
      score: candidate.score,
      scores,
      snippet: snippet(record.text),
      extras,
    })
  }

  const channelLists: Record<string, string[]> = {}
  for (const list of [...lists, ...state.added])
    channelLists[list.name] = list.items.map((i) => i.id)
  return {
    hits,
    nodeIds: hits.map((h) => h.nodeId),
    channelLists,
    facets: facetsOf(hits),
    stageTimings: request.profileStages ? timer.report() : null,
  }
}
