import type { LatencySummary } from '../metrics/percentiles.js'
import { banner, fmtMs, mdTable } from '../report/format.js'
import { environmentLine, type Environment } from '../run/environment.js'
import type { HttpResult } from './http-scenarios.js'
import type { ServedEngineSearch } from './served-engine-search.js'
import { HTTP_CONNECTIONS, HTTP_SECONDS, type HttpRun } from './run-http-scenarios.js'

export const LATENCY_COMMAND = 'npm run bench -- --latency'

/** Time per tinybench task (ms); tinybench also warms each task up first. */
export const TASK_TIME_MS = 2000

/** One row of the in-process table: a tinybench task, a stage read from `stage_timings`, or a pending suite. */
export interface SuiteRow {
  readonly suite: string
  readonly task: string
  readonly status: string
  readonly latency?: Pick<LatencySummary, 'p50' | 'p99' | 'mean'> & { samples: number }
  /** 1-minute load average when the suite started. */
  readonly load1?: number
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')

/**
 * results/latency.md. `mixed` is the section `--latency mixed` wrote last (mixed-load-report.ts), kept at the
 * end so a full `--latency` run does not drop it.
 */
export function latencyReport(
  environment: Environment,
  rows: readonly SuiteRow[],
  notes: readonly string[],
  http: readonly HttpRun[],
  mixed: string | null = null,
): string {
  const child = http.find((h) => h.mode === 'child process')
  const search = child?.results.find((r) => r.name.startsWith('search'))
  const health = child?.results.find((r) => r.name === 'health')
  const ingest = child?.results.find((r) => r.name.startsWith('ingest'))
  const corpus = child?.corpus
  return [
    banner(LATENCY_COMMAND),
    '',
    '# Latency suites',
    '',
    environmentLine(environment),
    '',
    '## In process (tinybench), per stage',
    '',
    `Each task runs ${TASK_TIME_MS / 1000} s after tinybench's warm-up; figures are per call. Everything times the code exported by \`@engram/core\`. ` +
      '`load` is the 1-minute load average when the suite started: above 2 (the core count), other processes on this shared ' +
      'machine competed for the CPU, which shows mostly in p99.',
    '',
    mdTable(
      ['suite', 'task', 'status', 'p50 ms', 'p99 ms', 'mean ms', 'samples', 'load'],
      rows.map((r) => [
        r.suite,
        r.task,
        r.status,
        fmtMs(r.latency?.p50),
        fmtMs(r.latency?.p99),
        fmtMs(r.latency?.mean),
        r.latency ? String(r.latency.samples) : '-',
        r.load1 === undefined ? '-' : r.load1.toFixed(1),
      ]),
    ),
    '',
    'Corpus and setup per suite:',
    '',
    ...notes,
    '',
    'Search latency at 100,000 passages (issue 4: BM25 top-10 p50 <= 2 ms, hybrid p50 <= 10 ms excluding the query ' +
      'embedding) is measured by the scale curve: [scale-curve.md](scale-curve.md).',
    '',
    '## HTTP (autocannon)',
    '',
    `A real server (\`startServer(loadConfig(env))\`: STORAGE=sqlite in a temp dir, EMBEDDER=none, WORKERS=2, token in the ` +
      `\`ServicePAT\` header) on loopback, ${HTTP_CONNECTIONS} connections, ${HTTP_SECONDS} s per scenario after an untimed 2 s run. ` +
      (corpus
        ? `Corpus: brain \`${corpus.brain}\` with ${int(corpus.passages)} passages (the SciFact corpus committed as passages, plus ` +
          `one LoCoMo conversation ingested by session through the pipeline), ${int(corpus.entities)} entities, ` +
          `${int(corpus.relationships)} relationships; seeded in ${(corpus.seedMs / 1000).toFixed(1)} s. `
        : '') +
      `**The load generator shares the ${environment.cores} cores with the server** (and, here, with whatever else the machine ran: see the load average), ` +
      'so these are lower bounds of what the server does on its own cores. Requests rotate over the 300 SciFact test queries, entity pages ' +
      'and LoCoMo turns, so nothing is served from one cached input. `server CPU ms/req` is the CPU time (user + system, all threads) ' +
      'the server process used during the timed run divided by the responses it sent, read from /proc; it varies far less with ' +
      "the machine's other load than req/s does. For ingest accept it includes the task workers extracting in the same " +
      'process. The in-process row has none: the load generator runs in the same process.',
    '',
    mdTable(
      [
        'scenario',
        'request',
        'server',
        'req/s',
        'requests',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'responses by status',
        'conn. errors',
        'server CPU ms/req',
        'load',
      ],
      http.flatMap((h) =>
        h.results.map((r) => [
          r.name,
          r.shape,
          h.mode,
          int(r.requestsPerSec),
          int(r.requests),
          String(r.p50),
          String(r.p90),
          String(r.p99),
          Object.entries(r.statuses)
            .map(([code, n]) => `${code}: ${int(n)} (${int(n / r.seconds)}/s)`)
            .join(', '),
          String(r.errors),
          r.serverCpuMsPerRequest === null ? '-' : r.serverCpuMsPerRequest.toFixed(3),
          r.load1.toFixed(1),
        ]),
      ),
    ),
    '',
    ingest ? ingestNote(ingest) : '',
    search ? searchNote(search, rows) : '',
    search && health ? ratioNote(search, health, corpus?.engineSearch) : '',
    search
      ? `- Issue 4 asks BM25-only \`/retrieve/search\` to sustain >= 1,500 requests/s at 32 connections: measured ` +
        `${int(search.requestsPerSec)} requests/s with the server in its own process: ${search.requestsPerSec >= 1500 ? 'met' : 'NOT met'} on this machine.`
      : '',
    '',
    ...(mixed === null ? [] : [mixed, '']),
  ].join('\n')
}

/** What the ingest-accept figures mean, from the status counts actually seen. */
function ingestNote(r: HttpResult): string {
  const accepted = r.statuses['202'] ?? 0
  const saturated = r.statuses['503'] ?? 0
  const other = Object.entries(r.statuses).filter(([code]) => code !== '202' && code !== '503')
  return (
    `- Ingest accept: ${int(accepted)} tasks accepted (202: stored durably, then queued), ${int(accepted / r.seconds)}/s. ` +
    (saturated > 0
      ? `${int(saturated)} requests got 503 \`SERVICE_UNAVAILABLE\`, the designed backpressure once 1,000 tasks are pending in the process: ` +
        'expected, not failures. With the queue full (it fills during the untimed run), the 202 rate is the rate at which the ' +
        'task workers finish tasks. '
      : 'No 503 in this run: the queue never reached its 1,000 pending tasks. ') +
    (other.length > 0
      ? `Other statuses: ${other.map(([c, n]) => `${c}: ${int(n)}`).join(', ')}. `
      : '') +
    'The 2 task workers extract in the server process while requests arrive (with the default components, on its main ' +
    'thread), so accepting competes with extraction for the CPU.'
  )
}

/** The engine-search row that runs what `GET /retrieve/search` runs. */
function httpDefaultRow(rows: readonly SuiteRow[]): SuiteRow | undefined {
  return rows.find((x) => x.suite === 'engine-search' && x.task.includes('the HTTP default'))
}

/**
 * Issue 29's figure: search requests/s over health requests/s in the same run, and where the server's CPU
 * per search response goes: what any request costs (health), the engine's own CPU for the same requests
 * on the same brain in the same process (`engine`, timed before the load), and the rest.
 */
export function ratioNote(
  search: HttpResult,
  health: HttpResult,
  engine: ServedEngineSearch | undefined,
): string {
  const ratio = search.requestsPerSec / health.requestsPerSec
  const s = search.serverCpuMsPerRequest
  const h = health.serverCpuMsPerRequest
  const e = engine?.cpuMsPerSearch
  // One event loop: a ratio of 0.25 at this health rate leaves each search this much of one core.
  const budget = 1000 / (0.25 * health.requestsPerSec)
  const rest = s === null || h === null || e === undefined ? null : s - e - h
  const split =
    s === null || h === null
      ? ''
      : ` Server CPU per response: health ${h.toFixed(3)} ms, search ${s.toFixed(3)} ms.` +
        (e === undefined || rest === null
          ? ''
          : ` The engine alone, on the served brain in the serving process, for the same requests (` +
            `${int(engine!.searches)} calls of \`engram.search.search\` with what the route builds, one at a time before the load): ` +
            `${e.toFixed(3)} ms of process CPU per search (${engine!.meanMs.toFixed(3)} ms wall). So of the ${s.toFixed(3)} ms, ` +
            `${h.toFixed(3)} ms is what any request costs (health) and ${e.toFixed(3)} ms the engine; ` +
            (rest > 0.05 * s
              ? `${rest.toFixed(3)} ms is what only a search request adds over HTTP (authentication, brain selection, ` +
                'query validation, serialisation and writing of a 5 KB response).'
              : `what only a search request adds over HTTP (authentication, brain selection, query validation, ` +
                `serialisation) is within the noise of these two measurements (${rest.toFixed(3)} ms).`)) +
        ` For a ratio of 0.25 at ${int(health.requestsPerSec)} health checks/s, one core must serve ` +
        `${int(0.25 * health.requestsPerSec)} searches/s: at most ${budget.toFixed(3)} ms per search, HTTP included` +
        (e === undefined
          ? '.'
          : e > budget
            ? `, against ${e.toFixed(3)} ms for the engine alone: the target needs the engine's default search ` +
              `about ${(e / budget).toFixed(1)} times cheaper, whatever HTTP costs.`
            : `, against ${e.toFixed(3)} ms for the engine alone: HTTP handling decides.`)
  return (
    `- Search against health (issue 29, item 1): ${int(search.requestsPerSec)} searches/s and ${int(health.requestsPerSec)} ` +
    `health checks/s in the same run: ratio **${ratio.toFixed(3)}** (target >= 0.25: ${ratio >= 0.25 ? 'met' : 'NOT met'}).` +
    split
  )
}

/** Relates the HTTP search rate to the in-process cost of one search measured in the same run. */
function searchNote(r: HttpResult, rows: readonly SuiteRow[]): string {
  const engine = httpDefaultRow(rows)
  const cpu = r.serverCpuMsPerRequest
  const budget =
    cpu === null
      ? ''
      : ` The server process spent ${cpu.toFixed(3)} ms of CPU per search response, which bounds one core at about ` +
        `${int(1000 / cpu)} requests/s; 1,500 requests/s needs at most 0.667 ms.`
  if (!engine?.latency) return budget === '' ? '' : `- Search over HTTP:${budget}`
  const mean = engine.latency.mean
  return (
    `- Search over HTTP: the server runs requests on one event loop, so one core. \`SearchService.search\` alone (engine-search, ` +
    `the request the route builds: BM25 passages, default fusion, expand and rerank auto) takes a mean of ${fmtMs(mean)} ms in process in this run: at that cost one core serves about ` +
    `${int(1000 / mean)} searches/s before any HTTP parsing, authentication, validation or serialization. Measured over ` +
    `HTTP: ${int(r.requestsPerSec)} requests/s` +
    (r.requestsPerSec >= 500 / mean
      ? ", so the search pipeline, not HTTP, takes most of the server's time."
      : ", so HTTP handling takes more of the server's time than the search itself.") +
    budget
  )
}
