import { loadConfig } from '@engram/server'
import { banner, fmtMs, mdTable } from '../report/format.js'
import { environmentLine, type Environment } from '../run/environment.js'
import { HTTP_CONNECTIONS, HTTP_SECONDS } from '../latency/run-http-scenarios.js'
import { setupLabel, type IngestMeasurement } from './measure-ingest.js'
import { COLD_RESTARTS, HTTP_ROUNDS, LATENCY_ROUNDS, type SearchSide } from './measure-search.js'

/** The server's defaults, which the runs' processes use where the setup names no value. */
const DEFAULTS = loadConfig({})

export const SCALE_OUT_COMMAND = 'npm run bench -- --scale-out'

export interface ScaleOutResult {
  readonly environment: Environment
  /** `SHOW server_version`. */
  readonly postgres: string
  readonly queries: number
  readonly ingest: readonly IngestMeasurement[]
  readonly search: readonly SearchSide[]
  readonly totalMinutes: number
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const s1 = (ms: number) => (ms / 1000).toFixed(1)
const cpu = (s: number | null) => (s === null ? '-' : s.toFixed(1))
const list = (xs: readonly number[]) => xs.map((x) => fmtMs(x)).join(', ')
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1)

/** CPU seconds of every measured process per wall second: 2.0 is both cores busy all the time. */
export function coresBusy(m: IngestMeasurement): number | null {
  const parts = [m.cpuSeconds.http, m.cpuSeconds.workers, m.cpuSeconds.postgres].filter(
    (x): x is number => x !== null,
  )
  if (m.cpuSeconds.http === null || m.wallMs <= 0) return null
  return parts.reduce((a, b) => a + b, 0) / (m.wallMs / 1000)
}

