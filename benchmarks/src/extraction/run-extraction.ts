import { performance } from 'node:perf_hooks'
import { createEngine, INGEST_TEXT, memoryAdapter, type Engram } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import { configVerdict, judge, type Verdict } from '../config/verdict.js'
import { captureEnvironment } from '../run/environment.js'
import type { ConfigResult } from '../run/run-types.js'
import { DOC_ID_KEY, UNDATED_SOURCE } from '../systems/ingested-brain.js'
import {
  countDocument,
  emptyCounts,
  extractionScores,
  type ExtractedDoc,
} from './extraction-metrics.js'
import { falseMerges, type FalseMerge, type SharedNode } from './false-merges.js'
import { hardWrap, loadRedocred, type RedocredDoc } from './redocred.js'

const PAGE = 1000
const SHARED = 'shared'

/** Submits one `ingest_text` task per document to `brainOf(doc)` and waits until all completed. */
async function ingest(
  engram: Engram,
  docs: readonly RedocredDoc[],
  brainOf: (doc: RedocredDoc) => string,
): Promise<void> {
  for (const doc of docs)
    await engram.tasks.submit({
      brainId: brainOf(doc),
      kind: INGEST_TEXT,
      taskId: `bench:${doc.id}`,
      payload: {
        text: doc.text,
        json: null,
        metaKeys: { [DOC_ID_KEY]: doc.id },
        observateFor: [],
        sourceTimestamp: UNDATED_SOURCE,
        skipEnrichment: false,
      },
    })
  await engram.tasks.idle()
  for (const brain of new Set(docs.map(brainOf))) {
    const tasks = await engram.tasks.list(brain, { limit: PAGE, skip: 0 })
    const failed = tasks.filter((t) => t.status !== 'completed')
    if (failed.length > 0)
      throw new Error(
        `ingestion of ${brain}: ${failed[0]!.id} ${failed[0]!.status} ${failed[0]!.error}`,
      )
  }
}

/** Every node and edge of a brain, with the documents each node's passages came from. */
async function readBrain(
  engram: Engram,
  brainId: string,
): Promise<ExtractedDoc & { nodes: SharedNode[] }> {
  const store = await engram.store(brainId)
  const docOf = new Map<string, string>()
  for (let after: string | null = null; ;) {
    const page = await store.passages.scan(after, PAGE)
    for (const p of page) docOf.set(p.id, String(p.metadata[DOC_ID_KEY]))
    if (page.length < PAGE) break
    after = page.at(-1)!.id
  }
  const nodes: SharedNode[] = []
  for (let after: string | null = null; ;) {
    const page = await store.entities.scan(after, PAGE)
    for (const e of page)
      nodes.push({
        uuid: e.uuid,
        names: [e.name, ...e.aliases],
        labels: e.labels,
        docs: [...new Set(e.sourcePassageIds.map((id) => docOf.get(id) ?? ''))],
      })
    if (page.length < PAGE) break
    after = page.at(-1)!.uuid
  }
  const edges: { subject: string; object: string; name: string }[] = []
  for (let after: string | null = null; ;) {
    const page = await store.relationships.scan(after, PAGE)
    for (const r of page) edges.push({ subject: r.subjectUuid, object: r.objectUuid, name: r.name })
    if (page.length < PAGE) break
    after = page.at(-1)!.uuid
  }
  return { nodes, edges }
}

export interface ExtractionRun {
  readonly result: ConfigResult
  readonly falseMerges: readonly FalseMerge[]
}

/**
 * `--config <dataset>.extraction`: every document ingested through the real pipeline (`createEngine`
 * registers `registerIngestion` with `defaultIngestionComponents`: chunker, local extractor, resolver; no
 * embedder) into a brain of its own, its nodes and edges judged against the gold clusters and relations
 * (extraction-metrics.ts); then all documents into one brain, for the people resolution merged across
 * documents (false-merges.ts). One task at a time, so numbers do not depend on scheduling.
 */
export async function runExtractionConfig(
  config: BenchConfig,
  opts: { dataDir: string; command: string; log: (line: string) => void },
): Promise<ExtractionRun> {
  const { log } = opts
  const wrap = config.wrap
  const docs = loadRedocred(opts.dataDir, config.dataset).map((doc) =>
    wrap === null ? doc : { ...doc, text: hardWrap(doc.text, wrap) },
  )
  log(
    `dataset ${config.dataset}: ${docs.length} docs${wrap === null ? '' : `, wrapped at ${wrap} columns`}`,
  )
  const expectedDocs = config.indexStats?.documents
  const indexStatsVerdict: Verdict =
    expectedDocs === undefined ? 'NEW' : expectedDocs === docs.length ? 'OK' : 'FAIL'
  log(
    `index_stats documents: ${docs.length} (expected ${expectedDocs ?? '-'}) ${indexStatsVerdict}`,
  )

  const engram = createEngine({
    storage: memoryAdapter(),
    version: 'bench',
    defaultBrain: null,
    workers: 1,
    maxPendingTasks: docs.length + 1,
    embedder: null,
  })
  const t0 = performance.now()
  const counts = emptyCounts()
  let merges: FalseMerge[]
  try {
    await engram.start()
    const brainOf = (doc: RedocredDoc) => `doc-${doc.id.split(':')[1]}`
    for (const doc of docs) await engram.brains.create(brainOf(doc))
    await ingest(engram, docs, brainOf)
    for (const doc of docs) countDocument(counts, doc, await readBrain(engram, brainOf(doc)))
    log(`  one brain per document: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    await engram.brains.create(SHARED)
    await ingest(engram, docs, () => SHARED)
    const shared = await readBrain(engram, SHARED)
    merges = falseMerges(shared.nodes, new Map(docs.map((d) => [d.id, d])))
    log(`  all documents in one brain: ${shared.nodes.length} nodes`)
  } finally {
    await engram.stop({ graceMs: 0 })
  }
  const indexMs = performance.now() - t0
  const metrics: Record<string, number> = {
    ...extractionScores(counts),
    'false-merges': merges.length,
  }
  const expected = config.expected.engram ?? {}
  const verdicts = Object.fromEntries(
    config.metrics.map((k) => [k, judge(metrics[k] ?? Number.NaN, expected[k])]),
  )
  for (const k of config.metrics) {
    const exp = expected[k] === undefined ? '' : ` (expected ${expected[k]!.toFixed(4)})`
    log(`  ${k.padEnd(17)} ${(metrics[k] ?? Number.NaN).toFixed(4)}${exp} ${verdicts[k]}`)
  }
  for (const m of merges.slice(0, 10)) log(`  false merge: ${m.node} = ${m.people.join(' / ')}`)
  const systems = [
    {
      name: 'engram',
      label: 'local extractor + resolver, no embedder',
      role: 'engram' as const,
      status: 'measured' as const,
      documents: docs.length,
      indexMs,
      metrics,
      verdicts,
      statsVerdict: indexStatsVerdict,
    },
  ]
  const verdict = configVerdict(indexStatsVerdict, systems)
  log(`verdict ${config.name}: ${verdict}`)
  return {
    result: {
      config: config.name,
      dataset: config.dataset,
      condition: config.condition,
      description: config.description,
      command: opts.command,
      phases: ['ingest', 'verify', 'search'],
      environment: captureEnvironment(),
      corpus: { documents: docs.length, queries: 0, groups: 1 },
      notes: merges.map((m) => `\`${m.node}\`: ${m.people.join(' / ')}`),
      indexStatsVerdict,
      verdict,
      metrics: config.metrics,
      systems,
    },
    falseMerges: merges,
  }
}
