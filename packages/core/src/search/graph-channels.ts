import { entitiesChannel } from '../builtins/channels/entities-channel.js'
import type { PluginRegistry } from '../registry/plugin-registry.js'
import type { ChannelRef } from './pipeline/retrieve-step.js'

/**
 * The channels and fusion graph operations take their candidates from (DESIGN.md section 1a): a
 * registered `plugin:<name>` channel or fusion reaches `/retrieve/`, hops and context packs through
 * here (engine option `graphChannels`; the server reads `ENGRAM_RETRIEVE_CHANNELS`,
 * `ENGRAM_SEED_CHANNELS` and `ENGRAM_RETRIEVE_FUSION`).
 */
export interface GraphChannels {
  /** Passages of `/retrieve/` and the passage seeds of `POST /retrieve/context`. */
  passages: readonly ChannelRef[]
  /** Entity seeds of `/retrieve/hops`. */
  seeds: readonly ChannelRef[]
  /** Fusion of both. */
  fusion: string
}

/**
 * The fusion of a search that names none, for `/retrieve/search` (engine option `defaultFusion`,
 * server `ENGRAM_SEARCH_FUSION`) and graph operations: `cc` with the brain's calibrated weights
 * (docs/search-fusion.md). CONTRACT.md section 7 had `rrf`; `rrf` stays available by name.
 */
export const DEFAULT_FUSION = 'cc'

/**
 * Today's lists: passage BM25 + dense; entity BM25 + the raw nearest entity vectors (events
 * included, as hop seeds have always been read); fused by the default fusion.
 */
export const DEFAULT_GRAPH_CHANNELS: GraphChannels = {
  passages: ['passages'],
  seeds: [entitiesChannel({ rawDense: true })],
  fusion: DEFAULT_FUSION,
}

/** Defaults filled in and every name checked against the registry (an unknown one fails at start). */
export function resolveGraphChannels(
  registry: PluginRegistry,
  given: Partial<GraphChannels> = {},
): GraphChannels {
  const pick = (refs: readonly ChannelRef[] | undefined, fallback: readonly ChannelRef[]) =>
    refs !== undefined && refs.length > 0 ? refs : fallback
  const channels: GraphChannels = {
    passages: pick(given.passages, DEFAULT_GRAPH_CHANNELS.passages),
    seeds: pick(given.seeds, DEFAULT_GRAPH_CHANNELS.seeds),
    fusion: given.fusion ?? DEFAULT_GRAPH_CHANNELS.fusion,
  }
  for (const ref of [...channels.passages, ...channels.seeds])
    if (typeof ref === 'string') registry.resolveRequest('channel', ref)
  registry.resolveRequest('fusion', channels.fusion)
  return channels
}
