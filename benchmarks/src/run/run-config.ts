import { closeSharedBrains } from '../systems/ingested-brain.js'
import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { BenchConfig } from '../config/bench-config.js'
import { configVerdict, judge, type Verdict } from '../config/verdict.js'
import { documentCount, indexText, queryCount, type Qrels } from '../loaders/dataset-types.js'
import { loadRetrievalDataset } from '../loaders/load-dataset.js'
import { evaluateRun } from '../metrics/evaluate.js'
import { evaluateByCategory } from '../metrics/evaluate-by-category.js'
import { summarizeLatency } from '../metrics/percentiles.js'
import { formatTrecRun } from '../metrics/trec-run.js'
import { resolvePeer } from '../peers/peer-registry.js'
import { resolveEngramSystem } from '../systems/engram-system.js'
import type { SystemResolution } from '../systems/system-under-test.js'
import { benchVectors, vectorCacheDir, type BenchVectors } from '../vectors/bench-vectors.js'
import { cacheDir } from '../paths.js'
import { captureEnvironment } from './environment.js'
import { measureSystem } from './measure-system.js'
import type { ConfigResult, Phase, SystemResult } from './run-types.js'

export interface RunOptions {
  readonly dataDir: string
  /** Folder for this run's TREC files (never inside the data dir). */
  readonly outDir: string
  readonly phases: readonly Phase[]
  readonly command: string
  readonly log: (line: string) => void
  /** Restrict to these system names (`engram`, peer names); all when empty. */
  readonly only?: readonly string[]
  /**
   * Document and query vectors for the systems that use them; default use-lite behind the cache in
   * `benchmarks/.cache/vectors`, opened only when a system needs it and closed after this config.
   */
  readonly vectors?: BenchVectors
}

/** Runs one config: load, then each system (Engram first, then peers) through the phases, then verdicts. */
export async function runConfig(config: BenchConfig, opts: RunOptions): Promise<ConfigResult> {
  const { log } = opts
  const dataset = loadRetrievalDataset(config.dataset, opts.dataDir)
  const corpus = {
    documents: documentCount(dataset),
    queries: queryCount(dataset),
    groups: dataset.groups.length,
  }
  log(
    `dataset ${dataset.name}: ${corpus.documents} docs, ${corpus.queries} queries, ${corpus.groups} group(s)`,
  )
  for (const note of dataset.notes) log(`  note: ${note}`)
  const expectedDocs = config.indexStats?.documents
  const indexStatsVerdict: Verdict =
    expectedDocs === undefined ? 'NEW' : expectedDocs === corpus.documents ? 'OK' : 'FAIL'
  log(
    `index_stats documents: ${corpus.documents} (expected ${expectedDocs ?? '-'}) ${indexStatsVerdict}`,
  )

  const qrels: Qrels = new Map(dataset.groups.flatMap((g) => [...g.qrels]))
  const categoryOf = new Map(
    dataset.groups.flatMap((g) =>
      g.queries.flatMap((q) =>
        q.metadata?.category === undefined ? [] : [[q.id, String(q.metadata.category)] as const],
      ),
    ),
  )
  const candidates: [string, 'engram' | 'peer', SystemResolution][] = [
    ['engram', 'engram', await resolveEngramSystem(config)],
    ...config.peers.map((p): [string, 'peer', SystemResolution] => [
      p,
      'peer',
      resolvePeer(p, config),
    ]),
  ]
  const systems: SystemResult[] = []
  mkdirSync(opts.outDir, { recursive: true })
  const selected = candidates.filter(([name]) => !opts.only?.length || opts.only.includes(name))
  const vectors = opts.vectors ?? benchVectors({ cacheDir: vectorCacheDir(cacheDir) })
  // Every text is embedded (or found in the cache) before any system runs: the systems then read the same
  // vectors from the cache, and their index and query timings do not include the model.
  const embedding = selected.some(([, , r]) => r.ready && r.usesVectors)
    ? await vectors.prepare(
        dataset.groups.flatMap((g) => [
          ...g.docs.map(indexText),
          ...(opts.phases.includes('search') ? g.queries.map((q) => q.text) : []),
        ]),
        log,
      )
    : undefined
  try {
    for (const [name, role, resolution] of selected) {
      if (!resolution.ready) {
        log(`${name}: PENDING (missing: ${resolution.missing})`)
        systems.push({ name, label: name, role, status: 'pending', missing: resolution.missing })
        continue
      }
      const m = await measureSystem(resolution.create, dataset, config.depth, opts.phases, {
        vectors,
      })
      const statsVerdict: Verdict = !opts.phases.includes('verify')
        ? 'NEW'
        : m.statsMismatches.length === 0 &&
            (expectedDocs === undefined || m.documents === expectedDocs)
          ? 'OK'
          : 'FAIL'
      log(
        `${name}: indexed ${m.documents} docs in ${m.indexMs.toFixed(0)} ms, stats ${statsVerdict}`,
      )
      for (const mismatch of m.statsMismatches) log(`  ${mismatch}`)
      let result: SystemResult = {
        name,
        label: m.label,
        role,
        status: 'measured',
        scored: m.scored,
        documents: m.documents,
        indexMs: m.indexMs,
        statsVerdict,
      }
      if (opts.phases.includes('search')) {
        const metrics = evaluateRun(m.run, qrels, config.metrics, config.gains)
        const byCategory =
          categoryOf.size === 0
            ? undefined
            : evaluateByCategory(m.run, qrels, categoryOf, config.metrics, config.gains)
        const expected = config.expected[name] ?? {}
        const verdicts = Object.fromEntries(
          config.metrics.map((k) => [k, judge(metrics[k]!, expected[k])]),
        )
        const runFile = join(opts.outDir, `${config.name}.${name}.trec`)
        writeFileSync(runFile, formatTrecRun(m.run, `${config.name}.${name}`))
        const latency = summarizeLatency(m.latenciesMs)
        for (const k of config.metrics) {
          const exp = expected[k] === undefined ? '' : ` (expected ${expected[k]!.toFixed(4)})`
          log(`  ${k.padEnd(8)} ${metrics[k]!.toFixed(4)}${exp} ${verdicts[k]}`)
        }
        log(
          `  latency ms p50 ${latency.p50.toFixed(3)} p95 ${latency.p95.toFixed(3)} p99 ${latency.p99.toFixed(3)}`,
        )
        for (const [c, scores] of Object.entries(byCategory ?? {}))
          log(
            `  category ${c} (${scores.queries} queries): ` +
              config.metrics.map((k) => `${k} ${scores.metrics[k]!.toFixed(4)}`).join(', '),
          )
        log(`  run file ${runFile}`)
        result = {
          ...result,
          metrics,
          ...(byCategory === undefined ? {} : { byCategory }),
          verdicts,
          latency,
          runFile: basename(runFile),
        }
      }
      systems.push(result)
    }
  } finally {
    await closeSharedBrains()
    if (opts.vectors === undefined) await vectors.close()
  }
  const verdict = configVerdict(indexStatsVerdict, systems)
  log(`verdict ${config.name}: ${verdict}`)
  return {
    config: config.name,
    dataset: config.dataset,
    condition: config.condition,
    description: config.description,
    command: opts.command,
    phases: opts.phases,
    environment: captureEnvironment(),
    corpus,
    notes: dataset.notes,
    ...(embedding ? { embedding } : {}),
    indexStatsVerdict,
    verdict,
    metrics: config.metrics,
    systems,
  }
}
