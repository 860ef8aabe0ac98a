import type { BenchConfig } from '../config/bench-config.js'
import { createEngramSearchSystem } from './engram-search-system.js'
import type { SystemResolution } from './system-under-test.js'

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

const ADAPTERS: Record<string, EngramAdapter> = {
  passages: engineSearch,
}

/** Registers an adapter (used by adapter modules once the core capability they drive exists). */
export function registerEngramAdapter(key: string, adapter: EngramAdapter): void {
  ADAPTERS[key] = adapter
}

export async function resolveEngramSystem(config: BenchConfig): Promise<SystemResolution> {
  if (config.pending) return { ready: false, missing: config.pending }
  const key = engramConditionKey(config)
  // A condition that loads search plugins (engine.plugins) runs through the search pipeline as written.
  const adapter = ADAPTERS[key] ?? (config.engine.plugins?.length ? engineSearch : undefined)
  if (!adapter) {
    return { ready: false, missing: `no Engram adapter for '${key}' in benchmarks/src/systems` }
  }
  return adapter(config)
}
