import {
  createSearchService,
  GRAPH_WALK_DEFAULTS,
  type Embedder,
  type GraphWalkSettings,
} from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import type { BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import { docVotes } from './doc-votes.js'
import { requestFusion, requestStages } from './request-channels.js'
import {
  ingestCountsLine,
  logProgress,
  sharedIngest,
  type IngestedBrain,
} from './ingested-brain.js'
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
 * `expand: 'neighbors'`, which expands from graph-channel hits only (original-notes.md section D); a
 * `rerank:<name>` stage is the request's `rerank` (e.g. `rerank:plugin:coverage`).
 */
export function engineRequest(config: BenchConfig, query: string, k: number) {
  const e = config.engine
  const stages = e.stages ?? []
  return {
    query,
    k: Math.max(k, ENGINE_K),
    channels: e.channels.filter((c) => c !== 'dense'),
    ...requestStages(stages),
    ...requestFusion(e.fusion),
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
  variant?: GraphVariant,
): Promise<SystemUnderTest> {
  let brain: IngestedBrain | null = null
  let search: IngestedBrain['search'] | null = null
  return {
    name: variant === undefined ? 'engram' : `engram-graph:${variant.name}`,
    label:
      variant === undefined
        ? `Engram ${config.condition} (ingestion pipeline)`
        : `Engram ${config.condition}, ${variant.description}`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      brain = await sharedIngest(docs, {
        embedder,
        progress: logProgress(),
        ...(variant?.contradictions === false ? { contradictions: false } : {}),
      })
      console.log(`  ${ingestCountsLine(brain.counts)}`)
      search =
        variant?.graphWalk === undefined
          ? brain.search
          : createSearchService(brain.engram, brain.engram.indexes, {
              embedder,
              graphWalk: variant.graphWalk,
            })
    },
    async search(query: string, k: number): Promise<Hit[]> {
      if (brain === null || search === null) throw new Error('search before index')
      const request = engineRequest(config, query, k)
      const response = await search.search(brain.brainId, {
        ...request,
        ...(variant?.expand !== undefined ? { expand: variant.expand } : {}),
        ...(variant?.rerank !== undefined ? { rerank: variant.rerank } : {}),
      })
      return docVotes(response.hits, brain.docsOf).slice(0, k)
    },
    stats: () => ({ documents: brain?.documents ?? 0 }),
    close: async () => brain?.close(),
  }
}

/** One component of the graph condition switched off (an ablation, run as `engram-graph:<name>` peers). */
export interface GraphVariant {
  readonly name: string
  readonly description: string
  readonly expand?: 'none' | 'neighbors'
  readonly graphWalk?: Partial<GraphWalkSettings>
  /** The request's rerank instead of the config's (`plugin:coverage`: the query-coverage rerank). */
  readonly rerank?: string
  /**
   * False: a brain of its own, ingested with `EngineOptions.contradictions: false` (validity windows
   * recorded, no fact ended by a newer single-valued one: issue 28's "without" condition).
   */
  readonly contradictions?: false
}

/**
 * The ablations a graph config can list as peers (`engram-graph:<name>`), each one component off or one
 * setting changed, and the `coverage` and `hops` reranks (`rerank=plugin:coverage`, `plugin:hops`) with and
 * without the graph stage.
 */
export const GRAPH_VARIANTS: Readonly<Record<string, GraphVariant>> = {
  'no-expansion': { name: 'no-expansion', description: 'without the graph stage', expand: 'none' },
  'previous-default': {
    name: 'previous-default',
    description: 'the default search before issue 27 (no graph stage, no rerank)',
    expand: 'none',
    rerank: 'none',
  },
  'no-contradictions': {
    name: 'no-contradictions',
    description:
      'brain ingested without ending contradicted single-valued facts (contradictions: false)',
    contradictions: false,
  },
  'graph-only': {
    name: 'graph-only',
    description: 'the graph stage and no rerank for every question',
    expand: 'neighbors',
    rerank: 'none',
  },
  'always-hops': {
    name: 'always-hops',
    description: 'the graph stage and rerank=plugin:hops for every question',
    expand: 'neighbors',
    rerank: 'plugin:hops',
  },
  'no-walk': {
    name: 'no-walk',
    description: 'graph stage without the walk (sequence neighbours only)',
    graphWalk: { keepFused: 1 },
  },
  'no-sequence': {
    name: 'no-sequence',
    description: 'graph stage without sequence neighbours (walk only)',
    graphWalk: { sequenceWeight: 0 },
  },
  'no-entity-seeds': {
    name: 'no-entity-seeds',
    description: 'walk seeded by passages only',
    graphWalk: { passageWeight: 1 },
  },
  'passage-weight-0.2': {
    name: 'passage-weight-0.2',
    description: 'passage seeds weigh 0.2 (entity seeds 0.8)',
    graphWalk: { passageWeight: 0.2 },
  },
  'passage-weight-0.5': {
    name: 'passage-weight-0.5',
    description: 'passage seeds weigh 0.5 (entity seeds 0.5)',
    graphWalk: { passageWeight: 0.5 },
  },
  'skip-dead-ends': {
    name: 'skip-dead-ends',
    description: 'walk never steps to an entity only its passage cites',
    graphWalk: { skipDeadEnds: true },
  },
  'skip-events': {
    name: 'skip-events',
    description: 'walk without event nodes',
    graphWalk: { skipLabels: [...GRAPH_WALK_DEFAULTS.skipLabels, 'EVENT'] },
  },
  'walk-dates': {
    name: 'walk-dates',
    description: 'walk through date nodes too (the default leaves DATE out)',
    graphWalk: { skipLabels: GRAPH_WALK_DEFAULTS.skipLabels.filter((l) => l !== 'DATE') },
  },
  'named-only': {
    name: 'named-only',
    description: 'walk over named entities only (no events, concepts or quantities)',
    graphWalk: { skipLabels: [...GRAPH_WALK_DEFAULTS.skipLabels, 'EVENT', 'CONCEPT', 'QUANTITY'] },
  },
  'skip-events-quantities': {
    name: 'skip-events-quantities',
    description: 'walk without event and quantity nodes',
    graphWalk: { skipLabels: [...GRAPH_WALK_DEFAULTS.skipLabels, 'EVENT', 'QUANTITY'] },
  },
  coverage: {
    name: 'coverage',
    description: 'graph stage, then the query-coverage rerank (rerank=plugin:coverage)',
    rerank: 'plugin:coverage',
  },
  'coverage-no-expansion': {
    name: 'coverage-no-expansion',
    description: 'query-coverage rerank over the default search, without the graph stage',
    expand: 'none',
    rerank: 'plugin:coverage',
  },
  hops: {
    name: 'hops',
    description:
      'graph stage, then the multi-hop rerank (rerank=plugin:hops: coverage plus a hop from the first passage)',
    rerank: 'plugin:hops',
  },
  'hops-no-expansion': {
    name: 'hops-no-expansion',
    description: 'multi-hop rerank over the default search, without the graph stage',
    expand: 'none',
    rerank: 'plugin:hops',
  },
  'no-passage-seeds': {
    name: 'no-passage-seeds',
    description: 'walk seeded by query entities only',
    graphWalk: { passageWeight: 0 },
  },
}
