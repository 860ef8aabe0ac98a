import { banner, fmtMs, mdTable } from '../report/format.js'
import { environmentLine, type Environment } from '../run/environment.js'
import { STARTUP_BRAIN, type StartupResult } from './measure-startup.js'
import type { ScalePoint } from './scale-point.js'
import { SCALE_QUERIES, SCALE_ROUNDS } from './scale-point.js'

export interface ScaleReportInput {
  readonly command: string
  readonly environment: Environment
  readonly points: readonly ScalePoint[]
  readonly skipped: readonly string[]
  readonly startup: StartupResult
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
  const { points, startup } = input
  const systems = [...new Set(points.map((p) => p.system))]
  const at100k = (system: string) => points.find((p) => p.system === system && p.size === 100_000)
  const verdict = (p: ScalePoint | undefined, max: number) =>
    p === undefined
      ? 'not measured at 100,000 in this run'
      : `p50 ${fmtMs(p.latency.p50)} ms: ${p.latency.p50 <= max ? 'met' : 'NOT met'}`
  const { seed, snapshot: snap, rebuild: full } = startup
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
    '## Start-up (issue 4, point 8)',
    '',
    `A brain of ${int(seed.passages)} synthetic passages, each with a SYNTHETIC random ${seed.dimension}-d unit vector ` +
      "(USE-lite's dimension; timing only), committed through `engram.commit` to the SQLite adapter in a temp dir " +
      `(${s(seed.commitMs)} s; ${(seed.sqliteBytes / 2 ** 20).toFixed(0)} MB of SQLite). In that first process every index ` +
      `was built from SQLite (${s(seed.indexMs)} s, nearly all of it HNSW inserts) and the vector snapshot saved ` +
      `(${(seed.snapshotBytes / 2 ** 20).toFixed(0)} MB of files in \`brains/${STARTUP_BRAIN}.indexes/\`), then the engine stopped. ` +
      'Then, each in a new process, a new engine on the same dir: `createEngine` + `start()`, ' +
      '`engram.indexes.get(brainId)`, and the first search (BM25 + dense over passages, rrf, k = 10; the ' +
      'query embedder is SYNTHETIC and instant). With the snapshot, the HNSW index is read from its files; without it ' +
      '(`snapshots: false`, as every start was before snapshots), every vector is re-inserted. BM25 is rebuilt from ' +
      'SQLite in both.',
    '',
    `The snapshot column is the median of ${startup.snapshotRuns.length} starts (engine start -> searchable: ` +
      `${startup.snapshotRuns.map((r) => `${s(r.searchableMs)} s at load ${r.load1.toFixed(1)}`).join(', ')}); ` +
      'the start without snapshot takes minutes and ran once. The BM25 rebuild is the same work in both columns: ' +
      'its spread is CPU contention from other processes on the 2 shared cores (see the load row).',
    '',
    mdTable(
      ['step', 'with snapshot, s', 'without (rebuild), s'],
      [
        [
          'engine start (open SQLite, ensure brain, resume tasks)',
          s(snap.engineStartMs),
          s(full.engineStartMs),
        ],
        [
          `search.indexes(brainId) (${int(snap.passages)} passages, ${int(snap.vectors)} vectors)`,
          s(snap.indexesMs),
          s(full.indexesMs),
        ],
        ['- of which: vector snapshot read', s(snap.snapshotLoadMs), s(full.snapshotLoadMs)],
        ['- of which: BM25 and entity indexes rebuilt', s(snap.lexicalMs), s(full.lexicalMs)],
        [
          '- of which: vectors re-inserted into HNSW',
          s(snap.vectorRebuildMs),
          s(full.vectorRebuildMs),
        ],
        [
          'longest event-loop stall while the indexes were built (builds yield every ~20 ms)',
          `${snap.indexesMaxStallMs.toFixed(0)} ms`,
          `${full.indexesMaxStallMs.toFixed(0)} ms`,
        ],
        [
          `first search (${snap.firstSearchHits} / ${full.firstSearchHits} hits)`,
          s(snap.firstSearchMs),
          s(full.firstSearchMs),
        ],
        [
          '**engine start -> searchable**',
          `**${s(snap.searchableMs)}**`,
          `**${s(full.searchableMs)}**`,
        ],
        [
          'process start -> searchable (Node, tsx from TypeScript sources, module loading included)',
          s(snap.sinceProcessStartMs),
          s(full.sinceProcessStartMs),
        ],
        ['resident memory once searchable, MB', snap.rssMb.toFixed(0), full.rssMb.toFixed(0)],
        [
          '1-minute load average when the process began',
          snap.load1.toFixed(1),
          full.load1.toFixed(1),
        ],
      ],
    ),
    '',
    `Saving the snapshot (\`search.saveSnapshots\`, as a background save after the brain goes idle, or \`engram.stop()\`, ` +
      `do): ${s(seed.save.ms)} s in all; ${s(seed.save.writeMs)} s writing the files (hnswlib \`writeIndex\` on a libuv ` +
      `thread, the flat vectors, the ids: writes to the brain wait this long, searches do not) and ${s(seed.save.syncMs)} s ` +
      `of fsync. Longest event-loop stall during the save: ${seed.save.maxStallMs.toFixed(0)} ms. Load average when ` +
      `the seeding process began: ${seed.load1.toFixed(1)}.`,
    '',
    '## Against issue 4 (in process, 100,000 passages, 2 cores)',
    '',
    `- BM25 top-10 p50 <= ${BM25_P50_MS} ms: engine search ${verdict(at100k('engram-search'), BM25_P50_MS)}; \`Bm25Index\` alone ${verdict(at100k('engram-bm25-index'), BM25_P50_MS)}.`,
    `- Hybrid passages search p50 <= ${HYBRID_P50_MS} ms excluding the query embedding: ${verdict(at100k('engram-hybrid'), HYBRID_P50_MS)} (synthetic vectors).`,
    '',
  ].join('\n')
}
