import type { TimeFilter } from '../time/validity.js'
import type {
  Candidate,
  CandidateSource,
  ChannelList,
  FusionCalibration,
  SearchContext,
} from '../contracts/search-plugins.js'
import { builtinPlugins } from '../builtins/builtin-plugins.js'
import { PluginRegistry } from '../registry/plugin-registry.js'
import { DEFAULT_FUSION, resolveGraphChannels } from './graph-channels.js'
import { fusionCalibrationFor } from './fusion-calibration.js'
import { recordedEmbedder } from './dense-access.js'
import { fuse } from './pipeline/fuse-step.js'
import { resolveChannels, retrieve, type ChannelRef } from './pipeline/retrieve-step.js'
import { createSearchContext, type SearchContextParts } from './search-context.js'
import { createStageTimer, type StageTimer } from './stage-timer.js'

/** What a graph operation asks the search pipeline for. */
export interface CandidatesRequest {
  query: string
  /** Channels by request name (`passages`, `plugin:<name>`) or as plugin objects; default `passages`. */
  channels: readonly ChannelRef[]
  /** `cc` (default, with the brain's calibration), `rrf`, `none` or `plugin:<name>`. */
  fusion?: string
  /** Candidates asked of each channel. */
  depth: number
  nodeLabels?: string[]
  /** The brain as it was then (docs/time.md); default now. */
  time?: TimeFilter
}

/** Fused candidates, best first, and the channel lists they were fused from. */
export interface CandidatesResult {
  candidates: Candidate[]
  lists: ChannelList[]
}

/**
 * The candidate half of the search pipeline (retrieve -> fuse) for graph operations (`/retrieve/`,
 * hops seeds, context-pack seeds): the same channels, fusions and plugins as `/retrieve/search`,
 * without stages, hydration or a cut to k.
 */
export async function searchCandidates(
  request: CandidatesRequest,
  deps: {
    registry: PluginRegistry
    ctx: SearchContext
    timer: Pick<StageTimer, 'timeSync'>
    /** The brain's fusion weights (default: those of a brain without an embedder). */
    calibration?: FusionCalibration
  },
): Promise<CandidatesResult> {
  const channels = resolveChannels(deps.registry, request.channels)
  const fusion = deps.registry.resolveRequest('fusion', request.fusion ?? DEFAULT_FUSION)
  const query = {
    text: request.query,
    depth: request.depth,
    ...(request.nodeLabels ? { nodeLabels: request.nodeLabels } : {}),
  }
  const { lists } = await retrieve(channels, query, deps.ctx)
  const calibration = deps.calibration ?? fusionCalibrationFor(null, null)
  return { candidates: fuse(fusion, lists, undefined, deps.timer, calibration), lists }
}

/**
 * A graph operation's candidate source over one brain's parts, with the built-in plugins only: for
 * tests and tools that assemble `RetrieveDeps` by hand (the engine's come from `createRetrieveDeps`).
 */
export function builtinCandidateSource(
  parts: Omit<SearchContextParts, 'timer' | 'signal'>,
): CandidateSource {
  const registry = new PluginRegistry()
  for (const plugin of builtinPlugins()) registry.register(plugin)
  const channels = resolveGraphChannels(registry.freeze())
  const timer = createStageTimer()
  const ctx = createSearchContext({ ...parts, timer, signal: () => AbortSignal.timeout(30_000) })
  let calibration: Promise<FusionCalibration> | undefined
  return async (set, query, depth) =>
    (
      await searchCandidates(
        { query, channels: channels[set], fusion: channels.fusion, depth },
        {
          registry,
          ctx,
          timer,
          calibration: await (calibration ??= recordedEmbedder(parts.store).then((e) =>
            fusionCalibrationFor(e?.name ?? null, null),
          )),
        },
      )
    ).candidates
}