/** results/scale-out.md. */
export function scaleOutReport(r: ScaleOutResult): string {
  const sqlite = r.search.find((s) => s.storage === 'sqlite')
  const postgres = r.search.find((s) => s.storage === 'postgres')
  const pgCpu = (s: SearchSide) => mean(s.http.map((h) => h.postgresCpuMsPerRequest ?? 0))
  const rps = (s: SearchSide | undefined) => mean(s?.http.map((h) => h.result.requestsPerSec) ?? [])
  return [
    banner(SCALE_OUT_COMMAND),
    '',
    '# Scale-out on PostgreSQL (issue 13)',
    '',
    environmentLine(r.environment),
    '',
    `PostgreSQL ${r.postgres} on the same machine (loopback, trust authentication), a fresh database per server set, ` +
      `dropped afterwards. Every server is a real \`engram serve\` process (the built CLI, ` +
      `\`node packages/server/dist/src/cli.js serve\`, as \`npm start\` runs it), started with the environment named below and the server's defaults otherwise; the whole run took ` +
      `${r.totalMinutes.toFixed(1)} min. Reproduce with \`${SCALE_OUT_COMMAND} --data-dir ../shared/datasets\` (PostgreSQL at ` +
      '`DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/postgres`; the local cluster is started if nothing listens).',
    '',
    `**This machine has ${r.environment.cores} cores.** The HTTP process, every worker process (each with its own ` +
      '`EXTRACTOR_WORKERS=2` extraction threads), PostgreSQL and the load generator all share them, and the machine is shared ' +
      'with other work (see the load averages). A second worker process can only use CPU that one worker process leaves idle; ' +
      'it adds no cores. These figures show what splitting the server costs and gives on one small box, not how it scales ' +
      'across machines.',
    '',
    '## Ingestion throughput',
    '',
    'The first SciFact documents (title, blank line, abstract; `docs` of them), one `POST /ingest/` each into the brain ' +
      '`default`, sent to the HTTP process (`ROLE=api`, or the one `ROLE=all` process) with 8 requests in flight and a ' +
      '`Task-Identifier` each; then `GET /tasks/` polled until every task is terminal. Wall time runs from the first POST to ' +
      "the last task's `updated_at`. Before the timed run, the next few documents (`warm-up`) went through the same " +
      'processes into a brain `warmup`, untimed (extraction workers started, models loaded, code JIT-compiled). The headline ' +
      'runs have no embedder (`EMBEDDER=none`: extraction, entity resolution, storage and the task queue): with use-lite, ' +
      'whose embedding of the ~40 entities of each abstract dominates, one worker process ingests 1 to 2 documents/s here, ' +
      'so that the headline setups at this size would take about half an hour. The default embedder (use-lite) gets a ' +
      'smaller run of its own. The one-brain pair of the headline runs twice, alternating (1, 2, 1, 2 worker processes), ' +
      "since the machine's other load moves the figures from run to run. " +
      'With `brains` 4 the same documents are dealt out over 4 brains (document i into brain ' +
      'i mod 4), which lifts the one-brain limit of one resolution and write at a time. ' +
      `Other settings are the defaults: per process \`WORKERS=${DEFAULTS.workers}\`, \`WORKERS_PER_BRAIN=${DEFAULTS.workersPerBrain}\`, ` +
      `\`EXTRACTOR_WORKERS=${DEFAULTS.extractorWorkers}\`, with use-lite \`EMBEDDER_WORKERS=2\`; \`TASK_LEASE_SECONDS=${DEFAULTS.taskLeaseSeconds}\`. \`vs 1 worker\` compares with ` +
      'the mean of the 1-worker runs of the same work (embedder, documents, brains). `CPU s` is CPU time over the timed window from /proc: the HTTP process, the ' +
      'worker processes together, and every `postgres` process on the machine (other users of the cluster included; ' +
      'backends that exit take their time with them); `cores busy` is their sum per wall second.',
    '',
    mdTable(
      [
        'setup',
        'embedder',
        'brains',
        'docs',
        'warm-up',
        'completed',
        'failed',
        'passages',
        'entities',
        'wall s',
        'docs/s',
        'passages/s',
        'vs 1 worker',
        'CPU s: HTTP / workers / postgres',
        'cores busy',
        'submit s',
        'load',
      ],
      r.ingest.map((m) => [
        setupLabel(m.setup),
        m.setup.embedder,
        String(m.setup.brains),
        int(m.docs),
        int(m.setup.warmUpDocs),
        int(m.completed),
        int(m.failed),
        int(m.passages),
        int(m.entities),
        s1(m.wallMs),
        m.docsPerSec.toFixed(1),
        m.passagesPerSec.toFixed(1),
        vsOneWorker(m, r.ingest),
        `${cpu(m.cpuSeconds.http)} / ${cpu(m.cpuSeconds.workers)} / ${cpu(m.cpuSeconds.postgres)}`,
        coresBusy(m)?.toFixed(2) ?? '-',
        s1(m.submitMs),
        m.load1.toFixed(1),
      ]),
    ),
    '',
    ...ingestNotes(r.ingest),
    '',
    '## Search: PostgreSQL and SQLite side by side',
    '',
    `One SQLite and one PostgreSQL server (\`ROLE=all\`, \`EMBEDDER=none\` so search is BM25 only as in [latency.md](latency.md), ` +
      `\`WARM_INDEXES=false\`) get the SciFact corpus (${int(r.search[0]?.seed.docs ?? 0)} documents) through \`POST /ingest/\` ` +
      'with `skip_enrichment` (chunked, stored and indexed, no extraction). Both run during the whole section; every ' +
      'measurement alternates between them (SQLite, PostgreSQL, SQLite, ...) so a change in the machine falls on both. ' +
      `Queries: the ${r.queries} SciFact test queries, \`GET /retrieve/search?query=<query>&k=10\` on the brain \`default\`.`,
    '',
    mdTable(
      ['storage', 'passages', 'seeding wall s', 'documents/s', 'failed'],
      r.search.map((s) => [
        s.storage,
        int(s.seed.passages),
        s1(s.seed.wallMs),
        s.seed.docsPerSec.toFixed(1),
        int(s.seed.failed),
      ]),
    ),
    '',
    '### First search after a restart',
    '',
    `${COLD_RESTARTS} restarts per storage (graceful stop, new process): start until /health answers, then the first search, ` +
      'which opens the brain and builds its indexes from storage, and the same query again. Milliseconds, in run order.',
    '',
    mdTable(
      ['storage', 'start to /health ms', 'first search ms', 'second search ms'],
      r.search.map((s) => [
        s.storage,
        list(s.restartMs),
        list(s.firstSearchMs),
        list(s.secondSearchMs),
      ]),
    ),
    '',
    '### One client',
    '',
    `After one untimed pass over the queries per server, ${LATENCY_ROUNDS} passes each, one request at a time, timed in the ` +
      'client from sending the request until the whole body is read (keep-alive connection).',
    '',
    mdTable(
      [
        'storage',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'mean ms',
        'samples',
        'p50 per round',
        'load per round',
      ],
      r.search.map((s) => [
        s.storage,
        fmtMs(s.latency.p50),
        fmtMs(s.latency.p95),
        fmtMs(s.latency.p99),
        fmtMs(s.latency.mean),
        int(s.latency.count),
        s.rounds.map((x) => fmtMs(x.latency.p50)).join(', '),
        s.rounds.map((x) => x.load1.toFixed(1)).join(', '),
      ]),
    ),
    '',
    '### Concurrent clients (req/s)',
    '',
    `The latency suite's autocannon scenario (\`search (BM25 only)\`, rotating over the queries): ${HTTP_CONNECTIONS} connections, ` +
      `${HTTP_SECONDS} s per run after an untimed 2 s run per server, ${HTTP_ROUNDS} runs per storage. The load generator ` +
      'shares the cores with the server (and with PostgreSQL). `server CPU ms/req`: CPU of the server process per response; ' +
      '`postgres CPU ms/req`: CPU of every `postgres` process per response.',
    '',
    mdTable(
      [
        'storage',
        'req/s',
        'requests',
        'p50 ms',
        'p99 ms',
        'responses by status',
        'conn. errors',
        'server CPU ms/req',
        'postgres CPU ms/req',
        'load',
      ],
      r.search.flatMap((s) =>
        s.http.map(({ result: h, postgresCpuMsPerRequest: pg }) => [
          s.storage,
          int(h.requestsPerSec),
          int(h.requests),
          String(h.p50),
          String(h.p99),
          Object.entries(h.statuses)
            .map(([code, n]) => `${code}: ${int(n)}`)
            .join(', '),
          String(h.errors),
          h.serverCpuMsPerRequest === null ? '-' : h.serverCpuMsPerRequest.toFixed(3),
          pg === null ? '-' : pg.toFixed(3),
          h.load1.toFixed(1),
        ]),
      ),
    ),
    '',
    ...(sqlite && postgres
      ? [
          `PostgreSQL against SQLite: one-client p50 ${fmtMs(postgres.latency.p50)} against ${fmtMs(sqlite.latency.p50)} ms ` +
            `(${(postgres.latency.p50 / sqlite.latency.p50).toFixed(2)}x), p99 ${fmtMs(postgres.latency.p99)} against ` +
            `${fmtMs(sqlite.latency.p99)} ms; ${int(rps(postgres))} against ${int(rps(sqlite))} req/s on average ` +
            `(${(rps(postgres) / rps(sqlite)).toFixed(2)}x); first search after a restart ${list(postgres.firstSearchMs)} ` +
            `against ${list(sqlite.firstSearchMs)} ms.` +
            (pgCpu(postgres) > 0
              ? ` PostgreSQL's processes used ${pgCpu(postgres).toFixed(3)} ms of CPU per search response on average ` +
                '(the server process itself ' +
                `${mean(postgres.http.map((h) => h.result.serverCpuMsPerRequest ?? 0)).toFixed(3)} against ` +
                `${mean(sqlite.http.map((h) => h.result.serverCpuMsPerRequest ?? 0)).toFixed(3)} ms): each search makes ` +
                'database round trips that SQLite answers inside the server process.'
              : ''),
          '',
        ]
      : []),
  ].join('\n')
}

