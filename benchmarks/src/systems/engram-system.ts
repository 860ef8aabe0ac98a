import type { BenchConfig } from '../config/bench-config.js'
import { createEngramSearchSystem } from './engram-search-system.js'
import { GRAPH_ADAPTERS } from './engram-graph-adapters.js'
import type { SystemResolution } from './system-under-test.js'
import { harnessEmbedderMissing } from '../vectors/bench-vectors.js'

/**
 * Resolves the Engram side of a config to a system under test. Each adapter below drives a real piece of
 * @engram/core through the SystemUnderTest interface; a condition without an adapter must carry `pending:`
 * in its config naming the missing capability, and is reported as pending (never with a made-up number).
 */
type EngramAdapter = (config: BenchConfig) => Promise<SystemResolution>

/** Adapter key: channels joined by '+', then fusion name and stages, e.g. `passages` or `passages+dense/rrf`. */
export function engramConditionKey(config: BenchConfig): string {
  const e = config.engine
  const parts = [[...e.channels].sort().join('+')]
  if (e.fusion) parts.push(e.fusion.name)
  if (e.stages?.length) parts.push(e.stages.join('>'))
  return parts.join('/')
}

/** Conditions the engine's search pipeline runs today (BM25 passages channel, no fusion). */
const engineSearch: EngramAdapter = async (config) => ({
  ready: true,
  create: () => createEngramSearchSystem(config),
})

/**
 * Conditions with dense retrieval (`engine.embedder` set): the same engine search with the run's embedder
 * (use-lite behind the on-disk vector cache), every passage committed with its vector. `dense` alone runs
 * through the dense-only plugin channel (see request-channels.ts and dense-channel.ts).
 */
const engineVectorSearch: EngramAdapter = async (config) => {
  const embedder = config.engine.embedder
  const missing = harnessEmbedderMissing(embedder)
  if (missing !== null) return { ready: false, missing }
  return {
    ready: true,
    usesVectors: true,
    create: ({ vectors }) => createEngramSearchSystem(config, vectors),
  }
}

const ADAPTERS: Record<string, EngramAdapter> = {
  passages: engineSearch,
  dense: engineVectorSearch,
  // Fusion omitted: the engine's default (what a request with no options gets).
  'dense+passages': engineVectorSearch,
  'dense+passages/rrf': engineVectorSearch,
  'dense+passages/cc': engineVectorSearch,
  'dense+passages/rrf/rerank:plugin:dense': engineVectorSearch,
  // What a request naming no options gets, over passages committed as they are (no graph).
  'dense+passages/engine-default': engineVectorSearch,
  'passages/engine-default': engineSearch,
  // Graph conditions: the corpus goes through the ingestion pipeline (engram-graph-adapters.ts).
  ...GRAPH_ADAPTERS,
}

/** Registers an adapter (used by adapter modules once the core capability they drive exists). */
export function registerEngramAdapter(key: string, adapter: EngramAdapter): void {
  ADAPTERS[key] = adapter
}

export async function resolveEngramSystem(config: BenchConfig): Promise<SystemResolution> {
  if (config.pending) return { ready: false, missing: config.pending }
  const key = engramConditionKey(config)
  // A condition that loads search plugins (engine.plugins) runs through the search pipeline as written.
  const adapter =
    ADAPTERS[key] ??
    (config.engine.plugins?.length
      ? config.engine.embedder
        ? engineVectorSearch
        : engineSearch
      : undefined)
  if (!adapter) {
    return { ready: false, missing: `no Engram adapter for '${key}' in benchmarks/src/systems` }
  }
  return adapter(config)
}
