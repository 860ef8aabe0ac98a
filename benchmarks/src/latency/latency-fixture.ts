import { join } from 'node:path'
import { loadBeir } from '../loaders/beir.js'
import type { BenchDoc, RetrievalDataset } from '../loaders/dataset-types.js'
import { loadLocomo } from '../loaders/locomo.js'

/** The real data the latency suites time against, loaded once per run. */
export interface LatencyFixture {
  /** SciFact corpus (5,183 documents) and its 300 test queries. */
  readonly scifact: { readonly docs: readonly BenchDoc[]; readonly queries: readonly string[] }
  /** LoCoMo dev, for suites that need a graph built by ingestion. */
  readonly locomo: () => RetrievalDataset
}

export function loadLatencyFixture(dataDir: string): LatencyFixture {
  const scifact = loadBeir(join(dataDir, 'scifact'), 'scifact', 'test').groups[0]!
  let locomo: RetrievalDataset | undefined
  return {
    scifact: { docs: scifact.docs, queries: scifact.queries.map((q) => q.text) },
    locomo: () => (locomo ??= loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev')),
  }
}

/** Round-robin over a list, so a tinybench task sees every query rather than one cached one. */
export function cycle<T>(items: readonly T[]): () => T {
  let i = 0
  return () => items[i++ % items.length]!
}
