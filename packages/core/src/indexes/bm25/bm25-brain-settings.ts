import type { MetaRepository } from '../../contracts/meta-repository.js'
import { resolveBm25Settings, type Bm25Settings, type ResolvedBm25Settings } from './bm25-index.js'

/** Meta key of a brain's BM25 override (the fields it sets, as JSON). */
export const BM25_META = 'bm25'

/** The BM25 fields a brain overrides (`{}` when none), from its meta. */
export async function readBm25Override(meta: MetaRepository): Promise<Bm25Settings> {
  const raw = await meta.get(BM25_META)
  return raw === null ? {} : (JSON.parse(raw) as Bm25Settings)
}

/**
 * A brain's BM25 settings: its override's fields over the engine's defaults, then the built-in
 * defaults (`resolveBm25Settings`: delta follows the variant unless one of them sets it).
 */
export function brainBm25(
  engineDefaults: Bm25Settings,
  override: Bm25Settings,
): ResolvedBm25Settings {
  return resolveBm25Settings({ ...engineDefaults, ...override })
}