/** Runs of the same work (embedder, documents, brains) on PostgreSQL with `workerProcesses` workers. */
function splitRuns(
  m: IngestMeasurement,
  ingest: readonly IngestMeasurement[],
  workerProcesses: number,
): IngestMeasurement[] {
  return ingest.filter(
    (x) =>
      x.setup.storage === 'postgres' &&
      x.setup.workerProcesses === workerProcesses &&
      x.setup.embedder === m.setup.embedder &&
      x.setup.docs === m.setup.docs &&
      x.setup.brains === m.setup.brains,
  )
}

/** Documents/s against the mean of the 1-worker runs of the same work. */
function vsOneWorker(m: IngestMeasurement, ingest: readonly IngestMeasurement[]): string {
  const ones = splitRuns(m, ingest, 1)
  return ones.length > 0
    ? `${(m.docsPerSec / mean(ones.map((x) => x.docsPerSec))).toFixed(2)}x`
    : '-'
}

/**
 * 2 worker processes against 1, in words: with two runs or more of each, whether every run of one beat
 * every run of the other (else the difference is within the run-to-run spread); with one run each, a 10% band.
 */
export function scalingVerdict(ones: readonly number[], twos: readonly number[]): string {
  if (ones.length > 1 && twos.length > 1) {
    if (Math.min(...twos) > Math.max(...ones)) return 'Faster in every run.'
    if (Math.max(...twos) < Math.min(...ones))
      return 'Slower in every run: on this machine the extra process costs more than it adds.'
    return 'The runs overlap: no difference beyond the run-to-run spread.'
  }
  const ratio = mean(twos) / mean(ones)
  return (
    'One run each: ' +
    (ratio >= 1.1
      ? 'faster by more than 10%.'
      : ratio > 0.9
        ? 'within 10%, no clear difference.'
        : 'slower by more than 10%.')
  )
}

