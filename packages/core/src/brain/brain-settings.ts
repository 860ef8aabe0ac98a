import type { EngineCore } from '../engine/engine-core.js'
import { EngramError } from '../errors.js'
import { BM25_META, brainBm25, readBm25Override } from '../indexes/bm25/bm25-brain-settings.js'
import type { Bm25Settings, ResolvedBm25Settings } from '../indexes/bm25/bm25-index.js'
import type { IndexManager } from '../indexes/index-manager.js'
import { predicateName } from '../model/relationship.js'
import {
  brainSingleValued,
  SINGLE_VALUED_META,
  type SingleValuedTable,
} from '../time/single-valued.js'
import {
  isValidTtl,
  MAX_TTL_SECONDS,
  readDefaultTtl,
  writeDefaultTtl,
} from '../sources/source-expiry.js'

/** A brain's settings: what it runs with, and which fields it overrides of the engine's defaults. */
export interface BrainSettings {
  /** BM25 scoring of the brain's lexical indexes. */
  bm25: ResolvedBm25Settings
  /** The fields the brain sets itself; the rest follow the engine's defaults. */
  overrides: { bm25: Bm25Settings }
  /** Expiry of its sources (docs/time.md): `defaultTtl` seconds for ingestions that give none, or null. */
  expiry: { defaultTtl: number | null }
  /**
   * Contradictions (docs/time.md): the single-valued predicate table the brain runs with (the defaults
   * with its override's slots replaced), and its override.
   */
  temporal: { singleValuedPredicates: SingleValuedTable; override: SingleValuedTable }
}

/**
 * A change of a brain's settings: `bm25` replaces its BM25 override (`{}` or null clears it);
 * `expiry.defaultTtl` sets the lifetime of sources ingested without `expires_at` or `ttl` (null clears
 * it; sources ingested before keep their expiry).
 */
export interface BrainSettingsUpdate {
  bm25?: Bm25Settings | null
  expiry?: { defaultTtl?: number | null } | null
  /** Replaces the slots it names (an empty list switches one off); null or `{}` clears the override. */
  temporal?: { singleValuedPredicates?: SingleValuedTable | null } | null
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
    const { meta } = await core.store(brainId)
    const override = await readBm25Override(meta)
    return {
      bm25: brainBm25(engineDefaults, override),
      overrides: { bm25: override },
      expiry: { defaultTtl: await readDefaultTtl(meta) },
      temporal: await readTemporal(meta),
    }
  }
  return {
    get,
    async update(brainId, update) {
      const store = await core.store(brainId)
      const defaultTtl = update.expiry === null ? null : update.expiry?.defaultTtl
      if (defaultTtl != null && !isValidTtl(defaultTtl)) {
        const msg = `must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS}, or null`
        throw new EngramError('VALIDATION_ERROR', `Invalid expiry settings: default_ttl ${msg}.`, {
          status: 400,
          detail: [{ loc: ['body', 'expiry', 'default_ttl'], msg, type: 'value_error' }],
        })
      }
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
      const table = update.temporal === null ? null : update.temporal?.singleValuedPredicates
      // Checked before anything is written, so a bad table changes nothing.
      const override = table === undefined ? undefined : checkTable(table ?? {})
      if (defaultTtl !== undefined) await writeDefaultTtl(store.meta, defaultTtl)
      if (override !== undefined) await store.meta.set(SINGLE_VALUED_META, JSON.stringify(override))
      return get(brainId)
    },
  }
}

const SLOT = /^[a-z][a-z0-9_]{0,63}$/
const MAX_SLOTS = 100
const MAX_PREDICATES = 200

async function readTemporal(meta: { get(key: string): Promise<string | null> }) {
  const override = JSON.parse((await meta.get(SINGLE_VALUED_META)) ?? '{}') as SingleValuedTable
  return { singleValuedPredicates: brainSingleValued(override), override }
}

/** A brain's table override, checked and normalised (UPPER_SNAKE predicates), or a 400 naming the field. */
function checkTable(table: SingleValuedTable): SingleValuedTable {
  const fail = (loc: string[], msg: string): never => {
    throw new EngramError('VALIDATION_ERROR', `Invalid temporal settings: ${msg}.`, {
      status: 400,
      detail: [
        { loc: ['body', 'temporal', 'single_valued_predicates', ...loc], msg, type: 'value_error' },
      ],
    })
  }
  const entries = Object.entries(table)
  if (entries.length > MAX_SLOTS) fail([], `at most ${MAX_SLOTS} slots`)
  const out: Record<string, string[]> = {}
  for (const [slot, predicates] of entries) {
    if (!SLOT.test(slot)) fail([slot], 'a slot name is lower_snake, 1 to 64 characters')
    if (!Array.isArray(predicates) || predicates.length > MAX_PREDICATES)
      fail([slot], `a list of at most ${MAX_PREDICATES} predicates`)
    for (const p of predicates)
      if (typeof p !== 'string' || p.trim() === '' || p.length > 128)
        fail([slot], 'each predicate is a non-empty string of at most 128 characters')
    out[slot] = [...new Set(predicates.map(predicateName))]
  }
  return out
}
