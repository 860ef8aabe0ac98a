import type { Embedder } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import type { BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import { docVotes } from './doc-votes.js'
import { requestFusion } from './request-channels.js'
import { ingestCountsLine, ingestDocs, logProgress, type IngestedBrain } from './ingested-brain.js'
import type { SystemUnderTest } from './system-under-test.js'

/**
 * Fewest hits asked of the engine per query. The engine reads max(k, 50) candidates per channel, so asking
 * for 50 keeps every channel as deep as in the passage-only conditions (k <= 50 there) while leaving room
 * for the entity and event hits that share the fused list with passages.
 */
export const ENGINE_K = 50

/**
 * The engine's request for a config: `dense` is not a channel of its own (the `passages` channel adds a
 * dense list, and `entities` an `entities_dense` one, when the engine has an embedder), so it is dropped
 * from the channels and its absence makes the search lexical only. The `neighbour-expansion` stage is
 * `expand: 'neighbors'`, which expands from graph-channel hits only (original-notes.md section D).
 */
export function engineRequest(config: BenchConfig, query: string, k: number) {
  const e = config.engine
  const stages = e.stages ?? []
  return {
    query,
    k: Math.max(k, ENGINE_K),
    channels: e.channels.filter((c) => c !== 'dense'),
    expand:
      stages.includes('neighbour-expansion') || stages.includes('neighbors') ? 'neighbors' : 'none',
    ...requestFusion(e.fusion),
    rerank: 'none',
    profileStages: false,
    lexicalOnly: !e.channels.includes('dense'),
  } as const
}

/**
 * An Engram search condition over a brain built by the ingestion pipeline (see ingested-brain.ts), so the
 * entities and events channels and neighbour expansion have a graph to read. `embedder` (the run's, not
 * closed here) embeds passages and entities at ingestion and queries at search; null for lexical only.
 * Queries go through `SearchService.search` as `/retrieve/search` runs them; the mixed hits (passages,
 * entities, events, neighbours) are mapped to dataset documents by `docVotes` (an entity or event counts
 * for the passages it was extracted from) and cut to k.
 */
export async function createEngramGraphSearchSystem(
  config: BenchConfig,
  embedder: Embedder | null,
): Promise<SystemUnderTest> {
  let brain: IngestedBrain | null = null
  return {
    name: 'engram',
    label: `Engram ${config.condition} (ingestion pipeline)`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      brain = await ingestDocs(docs, { embedder, progress: logProgress() })
      console.log(`  ${ingestCountsLine(brain.counts)}`)
    },
    async search(query: string, k: number): Promise<Hit[]> {
      if (brain === null) throw new Error('search before index')
      const response = await brain.search.search(brain.brainId, engineRequest(config, query, k))
      return docVotes(response.hits, brain.docsOf).slice(0, k)
    },
    stats: () => ({ documents: brain?.documents ?? 0 }),
    close: async () => brain?.close(),
  }
}
