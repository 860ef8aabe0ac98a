import { performance } from 'node:perf_hooks'
import type { RetrievalDataset } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import type { SystemDeps, SystemFactory } from '../systems/system-under-test.js'
import type { Phase } from './run-types.js'

export interface Measurement {
  readonly label: string
  readonly scored: boolean
  readonly documents: number
  /** Documents each group's system reported against the group's size, for the verify phase. */
  readonly statsMismatches: readonly string[]
  readonly indexMs: number
  readonly latenciesMs: readonly number[]
  readonly run: Map<string, Hit[]>
}

/** Queries searched untimed before timing starts, so JIT warm-up does not land in p99. */
const WARMUP_QUERIES = 20

/**
 * Drives one system through the phases on every group: a fresh instance per group (LoCoMo conversations are
 * separate memories), timed indexing, a stats check, then each query once, timed individually.
 */
export async function measureSystem(
  create: SystemFactory,
  dataset: RetrievalDataset,
  depth: number,
  phases: readonly Phase[],
  deps: SystemDeps,
): Promise<Measurement> {
  const run = new Map<string, Hit[]>()
  const latenciesMs: number[] = []
  const statsMismatches: string[] = []
  let indexMs = 0
  let documents = 0
  let label = ''
  let scored = true
  for (const group of dataset.groups) {
    const system = await create(deps)
    label = system.label
    scored = system.scored
    const t0 = performance.now()
    await system.index(group.docs)
    indexMs += performance.now() - t0
    const reported = system.stats().documents
    documents += reported
    if (phases.includes('verify') && reported !== group.docs.length) {
      statsMismatches.push(`${group.name}: indexed ${reported} of ${group.docs.length}`)
    }
    if (phases.includes('search')) {
      for (const q of group.queries.slice(0, WARMUP_QUERIES)) await system.search(q.text, depth)
      for (const q of group.queries) {
        const s = performance.now()
        const hits = await system.search(q.text, depth)
        latenciesMs.push(performance.now() - s)
        run.set(q.id, hits.slice(0, depth))
      }
    }
    await system.close?.()
  }
  return { label, scored, documents, statsMismatches, indexMs, latenciesMs, run }
}
