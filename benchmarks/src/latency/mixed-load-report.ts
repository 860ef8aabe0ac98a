import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mdTable } from '../report/format.js'
import { environmentLine } from '../run/environment.js'
import type { OpResult } from './mixed-load.js'
import {
  ALONE_SECONDS,
  MIXED_CONNECTIONS,
  MIXED_SECONDS,
  WARM_SECONDS,
  describeSettings,
  type MixedLoadResult,
  type MixedPhase,
} from './run-mixed-load.js'

export const MIXED_COMMAND = 'npm run bench -- --latency mixed'
/** Issue 29 item 4: search p99 while ingestion runs. */
export const MIXED_TARGET_P99_MS = 50

const BEGIN = '<!-- mixed-load: begin -->'
const END = '<!-- mixed-load: end -->'

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number) => n.toFixed(1)

function statuses(o: OpResult | undefined, seconds: number): string {
  if (!o) return '-'
  return Object.entries(o.statuses)
    .map(([code, n]) => `${code}: ${int(n)} (${(n / seconds).toFixed(1)}/s)`)
    .concat(o.errors > 0 ? [`errors: ${o.errors}`] : [])
    .join(', ')
}

function row(embedder: string, server: string, p: MixedPhase): string[] {
  const op = (name: string) => p.load.ops.find((o) => o.op === name)
  const s = op('search')!
  const total = p.load.ops.reduce((n, o) => n + o.requests, 0)
  return [
    embedder,
    server,
    p.name,
    (s.requests / p.load.seconds).toFixed(0),
    ms(s.latency.p50),
    ms(s.latency.p95),
    `**${ms(s.latency.p99)}**`,
    ms(s.latency.max),
    statuses(op('ingest'), p.load.seconds),
    op('ingest') ? ms(op('ingest')!.latency.p99) : '-',
    statuses(op('model'), p.load.seconds),
    op('model') ? ms(op('model')!.latency.p99) : '-',
    p.serverCpuMs === null ? '-' : (p.serverCpuMs / total).toFixed(2),
    `${ms(p.loopDelay.p99)} / ${ms(p.loopDelay.max)}`,
    p.load1.toFixed(1),
  ]
}

