import { banner, fmtMs, mdTable } from '../report/format.js'
import { environmentLine, type Environment } from '../run/environment.js'
import type { ScalePoint } from './scale-point.js'
import { SCALE_QUERIES, SCALE_ROUNDS } from './scale-point.js'

export interface ScaleReportInput {
  readonly command: string
  readonly environment: Environment
  readonly points: readonly ScalePoint[]
  readonly skipped: readonly string[]
}

const s = (ms: number) => (ms / 1000).toFixed(2)
/** Megabytes without a `-0` for a growth that rounds to nothing. */
const mb = (x: number) => (Math.abs(x) < 0.5 ? '0' : x.toFixed(0))
const int = (n: number) => n.toLocaleString('en-US')

/** Issue 4's in-process targets at 100,000 passages (2 cores). */
const BM25_P50_MS = 2
const HYBRID_P50_MS = 10

/** results/scale-curve.md. */
export function scaleReport(input: ScaleReportInput): string {
  const { points } = input
  const systems = [...new Set(points.map((p) => p.system))]
  const at100k = (system: string) => points.find((p) => p.system === system && p.size === 100_000)
  const verdict = (p: ScalePoint | undefined, max: number) =>
    p === undefined
      ? 'not measured at 100,000 in this run'
      : `p50 ${fmtMs(p.latency.p50)} ms: ${p.latency.p50 <= max ? 'met' : 'NOT met'}`
  return [
    banner(input.command),
    '',
    '# Scale curve (SYNTHETIC passages)',
    '',
    `Text is synthetic (Zipf-distributed made-up words, 40-120 per passage, seed 42; ${SCALE_QUERIES} synthetic queries of 2-6 words, ` +
      `k = 10, each timed ${SCALE_ROUNDS} times after 20 untimed ones); it measures build time, memory and latency only, ` +
      'never quality. Vectors of the hybrid ' +
      'system are SYNTHETIC random 512-d unit vectors (a hard case for HNSW) and its query embedder is instant, so its ' +
      'latency excludes the query embedding; `embed-query` in [latency.md](latency.md) times USE-lite on its own.',
    '',
    environmentLine(input.environment),
    '',
    'Each point runs in a fresh child process. Memory is the growth across the build after a full GC on both sides: RSS ' +
      'includes native memory (hnswlib, SQLite), heap is the JS heap only. The engine systems keep the passages themselves in ' +
      'the memory adapter, so their memory includes the text. `load` is the 1-minute load average when the point started: ' +
      'above 2 (the core count), other processes competed for the CPU, which mostly shows in build times and p95/p99 ' +
      '(GC pauses and preemption); p50 is the steadier figure.',
    '',
    'Systems:',
    '',
    ...systems.map((name) => `- \`${name}\`: ${points.find((p) => p.system === name)!.label}`),
    ...input.skipped.map((line) => `- ${line}`),
    '',
    mdTable(
      [
        'system',
        'passages',
        'build s',
        'RSS growth MB',
        'heap growth MB',
        'search p50 ms',
        'search p95 ms',
        'search p99 ms',
        'load',
      ],
      points.map((p) => [
        p.system,
        int(p.size),
        s(p.buildMs),
        mb(p.rssMb),
        mb(p.heapMb),
        fmtMs(p.latency.p50),
        fmtMs(p.latency.p95),
        fmtMs(p.latency.p99),
        p.load1.toFixed(1),
      ]),
    ),
    '',
    'The start-up of a 100,000-passage brain (time to searchable with and without snapshots) is in ' +
      '[startup-large.md](startup-large.md) (`npm run bench -- --startup-large`).',
    '',
    '## Against issue 4 (in process, 100,000 passages, 2 cores)',
    '',
    `- BM25 top-10 p50 <= ${BM25_P50_MS} ms: engine search ${verdict(at100k('engram-search'), BM25_P50_MS)}; \`Bm25Index\` alone ${verdict(at100k('engram-bm25-index'), BM25_P50_MS)}.`,
    `- Hybrid passages search p50 <= ${HYBRID_P50_MS} ms excluding the query embedding: ${verdict(at100k('engram-hybrid'), HYBRID_P50_MS)} (synthetic vectors).`,
    '',
  ].join('\n')
}