/** What the ingestion table says, computed from it. */
function ingestNotes(ingest: readonly IngestMeasurement[]): string[] {
  const notes: string[] = []
  const incomplete = ingest.filter((m) => m.failed > 0 || m.completed !== m.docs)
  notes.push(
    incomplete.length === 0
      ? '- Every task of every setup completed (none failed or partly failed).'
      : `- Tasks that did not complete: ${incomplete
          .map((m) => `${setupLabel(m.setup)}: ${m.failed} (first error: ${m.firstError})`)
          .join('; ')}.`,
  )
  const firstOfEach = ingest.filter(
    (m, i) =>
      m.setup.storage === 'postgres' &&
      m.setup.workerProcesses === 2 &&
      splitRuns(m, ingest, 2)[0] === ingest[i],
  )
  for (const first of firstOfEach) {
    const ones = splitRuns(first, ingest, 1)
    const twos = splitRuns(first, ingest, 2)
    if (ones.length === 0) continue
    const rate = (runs: readonly IngestMeasurement[]) =>
      runs.map((x) => x.docsPerSec.toFixed(1)).join(', ')
    const busy = (runs: readonly IngestMeasurement[]) =>
      runs.map((x) => coresBusy(x)?.toFixed(2) ?? '-').join(', ')
    const ratio = mean(twos.map((x) => x.docsPerSec)) / mean(ones.map((x) => x.docsPerSec))
    notes.push(
      `- EMBEDDER=${first.setup.embedder}, ${first.setup.brains === 1 ? 'one brain' : `${first.setup.brains} brains`}, ` +
        `2 worker processes against 1: ${rate(twos)} against ${rate(ones)} documents/s ` +
        `(means: ${ratio.toFixed(2)}x), ${busy(twos)} against ${busy(ones)} cores busy. ` +
        scalingVerdict(
          ones.map((x) => x.docsPerSec),
          twos.map((x) => x.docsPerSec),
        ),
    )
  }
  for (const m of ingest.filter((x) => x.setup.workerProcesses === 0))
    notes.push(
      `- Reference, ${setupLabel(m.setup)}, EMBEDDER=${m.setup.embedder}: ${m.docsPerSec.toFixed(1)} documents/s, ` +
        `${m.passagesPerSec.toFixed(1)} passages/s.`,
    )
  const sameWork = (a: IngestMeasurement, b: IngestMeasurement) =>
    a.setup.embedder === b.setup.embedder &&
    a.setup.brains === b.setup.brains &&
    a.setup.docs === b.setup.docs
  notes.push(
    "- Tasks of one brain resolve and write one at a time (the brain's write lock, across processes with PostgreSQL), " +
      'so extraction and embedding are the parts more worker processes can run in parallel.' +
      (ingest.some((a) => ingest.some((b) => sameWork(a, b) && a.entities !== b.entities))
        ? ' Entity counts differ a little between setups of the same work: tasks finish in a different order, so ' +
          'entity resolution sees a different graph.'
        : ''),
  )
  return notes
}
