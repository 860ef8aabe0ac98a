import { performance } from 'node:perf_hooks'
import {
  analyze,
  Bm25Index,
  convexCombination,
  rrf,
  useLiteEmbedder,
  VectorIndex,
  type ChannelList,
} from '@engram/core'
import type { Bench } from 'tinybench'
import { indexText } from '../loaders/dataset-types.js'
import type { LatencySummary } from '../metrics/percentiles.js'
import { fnv1a, SYNTHETIC_DIMENSION, syntheticUnitVector } from '../scale/synthetic-vectors.js'
import { contextPackSuite, engineSearchSuite, neighbourExpansionSuite } from './engine-suites.js'
import { cycle, type LatencyFixture } from './latency-fixture.js'
import { responseBodySuite } from './response-body-suite.js'

/** What a suite set up: a note for the table (corpus, build time) and how to release it. */
export interface SuiteSetup {
  readonly note: string
  /** Figures measured outside tinybench (e.g. one stage read from `stage_timings`). */
  readonly rows?: readonly { readonly task: string; readonly latency: LatencySummary }[]
  teardown?(): Promise<void>
}

/**
 * In-process latency suites, one per search stage (tinybench), each timing the exported code of
 * @engram/core. A suite whose capability does not exist names what is missing and is listed as pending.
 */
export interface LatencySuite {
  readonly name: string
  readonly stage: string
  /** Null when runnable; otherwise the missing capability. */
  readonly missing: string | null
  /** Adds the suite's tasks to a bench; only called when `missing` is null. */
  readonly add?: (bench: Bench, fixture: LatencyFixture) => Promise<SuiteSetup>
}

const ms = (t0: number) => (performance.now() - t0).toFixed(0)

function scifactBm25(fixture: LatencyFixture): { index: Bm25Index; buildMs: string } {
  const t0 = performance.now()
  const index = new Bm25Index()
  for (const d of fixture.scifact.docs) index.add(d.id, indexText(d))
  return { index, buildMs: ms(t0) }
}

/** One synthetic unit vector per SciFact document, seeded by its id (see synthetic-vectors.ts). */
function scifactVectors(fixture: LatencyFixture): { index: VectorIndex; buildMs: string } {
  const t0 = performance.now()
  const index = new VectorIndex({ dimension: SYNTHETIC_DIMENSION })
  for (const d of fixture.scifact.docs) index.add(d.id, syntheticUnitVector(fnv1a(d.id)))
  return { index, buildMs: ms(t0) }
}

const SYNTHETIC_NOTE =
  "SYNTHETIC random 512-d unit vectors, one per SciFact document (embedding the corpus with use-lite would take minutes here: see the embedder's own throughput in ingest.md); they time the index, not dense quality"

export const LATENCY_SUITES: readonly LatencySuite[] = [
  {
    name: 'analyze',
    stage: 'tokenize + stopwords + Porter2 stem of a query (`analyze`)',
    missing: null,
    async add(bench, fixture) {
      const next = cycle(fixture.scifact.queries)
      bench.add('analyze(query)', () => void analyze(next()))
      return { note: `${fixture.scifact.queries.length} SciFact queries, round robin` }
    },
  },
  {
    name: 'bm25-search',
    stage: 'BM25 over SciFact (`Bm25Index.search`)',
    missing: null,
    async add(bench, fixture) {
      const { index, buildMs } = scifactBm25(fixture)
      const next = cycle(fixture.scifact.queries)
      bench.add('Bm25Index.search top-10', () => void index.search(next(), 10))
      bench.add('Bm25Index.search top-100', () => void index.search(next(), 100))
      return {
        note: `${index.size} SciFact documents (title + text), k1 0.9 b 0.4, built in ${buildMs} ms; 300 test queries round robin`,
      }
    },
  },
  {
    name: 'vector-search',
    stage: 'HNSW top-10 (`VectorIndex.search`, hnswlib-node, ef 100) and exact reference',
    missing: null,
    async add(bench, fixture) {
      const { index, buildMs } = scifactVectors(fixture)
      const queries = fixture.scifact.queries.map((q) => syntheticUnitVector(fnv1a(q)))
      const next = cycle(queries)
      bench.add('VectorIndex.search top-10 (HNSW)', () => void index.search(next(), 10))
      bench.add('VectorIndex.exactSearch top-10 (brute force)', () => {
        void index.exactSearch(next(), 10)
      })
      return { note: `${SYNTHETIC_NOTE}; ${index.size} vectors, HNSW built in ${buildMs} ms` }
    },
  },
  {
    name: 'embed-query',
    stage: 'query embedding with use-lite (`useLiteEmbedder().embed([query])`), cache off',
    missing: null,
    async add(bench, fixture) {
      const embedder = useLiteEmbedder({ cacheSize: 0 })
      const loads = await embedder.warmUp()
      const next = cycle(fixture.scifact.queries)
      const signal = new AbortController().signal
      bench.add('useLiteEmbedder.embed([query])', async () => {
        await embedder.embed([next()], signal)
      })
      return {
        note: `SciFact queries; ${loads.length} worker threads, model load ${loads.map((l) => l.toFixed(0)).join(' / ')} ms (not timed); includes the worker round trip`,
        teardown: () => embedder.close(),
      }
    },
  },
  {
    name: 'fusion',
    stage: 'RRF (k=60) / CC (alpha 0.5) of two top-100 lists (the exported fusion plugins)',
    missing: null,
    async add(bench, fixture) {
      const bm25 = scifactBm25(fixture).index
      const dense = scifactVectors(fixture).index
      const pairs: ChannelList[][] = fixture.scifact.queries.map((q) => [
        { name: 'bm25', signal: 'bm25', items: bm25.search(q, 100) },
        { name: 'dense', signal: 'dense', items: dense.search(syntheticUnitVector(fnv1a(q)), 100) },
      ])
      const next = cycle(pairs)
      const r = rrf()
      const cc = convexCombination()
      bench.add('rrf().fuse(bm25 top-100, dense top-100)', () => void r.fuse(next(), {}))
      bench.add('convexCombination().fuse(bm25 top-100, dense top-100)', () => {
        void cc.fuse(next(), {})
      })
      const sizes = pairs.map((p) => p[0]!.items.length)
      return {
        note: `per SciFact query: BM25 top-100 (real; mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(0)} items) and HNSW top-100 over the synthetic vectors of vector-search`,
      }
    },
  },
  engineSearchSuite,
  neighbourExpansionSuite,
  contextPackSuite,
  responseBodySuite,
]