/** The mixed-load section of results/latency.md, from results/data/latency-mixed.json. */
export function mixedLoadSection(r: MixedLoadResult): string {
  const seeds = r.seeds
    .map((s) => `${int(s.passages)} passages with EMBEDDER=${s.embedder}`)
    .join(', ')
  const verdicts = r.runs.map((run) => {
    const mixed = run.phases.find((p) => p.name === 'mixed')!
    const alone = run.phases.find((p) => p.name === 'searches alone')!
    const p99 = mixed.load.ops.find((o) => o.op === 'search')!.latency.p99
    const a = alone.load.ops.find((o) => o.op === 'search')!
    const cpu =
      alone.serverCpuMs === null
        ? ''
        : `, ${(alone.serverCpuMs / a.requests).toFixed(2)} ms of server CPU per search alone`
    return (
      `- EMBEDDER=${run.embedder}, ${run.server}: search p99 ${ms(p99)} ms under the mixed load ` +
      `(target <= ${MIXED_TARGET_P99_MS} ms: ${p99 <= MIXED_TARGET_P99_MS ? 'met' : 'NOT met'}), ` +
      `${ms(a.latency.p99)} ms alone${cpu}.`
    )
  })
  const profiles = r.runs
    .filter((run) => run.topFrames)
    .map(
      (run) =>
        `- Top self-time frames of the server's main thread (whole life: start, warm-up, both phases), ` +
        `EMBEDDER=${run.embedder}, ${run.server}: ` +
        run
          .topFrames!.slice(0, 8)
          .map((f) => `\`${f.frame}\` ${(f.selfShare * 100).toFixed(1)}%`)
          .join(', ') +
        '.',
    )
  const first = r.runs[0]?.phases.find((p) => p.name === 'searches alone')
  const firstSearch = first?.load.ops.find((o) => o.op === 'search')
  const queueing =
    first && firstSearch
      ? [
          `- Why the searches alone are far above the engine's ~1.5 ms: the load is closed-loop, ${MIXED_CONNECTIONS} requests ` +
            "always in flight on one event loop, so a request waits for the ones ahead of it (Little's law: mean latency = " +
            `connections / throughput). First row: ${MIXED_CONNECTIONS} / ${(firstSearch.requests / first.load.seconds).toFixed(0)} per s = ` +
            `${((MIXED_CONNECTIONS / (firstSearch.requests / first.load.seconds)) * 1000).toFixed(1)} ms against a measured mean of ` +
            `${ms(firstSearch.latency.mean)} ms. A p99 of ${MIXED_TARGET_P99_MS} ms at ${MIXED_CONNECTIONS} connections therefore needs the ` +
            "server's main thread to spend well under 1.5 ms per request on average, searches, ingestions and model writes and " +
            'the task work behind the ingestions together, or fewer requests in flight.',
        ]
      : []
  const stalls = r.runs
    .filter((run) => run.transactions)
    .map((run) => {
      const t = run.transactions!
      return (
        `| ${run.embedder} | ${run.server} | ${int(t.count)} | ${(t.totalMs / 1000).toFixed(1)} | ${ms(t.p50)} | ` +
        `${ms(t.p99)} | ${ms(t.max)} | ${int(t.over20)} | ${(t.over20Ms / 1000).toFixed(1)} |`
      )
    })
  const stallTable =
    stalls.length === 0
      ? []
      : [
          '',
          "SQLite transactions on the server's main thread (from the same profiles, whole life): each is one synchronous " +
            "stretch in which the event loop serves no request. Lengths are wall-clock between V8's ~1 ms samples, so " +
            'they include time the thread was not scheduled on this shared machine.',
          '',
          '| embedder | server | transactions | total s | p50 ms | p99 ms | max ms | over 20 ms | their total s |',
          '|---|---|---|---|---|---|---|---|---|',
          ...stalls,
        ]
  return [
    BEGIN,
    '## Mixed load: search while ingestion runs (issue 29, item 4)',
    '',
    `Generated by \`${MIXED_COMMAND}\`. ${environmentLine(r.environment)}`,
    '',
    `The built server (\`node packages/server/dist/src/cli.js serve\`, SQLite, default settings, LOG_LEVEL=warn) on a ` +
      `brain seeded with the SciFact corpus committed as passages (${seeds}; use-lite's passage vectors from the ` +
      'benchmark vector cache, as ingestion would have stored them), once with EMBEDDER=none and once with use-lite, ' +
      `the default a user runs. After an untimed ${WARM_SECONDS} s of searches: **searches alone**, ${MIXED_CONNECTIONS} connections ` +
      `for ${ALONE_SECONDS} s; then **mixed**, ${MIXED_CONNECTIONS} connections for ${MIXED_SECONDS} s, each cycling through 7 searches ` +
      '(`GET /retrieve/search`, the 300 SciFact test queries in turn, k=10), 2 ingestions (`POST /ingest/`, one LoCoMo turn ' +
      'each, the full pipeline) and 1 model write (`POST /model/entity` of a new entity and `PUT /model/entity` of the one ' +
      'created before, alternately). The load is closed-loop (a connection sends its next request when the previous ' +
      'answer is in) from a node:http client in the benchmark process, which shares the 2 cores with the server; ' +
      'latencies are per request kind, request written to response read. Where a row shows 503s, the ingestions ' +
      'filled the task queue (1,000 pending tasks; then the designed 503) and a task was accepted (202) only when ' +
      'one ended, so the tasks finished in the phase are about its 202s less the 1,000 that filled the queue; ' +
      'without 503s it never filled. ' +
      "`CPU ms/req` is the server process's CPU time (all threads, /proc) over the phase divided by all its responses; " +
      "`loop delay` is the server's event-loop delay over the phase (perf_hooks.monitorEventLoopDelay at 5 ms, from a " +
      'bench-only `--import` preload: nothing in the server changes), p99 / max.' +
      (r.baselineCli
        ? ` \`baseline\` rows: the build at \`${r.baselineCli}\` (the previous commit, built apart), run on a copy of the ` +
          "same seeded directory in turn with this checkout's, in the order baseline, this checkout, this checkout, " +
          'baseline when there are two rounds; when profiled, every server ran with `--cpu-prof`.'
        : '') +
      (r.variant
        ? ` \`this checkout, ${describeSettings(r.variant)}\` rows: the same build with ${describeSettings(r.variant)} in ` +
          "the server's environment, run in turn with the default one on a copy of the same seed (reversed every other " +
          'round). `TASK_YIELD_MS` (docs/ARCHITECTURE.md, "Requests before ingestion"; default 0) makes the tasks\' ' +
          'main-thread steps yield to requests: while requests other than task submissions keep arriving, one task ' +
          'step per that many ms; the 202s show what ingestion gives up for it.'
        : ''),
    '',
    mdTable(
      [
        'embedder',
        'server',
        'phase',
        'searches/s',
        'search p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'ingest responses',
        'ingest p99 ms',
        'model responses',
        'model p99 ms',
        'CPU ms/req',
        'loop delay p99 / max ms',
        'load',
      ],
      r.runs.flatMap((run) => run.phases.map((p) => row(run.embedder, run.server, p))),
    ),
    '',
    ...verdicts,
    ...queueing,
    ...profiles,
    ...stallTable,
    END,
  ].join('\n')
}

/** The section from the saved result, or null when `--latency mixed` never ran. */
export function savedMixedLoadSection(resultsDir: string): string | null {
  const path = join(resultsDir, 'data', 'latency-mixed.json')
  if (!existsSync(path)) return null
  return mixedLoadSection(JSON.parse(readFileSync(path, 'utf8')) as MixedLoadResult)
}

/**
 * Puts the saved section into results/latency.md in place of the previous one (or at the end), leaving the
 * other sections as `--latency` generated them. Returns the path written, or null without a saved result.
 */
export function rewriteMixedLoadSection(resultsDir: string): string | null {
  const section = savedMixedLoadSection(resultsDir)
  if (section === null) return null
  const path = join(resultsDir, 'latency.md')
  const old = existsSync(path) ? readFileSync(path, 'utf8') : ''
  const begin = old.indexOf(BEGIN)
  const end = old.indexOf(END)
  const next =
    begin >= 0 && end > begin
      ? old.slice(0, begin) + section + old.slice(end + END.length)
      : `${old.trimEnd()}\n\n${section}\n`
  writeFileSync(path, next)
  return path
}
