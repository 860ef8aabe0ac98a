import type { FusionCalibration, SearchContext } from '../contracts/search-plugins.js'
import type { SearchResponse } from '../model/search.js'
import type { PluginRegistry } from '../registry/plugin-registry.js'
import { assemble } from './pipeline/assemble-step.js'
import { fuse } from './pipeline/fuse-step.js'
import { hydrateAll } from './pipeline/hydrate-step.js'
import { planStages, type BuiltinStages } from './pipeline/plan-stages.js'
import { resolveChannels, retrieve } from './pipeline/retrieve-step.js'
import { createSearchState } from './pipeline/search-state.js'
import { runStages } from './pipeline/stages-step.js'
import { candidateDepth, type SearchRequest } from './search-request.js'
import type { StageTimer } from './stage-timer.js'

export interface SearchDeps {
  registry: PluginRegistry
  ctx: SearchContext
  timer: StageTimer
  /** Expansion and personalization, placed around the request's rerank. */
  stages: BuiltinStages
  /** The fusion of a request that names none (`cc` unless configured). */
  defaultFusion: string
  /** The brain's fusion weights (by the embedder it was built with). */
  calibration: FusionCalibration
}

/**
 * The search pipeline (DESIGN.md section 3), one named step after another over one state object:
 * retrieve (channels) -> fuse -> stages in order (expansion, rerank, personalization) -> hydrate ->
 * assemble (hits with scores, snippets and extras, cut to k; facets; timings). Names are resolved
 * first, so an unknown channel, fusion or rerank is a 400 before any work.
 */
export async function runSearch(request: SearchRequest, deps: SearchDeps): Promise<SearchResponse> {
  const { registry, ctx, timer } = deps
  const channels = resolveChannels(registry, request.channels)
  const fusion = registry.resolveRequest('fusion', request.fusion ?? deps.defaultFusion)
  const stages = planStages(request, registry, deps.stages, ctx)
  const state = createSearchState(request, candidateDepth(request))

  const retrieved = await retrieve(channels, channelQuery(request, state.depth), ctx)
  state.lists = retrieved.lists
  for (const [list, name] of retrieved.listChannel) state.listChannel.set(list, name)
  state.ranked = fuse(fusion, state.lists, request.fusionAlpha, timer, deps.calibration)
  for (const c of state.ranked) if (!state.entryScore.has(c.id)) state.entryScore.set(c.id, c.score)
  await runStages(state, stages, ctx)
  // An extras filter may reject most of the window: load it whole. Otherwise assemble loads k at a time.
  if (request.extras !== undefined && Object.keys(request.extras).length > 0)
    await hydrateAll(state, ctx)
  return assemble(state, fusion, ctx, timer)
}

function channelQuery(request: SearchRequest, depth: number) {
  return {
    text: request.query,
    depth,
    ...(request.nodeLabels ? { nodeLabels: request.nodeLabels } : {}),
    ...(request.communityLabels ? { communityLabels: request.communityLabels } : {}),
  }
}
