import { loadPluginModules } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import type { BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import { openEngineBrain } from './engine-brain.js'
import type { SystemUnderTest } from './system-under-test.js'

/**
 * An Engram condition driven through the real engine: documents are committed as passages (one per document,
 * the document id as passage id, so run files name the dataset's ids), indexes follow through the commit
 * listener exactly as in the server, and queries go through `SearchService.search` with the config's
 * channels, fusion and rerank stage. Nothing is bypassed: the figures are those of `/retrieve/search` minus HTTP.
 */
export async function createEngramSearchSystem(config: BenchConfig): Promise<SystemUnderTest> {
  const brain = await openEngineBrain({
    plugins: await loadPluginModules(config.engine.plugins ?? []),
  })
  const e = config.engine
  const rerank = e.stages?.find((s) => s.startsWith('rerank:'))?.slice('rerank:'.length) ?? 'none'
  let documents = 0
  return {
    name: 'engram',
    label: `Engram ${config.condition}`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      await brain.commitDocs(docs)
      documents += docs.length
    },
    async search(query: string, k: number): Promise<Hit[]> {
      const response = await brain.search.search(brain.brainId, {
        query,
        k,
        channels: [...e.channels],
        expand: e.stages?.includes('neighbors') ? 'neighbors' : 'none',
        fusion: e.fusion?.name ?? 'none',
        rerank,
        profileStages: false,
      })
      return response.hits.map((h) => ({ id: h.id, score: h.score }))
    },
    stats: () => ({ documents }),
    close: () => brain.close(),
  }
}
