import type { EngineCore } from '../engine/engine-core.js'
import { EngramError } from '../errors.js'
import { BM25_META, brainBm25, readBm25Override } from '../indexes/bm25/bm25-brain-settings.js'
import type { Bm25Settings, ResolvedBm25Settings } from '../indexes/bm25/bm25-index.js'
import type { IndexManager } from '../indexes/index-manager.js'

/** A brain's settings: what it runs with, and which fields it overrides of the engine's defaults. */
export interface BrainSettings {
  /** BM25 scoring of the brain's lexical indexes. */
  bm25: ResolvedBm25Settings
  /** The fields the brain sets itself; the rest follow the engine's defaults. */
  overrides: { bm25: Bm25Settings }
}

/** A change of a brain's settings: `bm25` replaces its BM25 override (`{}` or null clears it). */
export interface BrainSettingsUpdate {
  bm25?: Bm25Settings | null
}

/** Per-brain settings over the engine's defaults (`EngineOptions.bm25`), kept in the brain's meta. */
export interface BrainSettingsService {
  /** Throws BRAIN_NOT_FOUND (404) for an unknown brain. */
  get(brainId: string): Promise<BrainSettings>
  /**
   * Stores the override and applies it to the brain's indexes at once (BM25 settings weigh postings
   * only: nothing is re-indexed). Throws VALIDATION_ERROR (400) for out-of-range values, naming the
   * field. Other processes sharing the adapter apply it when they next build the brain's indexes.
   */
  update(brainId: string, update: BrainSettingsUpdate): Promise<BrainSettings>
}

export function createBrainSettings(
  core: EngineCore,
  indexes: IndexManager,
  engineDefaults: Bm25Settings,
): BrainSettingsService {
  async function get(brainId: string): Promise<BrainSettings> {
    const override = await readBm25Override((await core.store(brainId)).meta)
    return { bm25: brainBm25(engineDefaults, override), overrides: { bm25: override } }
  }
  return {
    get,
    async update(brainId, update) {
      const store = await core.store(brainId)
      if (update.bm25 !== undefined) {
        const override = Object.fromEntries(
          Object.entries(update.bm25 ?? {}).filter(([, v]) => v !== undefined),
        ) as Bm25Settings
        let settings: ResolvedBm25Settings
        try {
          settings = brainBm25(engineDefaults, override)
        } catch (error) {
          const message = (error as Error).message
          throw new EngramError('VALIDATION_ERROR', `Invalid BM25 settings: ${message}.`, {
            status: 400,
            detail: [{ loc: ['body', 'bm25'], msg: message, type: 'value_error' }],
            cause: error,
          })
        }
        await store.meta.set(BM25_META, JSON.stringify(override))
        // A build under way may have read the meta before this write: configure it once it is done.
        const built = await indexes.loading(brainId)?.catch(() => undefined)
        built?.lexical.configure(settings)
      }
      return get(brainId)
    },
  }
}
