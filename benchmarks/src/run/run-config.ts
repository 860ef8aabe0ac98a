import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { BenchConfig } from '../config/bench-config.js'
import { judge, worstVerdict, type Verdict } from '../config/verdict.js'
import { documentCount, queryCount, type Qrels } from '../loaders/dataset-types.js'
import { loadRetrievalDataset } from '../loaders/load-dataset.js'
import { evaluateRun } from '../metrics/evaluate.js'
import { summarizeLatency } from '../metrics/percentiles.js'
import { formatTrecRun } from '../metrics/trec-run.js'
import { resolvePeer } from '../peers/peer-registry.js'
import { resolveEngramSystem } from '../systems/engram-system.js'
import type { SystemResolution } from '../systems/system-under-test.js'
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
  const candidates: [string, 'engram' | 'peer', SystemResolution][] = [
    ['engram', 'engram', await resolveEngramSystem(config)],
    ...config.peers.map((p): [string, 'peer', SystemResolution] => [p, 'peer', resolvePeer(p)]),
  ]
  const systems: SystemResult[] = []
  mkdirSync(opts.outDir, { recursive: true })
  for (const [name, role, resolution] of candidates) {
    if (opts.only?.length && !opts.only.includes(name)) continue
    if (!resolution.ready) {
      log(`${name}: PENDING (missing: ${resolution.missing})`)
      systems.push({ name, label: name, role, status: 'pending', missing: resolution.missing })
      continue
    }
    const m = await measureSystem(resolution.create, dataset, config.depth, opts.phases)
    const statsVerdict: Verdict = !opts.phases.includes('verify')
      ? 'NEW'
      : m.statsMismatches.length === 0 &&
          (expectedDocs === undefined || m.documents === expectedDocs)
        ? 'OK'
        : 'FAIL'
    log(`${name}: indexed ${m.documents} docs in ${m.indexMs.toFixed(0)} ms, stats ${statsVerdict}`)
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
      log(`  run file ${runFile}`)
      result = { ...result, metrics, verdicts, latency, runFile: basename(runFile) }
    }
    systems.push(result)
  }
  const all: Verdict[] = [indexStatsVerdict]
  for (const s of systems) {
    if (s.status === 'pending') all.push(s.role === 'engram' ? 'PENDING' : 'OK')
    else all.push(s.statsVerdict ?? 'OK', ...Object.values(s.verdicts ?? {}))
  }
  const verdict = worstVerdict(all)
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
    indexStatsVerdict,
    verdict,
    metrics: config.metrics,
    systems,
  }
}
