import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { listConfigNames, loadBenchConfig, type BenchConfig } from '../config/bench-config.js'
import { worstVerdict } from '../config/verdict.js'
import { parseMetric } from '../metrics/evaluate.js'
import type { ConfigResult, SystemResult } from '../run/run-types.js'
import { categorySection } from './category-report.js'
import { banner, fmt4, fmtMs, headlineMetric, mdTable, ratio, systemLatency } from './format.js'
import { plotQualityVsLatency, type PlotPoint } from './plot-svg.js'
import { extractionReport } from '../extraction/extraction-report.js'

export const REPORT_COMMAND = 'npm run bench -- --report'

export function resultDataPath(resultsDir: string, config: string): string {
  return join(resultsDir, 'data', `${config}.json`)
}

export function saveResult(resultsDir: string, result: ConfigResult): void {
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  writeFileSync(resultDataPath(resultsDir, result.config), `${JSON.stringify(result, null, 2)}\n`)
}

function loadResult(resultsDir: string, config: string): ConfigResult | undefined {
  const file = resultDataPath(resultsDir, config)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConfigResult) : undefined
}

interface Entry {
  readonly config: BenchConfig
  readonly result: ConfigResult | undefined
  readonly engram: SystemResult | undefined
}

/**
 * Regenerates results/README.md, results/<dataset>.md and the plot from every config and its last saved
 * result. A config that never ran, or whose Engram side is pending, is listed as pending with the missing
 * capability; nothing is filled in that was not measured.
 */
export function writeReport(configsDir: string, resultsDir: string): string[] {
  const entries: Entry[] = listConfigNames(configsDir).map((name) => {
    const config = loadBenchConfig(configsDir, name)
    const result = loadResult(resultsDir, name)
    return { config, result, engram: result?.systems.find((s) => s.role === 'engram') }
  })
  const written: string[] = []
  const datasets = [...new Set(entries.map((e) => e.config.dataset))].sort()
  for (const dataset of datasets) {
    const file = join(resultsDir, `${dataset}.md`)
    const of = entries.filter((e) => e.config.dataset === dataset)
    // An extraction config has its own page (its measures are not ranking metrics).
    const extraction = of.filter((e) => e.config.kind === 'extraction')
    writeFileSync(
      file,
      extraction.length > 0
        ? extractionReport(REPORT_COMMAND, extraction)
        : datasetReport(dataset, of),
    )
    written.push(file)
  }
  const points: PlotPoint[] = []
  for (const e of entries) {
    for (const s of e.result?.systems ?? []) {
      const metric = headlineMetric(e.config.metrics)
      const q = s.metrics?.[metric]
      if (q === undefined || !s.latency) continue
      const system = s.role === 'engram' ? `engram ${e.config.condition}` : s.name
      points.push({
        dataset: e.config.dataset,
        system,
        metric,
        quality: q,
        latencyMs: s.latency.p50,
        role: s.role,
      })
    }
  }
  const pending = entries.filter((e) => !e.engram || e.engram.status === 'pending').length
  const svg = join(resultsDir, 'quality-vs-latency.svg')
  writeFileSync(
    svg,
    plotQualityVsLatency(
      points,
      `Not plotted: ${pending} pending Engram conditions (see README.md). Filled circle = Engram, square = peer.`,
    ),
  )
  written.push(svg)
  const readme = join(resultsDir, 'README.md')
  writeFileSync(readme, overview(entries, datasets, resultsDir))
  written.push(readme)
  return written
}

function status(e: Entry): string {
  if (!e.result) return e.config.pending ? `pending: ${e.config.pending}` : 'not run yet'
  if (!e.engram || e.engram.status === 'pending')
    return `pending: ${e.engram?.missing ?? e.config.pending}`
  return 'measured'
}

/** Results written by their own commands (not config runs), linked from README.md once they exist. */
const EXTRA_RESULTS: readonly [string, string][] = [
  ['ingest.md', 'ingestion throughput (`--ingest`)'],
  ['movielens.md', 'MovieLens recommendation (`--recsys`)'],
  [
    'movielens-validation.md',
    "MovieLens validation of recommend's settings (`--recsys-validation`)",
  ],
  [
    'scale-out.md',
    'scale-out on PostgreSQL: ingestion with 1 and 2 workers, search vs SQLite (`--scale-out`)',
  ],
  [
    'time.md',
    'time: invalidation cost at ingestion, `as_of` search latency, LoCoMo per category (`--time`)',
  ],
  [
    'startup.md',
    'start-up of the built server: `/health`, memory, first search, `--help` (`--startup`)',
  ],
  [
    'startup-postgres.md',
    'start-up of a 100,000-passage PostgreSQL brain with INDEX_SNAPSHOT_DIR (`--startup-postgres`)',
  ],
  [
    'graph-snapshot.md',
    'graph index snapshot: MovieLens-small built vs loaded (`--graph-snapshot`)',
  ],
]

function overview(
  entries: readonly Entry[],
  datasets: readonly string[],
  resultsDir: string,
): string {
  const rows = entries.map((e) => {
    const metrics = e.config.metrics
      .map((m) => `${m} ${e.engram?.metrics ? fmt4(e.engram.metrics[m]) : '-'}`)
      .join(', ')
    return [
      e.config.name,
      status(e),
      metrics,
      e.engram?.verdicts ? (e.result?.verdict ?? '-') : 'PENDING',
    ]
  })
  return [
    banner(REPORT_COMMAND, true),
    '',
    '# Benchmark results',
    '',
    'Every quality condition of issue 6, Engram side. Peers, latency and environment are in the per-dataset files.',
    '',
    mdTable(['config', 'status', 'Engram metrics', 'verdict'], rows),
    '',
    ...datasets.map((d) => `- [${d}](${d}.md)`),
    '- [scale curve](scale-curve.md) · [start-up of a 100,000-passage brain](startup-large.md) · [HNSW construction on real vectors](hnsw-construction.md) · [use-lite int8 against float](use-lite-precision.md) · [latency suites and HTTP](latency.md) · [plot](quality-vs-latency.svg)',
    ...EXTRA_RESULTS.filter(([file]) => existsSync(join(resultsDir, file))).map(
      ([file, title]) => `- [${title}](${file})`,
    ),
    '',
  ].join('\n')
}

