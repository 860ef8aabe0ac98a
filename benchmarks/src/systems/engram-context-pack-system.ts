import { contextPack, type ContextPack, type ContextPackOptions, type Embedder } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import type { BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import { docsInOrder } from './doc-votes.js'
import {
  ingestCountsLine,
  logProgress,
  sharedIngest,
  type IngestedBrain,
} from './ingested-brain.js'
import type { SystemUnderTest } from './system-under-test.js'

/**
 * The passages a context pack hands the LLM, in pack order: `source_passages` first, then each triple's
 * source chunks in triple order (the facts cite the passages they were extracted from).
 */
export function packPassageIds(pack: Pick<ContextPack, 'sourcePassageIds' | 'triples'>): string[] {
  return [...pack.sourcePassageIds, ...pack.triples.flatMap((t) => t.sourceChunkIds)]
}

/**
 * The context pack (`POST /retrieve/context`) scored as a ranked list: for each question the real
 * `contextPack` function runs with the server's defaults (`max_facts` 40, `max_passages` 8, PPR on) on
 * dependencies built as the server builds them (`createRetrieveDeps`: the brain's BM25 indexes, and its
 * vectors and query embedder when `embedder` is given), over a brain built by the ingestion pipeline. The
 * pack's passages (`packPassageIds`) are mapped to dataset documents, first occurrence kept. `R@all` on
 * this list is the share of a question's evidence the pack contains at all.
 */
export async function createEngramContextPackSystem(
  config: BenchConfig,
  embedder: Embedder | null,
  variant?: PackVariant,
): Promise<SystemUnderTest> {
  let brain: IngestedBrain | null = null
  let packs = 0
  let packDocs = 0
  let maxPackDocs = 0
  let truncated = 0
  return {
    name: variant === undefined ? 'engram' : `engram-pack:${variant.name}`,
    label:
      variant === undefined
        ? `Engram ${config.condition} (contextPack, default max_facts and max_passages)`
        : `Engram ${config.condition}, ${variant.description}`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      brain = await sharedIngest(docs, { embedder, progress: logProgress() })
      console.log(`  ${ingestCountsLine(brain.counts)}`)
    },
    async search(query: string, k: number): Promise<Hit[]> {
      if (brain === null) throw new Error('search before index')
      const b = brain
      const pack = await contextPack(await b.retrieveDeps(), query, variant?.options)
      const ranked = docsInOrder(packPassageIds(pack), (id) => b.docOfPassage(id))
      packs++
      packDocs += ranked.length
      maxPackDocs = Math.max(maxPackDocs, ranked.length)
      if (ranked.length > k) truncated++
      return ranked.slice(0, k)
    },
    stats: () => ({ documents: brain?.documents ?? 0 }),
    async close() {
      if (packs > 0)
        console.log(
          `  context packs: ${packs} (warm-up included), ${(packDocs / packs).toFixed(1)} documents per pack on ` +
            `average, at most ${maxPackDocs}; ${truncated} cut to the config's depth`,
        )
      await brain?.close()
    },
  }
}

/** The context pack with one of its options changed (an ablation, run as an `engram-pack:<name>` peer). */
export interface PackVariant {
  readonly name: string
  readonly description: string
  readonly options: ContextPackOptions
}

/** The ablations a context-pack config can list as peers, over the config's own ingested brain. */
export const PACK_VARIANTS: Readonly<Record<string, PackVariant>> = {
  'no-coverage': {
    name: 'no-coverage',
    description: 'context pack ordering its passages by the graph walk alone, for every question',
    options: { coverage: false },
  },
  'coverage-only': {
    name: 'coverage-only',
    description:
      'context pack ordering its passages by query coverage, without the hop, for every question',
    options: { coverage: true, hops: false },
  },
  'always-hops': {
    name: 'always-hops',
    description: 'context pack ordering its passages by coverage and the hop for every question',
    options: { coverage: true, hops: true },
  },
}
