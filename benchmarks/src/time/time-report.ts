import { round4 } from '../config/verdict.js'
import { categoryName, diff4 } from '../report/category-report.js'
import { banner, fmt4, fmtMs, mdTable } from '../report/format.js'
import { environmentLine } from '../run/environment.js'
import type { ConfigResult } from '../run/run-types.js'
import type { TimedIngestRun } from './timed-ingest.js'
import {
  TIME_CATEGORY_CONFIG,
  TIME_CATEGORY_PEER,
  LOCOMO_CORPUS,
  type TimeIngestCorpus,
  type TimeResult,
} from './time-result.js'

const perSecond = (r: TimedIngestRun) => (r.passages / r.wallMs) * 1000
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / (xs.length || 1)
const load = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' / ')

/** The category comparison: every category and metric where "with" is below "without". */
export function lowerCategories(run: ConfigResult): string[] {
  const engram = run.systems.find((s) => s.role === 'engram')?.byCategory
  const peer = run.systems.find((s) => s.name === TIME_CATEGORY_PEER)?.byCategory
  if (engram === undefined || peer === undefined) return []
  return Object.keys(engram).flatMap((c) =>
    run.metrics
      .filter((m) => round4(engram[c]!.metrics[m]!) < round4(peer[c]!.metrics[m]!))
      .map((m) => `${categoryName(run.dataset, c)} ${m}`),
  )
}

function categorySection(run: ConfigResult | undefined, result: TimeResult): string[] {
  const head = [
    `## LoCoMo dev per question category: with and without contradictions`,
    '',
    `From the last saved run of \`npm run bench -- --config ${TIME_CATEGORY_CONFIG}\` (results/data/${TIME_CATEGORY_CONFIG}.json; ` +
      `every system of that run is in [locomo-dev.md](locomo-dev.md)). **with** is the config's Engram system (the default ` +
      `search over a brain the ingestion pipeline built, contradicted single-valued facts ended); **without** is ` +
      `\`${TIME_CATEGORY_PEER}\`, the same search over a brain ingested with \`contradictions: false\` (windows ` +
      'recorded, nothing ended). LoCoMo questions carry no date, so both search as of now.' +
      endedNote(result),
    '',
  ]
  const engram = run?.systems.find((s) => s.role === 'engram')?.byCategory
  const peer = run?.systems.find((s) => s.name === TIME_CATEGORY_PEER)?.byCategory
  if (run === undefined || engram === undefined || peer === undefined)
    return [
      ...head,
      `Not measured yet: run \`npm run bench -- --config ${TIME_CATEGORY_CONFIG}\`.`,
      '',
    ]
  const metrics = run.metrics
  const rows = Object.keys(engram).map((c) => [
    categoryName(run.dataset, c),
    String(engram[c]!.queries),
    ...metrics.map((m) => fmt4(engram[c]!.metrics[m])),
    ...metrics.map((m) => fmt4(peer[c]?.metrics[m])),
    metrics.map((m) => diff4(engram[c]!.metrics[m]!, peer[c]?.metrics[m] ?? 0)).join(' / '),
  ])
  const all = run.systems.find((s) => s.role === 'engram')!.metrics!
  const allPeer = run.systems.find((s) => s.name === TIME_CATEGORY_PEER)!.metrics!
  rows.push([
    'all',
    String(run.corpus.queries),
    ...metrics.map((m) => fmt4(all[m])),
    ...metrics.map((m) => fmt4(allPeer[m])),
    metrics.map((m) => diff4(all[m]!, allPeer[m]!)).join(' / '),
  ])
  const lower = lowerCategories(run)
  return [
    ...head,
    `Run of ${run.environment.date} (1-min load average ${run.environment.load1?.toFixed(2) ?? '-'} at start).`,
    '',
    mdTable(
      [
        'category',
        'questions',
        ...metrics.map((m) => `with ${m}`),
        ...metrics.map((m) => `without ${m}`),
        `with - without (${metrics.join(' / ')})`,
      ],
      rows,
    ),
    '',
    lower.length === 0
      ? '**No category lower**: with contradictions, no category scores below without on any metric (to 4 decimals).'
      : `**Lower with contradictions** on: ${lower.join(', ')}.`,
    '',
  ]
}

/** How many LoCoMo facts the contradiction path ended in the ingestion runs (the only possible cause of a difference). */
function endedNote(result: TimeResult): string {
  const withRun = result.ingest
    .find((c) => c.name === LOCOMO_CORPUS)
    ?.runs.find((r) => r.contradictions === 'with')
  if (withRun === undefined) return ''
  return (
    ` The ingestion runs below (same turns, one task per turn) end ${withRun.invalidations} fact(s) ` +
    `(${withRun.ended} relationships) in ${withRun.passages.toLocaleString('en-US')} turns: only those can make the two brains differ.`
  )
}