/**
 * Every metric any condition of a dataset reports (a condition may add one, e.g. R@all): kinds in order of
 * first appearance, each kind by k (`R@5, R@8, R@10, R@25, R@all`).
 */
export function datasetMetrics(lists: readonly (readonly string[])[]): string[] {
  const all = [...new Set(lists.flat())]
  const kinds = [...new Set(all.map((m) => parseMetric(m).kind))]
  const rank = (m: string) => kinds.indexOf(parseMetric(m).kind)
  return all.sort((a, b) => rank(a) - rank(b) || parseMetric(a).k - parseMetric(b).k)
}

function datasetReport(dataset: string, entries: readonly Entry[]): string {
  const lines = [banner(REPORT_COMMAND, true), '', `# ${dataset}`, '']
  const measured = entries.find((e) => e.result)?.result
  if (measured) {
    const env = measured.environment
    lines.push(
      `Environment of the last run: ${env.cpu}, ${env.cores} cores, ${env.memoryGb} GB, Node ${env.node}, ${env.os}; ` +
        (env.load1 === undefined ? '' : `1-min load average ${env.load1.toFixed(2)} at start; `) +
        `${measured.corpus.documents} documents, ${measured.corpus.queries} queries in ${measured.corpus.groups} group(s); ${env.date}.`,
      '',
      ...measured.notes.map((n) => `- loader: ${n}`),
      '',
    )
  }
  lines.push('## Engram conditions', '')
  const metrics = datasetMetrics(entries.map((e) => e.config.metrics))
  lines.push(
    mdTable(
      ['condition', 'status', ...metrics, 'p50 / p95 / p99 ms', 'verdict'],
      entries.map((e) => [
        e.config.condition,
        status(e),
        ...metrics.map((m) => fmt4(e.engram?.metrics?.[m])),
        e.engram ? systemLatency(e.engram) : '-',
        e.engram?.verdicts ? (e.result?.verdict ?? '-') : 'PENDING',
      ]),
    ),
    '',
  )
  lines.push(...vectorsSection(entries))
  for (const e of entries.filter((x) => x.result?.systems.some((s) => s.role === 'peer'))) {
    const head = headlineMetric(e.config.metrics)
    const ours = e.engram
    lines.push(`## Peers measured in the run of \`${e.config.name}\``, '')
    lines.push(
      `Same corpus, queries and retrieval depth (${e.config.depth}) in the same process. Ratios are Engram ${e.config.condition} / peer ` +
        `(quality: higher is better for us; latency: lower is better for us).` +
        (ours?.status === 'measured'
          ? ''
          : ` Engram ${e.config.condition} is pending, so ratios are '-'.`),
      '',
    )
    const rows = e.result!.systems.map((s) => [
      s.role === 'engram' ? `**engram ${e.config.condition}**` : s.name,
      s.status === 'pending' ? `pending: ${s.missing}` : s.label,
      ...e.config.metrics.map((m) => fmt4(s.metrics?.[m])),
      systemLatency(s),
      fmtMs(s.indexMs),
      s.role === 'peer' ? ratio(ours?.metrics?.[head], s.metrics?.[head]) : '-',
      s.role === 'peer' ? ratio(ours?.latency?.p50, s.latency?.p50) : '-',
      s.verdicts ? worstVerdict([s.statsVerdict ?? 'OK', ...Object.values(s.verdicts)]) : '-',
    ])
    lines.push(
      mdTable(
        [
          'system',
          'what',
          ...e.config.metrics,
          'query p50 / p95 / p99 ms',
          'index ms',
          `${head} ratio`,
          'p50 ratio',
          'verdict',
        ],
        rows,
      ),
      '',
    )
    if (e.result!.systems.some((s) => s.scored === false)) {
      lines.push(
        'FlexSearch returns ids without scores: its numbers are those of its ranking; its run file scores are 1/rank.',
        '',
      )
    }
  }
  for (const e of entries) if (e.result) lines.push(...categorySection(e.result))
  return lines.join('\n')
}

/** Where the vectors of the dense conditions and vector peers came from, per config run. */
function vectorsSection(entries: readonly Entry[]): string[] {
  const runs = entries.filter((e) => e.result?.embedding)
  if (runs.length === 0) return []
  return [
    '## Vectors',
    '',
    'Dense conditions and vector peers of a run share one set of vectors: every document and query is embedded by the ' +
      'real model before any system runs (or read from `benchmarks/.cache/vectors`, keyed by embedder name and the ' +
      'SHA-256 of the text, filled by an earlier run). Index and query timings of those systems therefore exclude the model: ' +
      'query latencies are retrieval only (the use-lite query embedding itself is measured in [latency.md](latency.md)).',
    '',
    mdTable(
      ['config', 'embedder', 'texts', 'from cache', 'embedded', 'embedding s'],
      runs.map((e) => {
        const v = e.result!.embedding!
        return [
          e.config.name,
          `${v.embedder} (${v.dimension}-d)`,
          String(v.texts),
          String(v.cached),
          String(v.embedded),
          (v.ms / 1000).toFixed(1),
        ]
      }),
    ),
    '',
  ]
}
