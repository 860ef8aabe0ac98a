import { join } from 'node:path'
import type { RetrievalDataset } from './dataset-types.js'
import { loadBeir } from './beir.js'
import { loadLocomo } from './locomo.js'
import { loadMusique } from './musique.js'

/** Retrieval datasets by config name -> folder under the data dir and loader. */
const LOADERS: Record<string, (dataDir: string) => RetrievalDataset> = {
  scifact: (d) => loadBeir(join(d, 'scifact'), 'scifact', 'test'),
  'locomo-dev': (d) => loadLocomo(join(d, 'locomo-dev'), 'locomo-dev'),
  'musique-100': (d) => loadMusique(join(d, 'musique-100'), 'musique-100'),
}

export const retrievalDatasetNames: readonly string[] = Object.keys(LOADERS)

export function loadRetrievalDataset(name: string, dataDir: string): RetrievalDataset {
  const load = LOADERS[name]
  if (!load)
    throw new Error(`unknown dataset '${name}' (known: ${retrievalDatasetNames.join(', ')})`)
  return load(dataDir)
}
