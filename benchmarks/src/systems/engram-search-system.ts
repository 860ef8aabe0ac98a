import { loadPluginModules, type Embedder } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import type { BenchVectors } from '../vectors/bench-vectors.js'
import { denseChannel } from './dense-channel.js'
import { openEngineBrain } from './engine-brain.js'
import { requestChannels, requestFusion, requestStages } from './request-channels.js'
import type { SystemUnderTest } from './system-under-test.js'

/**
 * An Engram condition driven through the real engine: documents are committed as passages (one per document,
 * the document id as passage id, so run files name the dataset's ids), indexes follow through the commit
 * listener exactly as in the server, and queries go through `SearchService.search` with the config's
 * channels, fusion (and `cc`'s alpha, the request's `fusion_alpha`) and rerank stage. Nothing is bypassed:
 * the figures are those of `/retrieve/search` minus HTTP.
 *
 * With `vectors` (conditions whose config names an embedder), the search service gets the run's embedder,
 * each passage is committed with its vector in the same batch (as ingestion commits them), and queries are
 * embedded by the engine's query embedder. The vectors come from the harness's on-disk cache, filled by the
 * real model before any system runs, so index and query timings exclude the model itself.
 */
export async function createEngramSearchSystem(
  config: BenchConfig,
  vectors?: BenchVectors,
): Promise<SystemUnderTest> {
  const e = config.engine
  const channels = requestChannels(e.channels)
  const embedder: Embedder | null = vectors === undefined ? null : vectors.embedder()
  const brain = await openEngineBrain({
    embedder,
    ...(e.bm25 === undefined ? {} : { bm25: e.bm25 }),
    plugins: [
      ...(await loadPluginModules(e.plugins ?? [])),
      ...(channels.includes('plugin:dense') ? [denseChannel()] : []),
    ],
  })
  const signal = AbortSignal.timeout(60 * 60_000)
  let documents = 0
  return {
    name: 'engram',
    label: `Engram ${config.condition}`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      if (embedder === null) await brain.commitDocs(docs)
      else {
        const embedded = await embedder.embed(docs.map(indexText), signal)
        const byId = new Map(docs.map((d, i) => [d.id, embedded[i]!]))
        await brain.commitDocs(docs, (d) => byId.get(d.id)!)
      }
      documents += docs.length
    },
    async search(query: string, k: number): Promise<Hit[]> {
      const response = await brain.search.search(brain.brainId, {
        query,
        k,
        channels: [...channels],
        ...requestStages(e.stages ?? []),
        ...requestFusion(e.fusion),
        ...(e.fusion?.alpha !== undefined ? { fusionAlpha: e.fusion.alpha } : {}),
        profileStages: false,
      })
      return response.hits.map((h) => ({ id: h.id, score: h.score }))
    },
    stats: () => ({ documents }),
    close: () => brain.close(),
  }
}
