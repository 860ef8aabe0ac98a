import { banner, fmtMs, mdTable } from '../report/format.js'
import { environmentLine, type Environment } from '../run/environment.js'
import type { CalibrationPoint, MemoryGrowth } from './calibrate-index-bytes.js'
import type { ManyBrainsShape } from './many-brains-corpus.js'
import type { ManyBrainsSeed } from './seed-many-brains.js'
import type { ManyBrainsServe } from './serve-many-brains.js'

export interface ManyBrainsReportInput {
  readonly command: string
  readonly environment: Environment
  readonly shape: ManyBrainsShape
  readonly embedder: { readonly name: string; readonly dimension: number }
  readonly seed: ManyBrainsSeed
  /** One serving process per allocator setting, in the order they ran on the same data dir. */
  readonly serves: readonly { readonly allocator: string; readonly serve: ManyBrainsServe }[]
  readonly calibration: readonly { readonly allocator: string; readonly point: CalibrationPoint }[]
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const mb = (n: number) => n.toFixed(0)
const signed = (n: number) => `${n >= 0 ? '+' : ''}${mb(n)}`
const perBrain = (total: number, brains: number) => (total / brains).toFixed(2)
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-')

/** Peak RSS over baseline + budget, the figure the check bounds. */
export function peakOver(serve: ManyBrainsServe): number {
  return Math.max(...serve.sweeps.map((s) => s.peakRssMb)) - serve.baselineRssMb - serve.budgetMb
}

function memoryTable(serves: ManyBrainsReportInput['serves']): string {
  const column = (f: (s: ManyBrainsServe) => string) => serves.map(({ serve }) => f(serve))
  const sweeps = serves[0]!.serve.sweeps.map((_, i) => i)
  const lastOf = (s: ManyBrainsServe) => s.sweeps[s.sweeps.length - 1]!
  return mdTable(
    ['measure, MB', ...serves.map((s) => s.allocator)],
    [
      [
        'engine started, before use-lite loaded its model',
        ...column((s) => mb(s.beforeEmbedderRssMb)),
      ],
      [
        '**baseline** (fixed overhead): engine started, use-lite loaded, no brain loaded',
        ...column((s) => `**${mb(s.baselineRssMb)}**`),
      ],
      ['budget (`indexMemoryMb`, as `INDEX_MEMORY_MB`)', ...column((s) => mb(s.budgetMb))],
      ['baseline + budget', ...column((s) => mb(s.baselineRssMb + s.budgetMb))],
      ...sweeps.map((i) => [
        `sweep ${i + 1}: peak RSS / largest sum of estimates`,
        ...column((s) => `${mb(s.sweeps[i]!.peakRssMb)} / ${mb(s.sweeps[i]!.peakEstimatedMb)}`),
      ]),
      [
        '**peak RSS over baseline + budget**',
        ...column(
          (s) =>
            `**${signed(peakOver(s))}** (${((peakOver(s) / s.budgetMb) * 100).toFixed(0)}% of the budget)`,
        ),
      ],
      [
        'after the last sweep: RSS over baseline / sum of estimates / brains loaded',
        ...column((s) => {
          const end = lastOf(s).end
          return `${mb(end.rssMb - s.baselineRssMb)} / ${mb(end.estimatedMb)} / ${end.loadedBrains}`
        }),
      ],
    ],
  )
}

function sweepTable(serves: ManyBrainsReportInput['serves']): string {
  const rows = serves.flatMap(({ allocator, serve }) =>
    serve.sweeps.map((s) => [
      `${allocator}, ${s.label}`,
      int(s.cold.count),
      fmtMs(s.cold.p50),
      fmtMs(s.cold.p95),
      fmtMs(s.cold.p99),
      fmtMs(s.cold.mean),
      Object.entries(s.origins)
        .map(([origin, n]) => `${origin} ${int(n)}`)
        .join(', '),
      `${fmtMs(s.build.snapshotLoadMs)} / ${fmtMs(s.build.lexicalMs)} / ${fmtMs(s.build.vectorRebuildMs)}`,
      int(s.evictions),
      s.wallS.toFixed(0),
      s.load1.toFixed(1),
    ]),
  )
  return mdTable(
    [
      'process, sweep',
      'cold searches',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'mean ms',
      'passages vector index from',
      'build medians ms: snapshot read / BM25 / HNSW inserts',
      'evictions',
      'wall s',
      'load',
    ],
    rows,
  )
}

function growthCells(g: MemoryGrowth, brains: number): string[] {
  return [
    perBrain(g.estimateMb, brains),
    perBrain(g.heapMb, brains),
    perBrain(g.rssMb, brains),
    ratio(g.estimateMb, g.heapMb),
    ratio(g.estimateMb, g.rssMb),
  ]
}

function calibrationTable(calibration: ManyBrainsReportInput['calibration']): string {
  const rows = calibration.flatMap(({ allocator, point: c }) => [
    [
      String(c.passages),
      String(c.brains),
      allocator,
      'fresh process',
      ...growthCells(c.fresh, c.brains),
    ],
    [
      String(c.passages),
      String(c.brains),
      allocator,
      'after one eviction cycle',
      ...growthCells(c.churned, c.brains),
    ],
  ])
  return mdTable(
    [
      'passages per brain',
      'brains',
      'allocator',
      'when',
      'estimate MB/brain',
      'heap growth MB/brain',
      'RSS growth MB/brain',
      'estimate / heap',
      'estimate / RSS',
    ],
    rows,
  )
}

/** results/many-brains.md from `npm run bench -- --many-brains`. */
export function manyBrainsReport(input: ManyBrainsReportInput): string {
  const { shape, seed, serves } = input
  const first = serves[0]!.serve
  const budget = first.budgetMb
  const loaded = first.sweeps[first.sweeps.length - 1]!.end.loadedBrains
  const still = serves.flatMap(({ allocator, serve }) =>
    serve.sweeps
      .filter((s) => s.stillLoaded > 0)
      .map((s) => `${allocator}, ${s.label}: ${s.stillLoaded}`),
  )
  const warnings = [...new Set(serves.flatMap(({ serve }) => serve.warnings))]
  return [
    banner(input.command),
    '',
    '# Many brains in one process (issue 13, item 4)',
    '',
    environmentLine(input.environment),
    '',
    `${int(shape.brains)} brains of ${int(shape.passages)} passages each, real text: brain i holds ${shape.passages} consecutive SciFact documents (title and abstract) from offset i x 997 (mod 5,183), each passage with its ${input.embedder.name} vector (${input.embedder.dimension}-d; every distinct text was embedded once by the model, through the benchmark vector cache, and brains sharing a document share its vector). The brains were written straight through the engine's commit path (\`engram.brains.create\`, then one \`engram.commit\` of passages and vectors per brain), **not through ingestion tasks** (no chunking, extraction or entities, so each brain has a passages vector index and no entities one), to SQLite, in a separate process: ${(seed.ms / 1000).toFixed(0)} s, ${(seed.dataBytes / 2 ** 30).toFixed(2)} GiB on disk.`,
    '',
    `Then a fresh process serves them as the server does with \`INDEX_MEMORY_MB=${budget}\`: \`createEngine\` on the SQLite adapter with \`indexMemoryMb: ${budget}\`, use-lite loaded (two worker threads holding the model), vector snapshots on with their defaults. A sweep searches every brain once, in order (hybrid BM25 + dense over passages, rrf, k = 10, one SciFact test query per brain); query vectors come from the benchmark vector cache (read by the parent process), so latencies exclude the query embedding (\`embed-query\` in [latency.md](latency.md) times it). The budget holds about ${int(loaded)} of these brains, so every search of a sweep is a cold brain's first search: the build of its indexes (after any eviction still saving a snapshot: a cold build waits for it) and the search. Two such processes ran, one after the other on the same data: the first under glibc's malloc defaults, its first sweep building every brain from SQLite (no snapshot existed; each eviction saved the evicted brain's vector snapshot) and its second reading vectors from snapshots; the second process with \`MALLOC_MMAP_THRESHOLD_=131072\`, reading snapshots in both sweeps. Peak RSS is the kernel's \`VmHWM\`, reset before each sweep.`,
    '',
    '## Memory',
    '',
    memoryTable(serves),
    '',
    `The fixed overhead is the baseline: Node, the engine, the SQLite catalog, use-lite's workers with their model, and the 300 SciFact test queries' vectors (read from the benchmark vector cache by the parent process and handed over in a file: the cache itself, which holds every text any benchmark embedded, is not loaded here). The budget counts index estimates only. On top of it come the SQLite connections of loaded brains (closed on eviction), evicted indexes a collection has not freed yet (V8 does not see hnswlib's native memory, so it collects no sooner for it), and memory the allocator keeps after frees. Under glibc's defaults the last dominates and grows with every eviction cycle: after the first free of a large block, glibc raises its mmap threshold, so later hnswlib graphs and vector copies come from the heap, and what they free is kept there, fragmented (snapshots are read on libuv threads, which glibc may serve from other arenas). With \`MALLOC_MMAP_THRESHOLD_=131072\` every block of 128 KiB or more is its own mapping, returned to the system when freed.`,
    '',
    '## Cold-brain first search',
    '',
    sweepTable(serves),
    '',
    ...(still.length > 0
      ? [`Brains found still loaded, left out of the cold figures: ${still.join('; ')}.`, '']
      : []),
    ...serves.map(
      ({ allocator, serve: { warm } }) =>
        `Warm (${allocator}): ${warm.brains} brains still loaded after the last sweep, ${int(warm.latency.count)} searches: p50 ${fmtMs(warm.latency.p50)} ms, p95 ${fmtMs(warm.latency.p95)} ms, p99 ${fmtMs(warm.latency.p99)} ms (evictions meanwhile: ${warm.evictions}).`,
    ),
    '',
    ...(warnings.length > 0
      ? ['Engine warnings during the runs:', '', ...warnings.map((m) => `- ${m}`), '']
      : []),
    '## The index estimate against measured memory',
    '',
    "Per brain size, in a fresh process: brains of SciFact passages with their vectors in the memory adapter (so the stored records are in memory before the first sample), each built by the index manager and searched once, with memory sampled after a full collection (and a pause for hnswlib's finalizers) on both sides. Then as many other brains, each evicting one of the first (a budget of the first set's estimate). Heap = `heapUsed + arrayBuffers` (what V8 accounts: BM25, ids, the flat vector copies at their allocated size); RSS adds hnswlib's native memory and counts only pages touched. The estimate (`packages/core/src/indexes/index-bytes.ts`) counts allocated capacity: fresh, untouched pages are not resident, but memory reused after evictions is.",
    '',
    calibrationTable(input.calibration),
    '',
    '## Not measured here',
    '',
    '- PostgreSQL (`STORAGE=postgres`): the budget and the eviction are the same there, without snapshots (every cold brain re-inserts its vectors, as sweep 1 of the first process does here). The harness has no `--storage` switch: it would need `@engram/adapter-postgres` as a benchmark dependency and the seeding of some 400,000 passages with vectors into a database the run then cleans up.',
    '',
  ].join('\n')
}