function ingestSection(result: TimeResult): string[] {
  const runRows = result.ingest.flatMap((corpus) =>
    corpus.runs.map((r, i) => [
      corpus.name,
      String(i + 1),
      r.contradictions,
      r.passages.toLocaleString('en-US'),
      (r.wallMs / 1000).toFixed(2),
      perSecond(r).toFixed(1),
      (r.cpuMs / r.passages).toFixed(2),
      r.relationships.toLocaleString('en-US'),
      r.ended.toLocaleString('en-US'),
      r.invalidations.toLocaleString('en-US'),
      String(r.failed),
      r.load1.toFixed(2),
    ]),
  )
  const summary = (corpus: TimeIngestCorpus) => {
    const of = (c: 'with' | 'without') => corpus.runs.filter((r) => r.contradictions === c)
    const ps = (c: 'with' | 'without') => mean(of(c).map(perSecond))
    const cpu = (c: 'with' | 'without') => mean(of(c).map((r) => r.cpuMs / r.passages))
    return [
      corpus.name,
      ps('with').toFixed(1),
      ps('without').toFixed(1),
      `${((ps('with') / ps('without') - 1) * 100).toFixed(1)}%`,
      cpu('with').toFixed(2),
      cpu('without').toFixed(2),
      `${((cpu('with') / cpu('without') - 1) * 100).toFixed(1)}%`,
      mean(of('with').map((r) => r.ended)).toFixed(0),
    ]
  }
  const s = result.server
  return [
    '## Invalidation cost at ingestion',
    '',
    `The real pipeline in this process as the server runs it (\`createEngine\` on SQLite in a fresh temp dir, ` +
      `WORKERS=${s.workers}, WORKERS_PER_BRAIN=${s.workersPerBrain}, the local extractor on ${s.extractorWorkers} worker ` +
      'threads, no embedder), one `ingest_text` task per passage, timed from the first submit until the queue is idle. ' +
      '**with** is the engine default; **without** is `contradictions: false` (packages/core/src/engine/engine-types.ts). ' +
      `Each corpus runs ${result.rounds} times per condition, alternating (with, without, without, with, ...), after ` +
      'one unreported pass over the LoCoMo turns that JIT-compiles the pipeline. `ended` counts relationships whose ' +
      "window was closed (`invalid_at` set: a fact's predicate edge and its event's legs) and `invalidations` the " +
      "`relationship_invalidated` changelog entries (one each time a fact's end is set, or moved by an older fact " +
      'arriving late): zero without, by construction. CPU is every thread of the process per passage. Passages/s on this shared 2-core ' +
      'machine move with the load; CPU ms per passage is the steadier cost.',
    '',
    mdTable(
      [
        'corpus',
        'with passages/s',
        'without passages/s',
        'throughput change',
        'with CPU ms/passage',
        'without CPU ms/passage',
        'CPU change',
        'facts ended (with)',
      ],
      result.ingest.map(summary),
    ),
    '',
    ...result.ingest.map((c) => `- **${c.name}**: ${c.description}`),
    '',
    '### Every run',
    '',
    mdTable(
      [
        'corpus',
        'run',
        'contradictions',
        'passages',
        'wall s',
        'passages/s',
        'CPU ms/passage',
        'relationships',
        'ended',
        'invalidations',
        'failed tasks',
        'load',
      ],
      runRows,
    ),
    '',
  ]
}

function searchSection(result: TimeResult): string[] {
  const rows = result.search.flatMap((b) =>
    b.conditions.map((c) => [
      b.name,
      b.passages.toLocaleString('en-US'),
      String(b.queries),
      c.condition,
      `${fmtMs(c.latency.p50)} / ${fmtMs(c.latency.p95)} / ${fmtMs(c.latency.p99)}`,
      fmtMs(c.latency.mean),
      c.meanHits.toFixed(1),
      c.condition === 'now' ? '-' : `${(c.changed * 100).toFixed(1)}%`,
    ]),
  )
  return [
    '## `as_of` search latency',
    '',
    "What `POST /retrieve/search` runs (`engram.search.search`, the route's service) with only `query` (k 10), then " +
      'with `as_of` and with `known_at` at the times listed under the table, on brains the "with" ingestion above built (kept running, ' +
      'lexical and graph only: no embedder, so the figures are the search and the time slice, not the query embedding). ' +
      'The three conditions of each query run back to back in rotating order, each timed on its own, after 20 untimed ' +
      'queries. `changed` is the share of queries whose hits differ from the same query now: the slice at work.',
    '',
    mdTable(
      [
        'brain',
        'passages',
        'queries',
        'search',
        'p50 / p95 / p99 ms',
        'mean ms',
        'mean hits',
        'changed vs now',
      ],
      rows,
    ),
    '',
    ...result.search.map((b) => `- **${b.name}**: ${b.description}`),
    '',
  ]
}

/** results/time.md from `--time`'s saved result and the last per-category run of locomo-dev.default. */
export function timeReport(
  result: TimeResult,
  categoryRun: ConfigResult | undefined,
  command: string,
): string {
  return [
    banner(command),
    '',
    '# Time: invalidation cost, `as_of` latency, LoCoMo per category (issue 28)',
    '',
    environmentLine(result.environment),
    `Load average (1 / 5 / 15 min) before ${load(result.loadBefore)}, after ${load(result.loadAfter)}; ` +
      `the run took ${(result.wallMs / 1000).toFixed(0)} s.`,
    '',
    `Reproduce: \`${command}\` (ingestion and search latency) and ` +
      `\`npm run bench -- --config ${TIME_CATEGORY_CONFIG}\` (the per-category table).`,
    '',
    ...categorySection(categoryRun, result),
    ...ingestSection(result),
    ...searchSection(result),
  ].join('\n')
}
