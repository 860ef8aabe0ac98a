import { MANY_BRAINS_DEFAULT } from './many-brains/many-brains-corpus.js'
import { OP_GROWTH_SIZES } from './growth/op-growth-result.js'
import { ALL_PHASES, type Phase } from './run/run-types.js'

export interface CliArgs {
  readonly configs: readonly string[]
  readonly list: boolean
  readonly report: boolean
  readonly accept: boolean
  readonly scale: readonly number[] | null
  readonly latency: boolean
  /** `--latency mixed`: search under a mixed load on the built server (issue 29 item 4, latency.md). */
  readonly latencyMixed: boolean
  readonly ingest: boolean
  readonly recsys: boolean
  /** `--recsys-validation`: MovieLens validation folds for recommend's settings (results/movielens-validation.md). */
  readonly recsysValidation: boolean
  /** `--calibrate-fusion`: grid the default fusion's weights on training splits (results/fusion-calibration.md). */
  readonly calibrateFusion: boolean
  readonly scaleOut: boolean
  /** `--console-explorer`: the console's entity explorer in headless Chromium (results/console-explorer.md). */
  readonly consoleExplorer: boolean
  readonly hnswConstruction: boolean
  /** `--use-lite-precision`: use-lite's int8 against its float model (results/use-lite-precision.md). */
  readonly useLitePrecision: boolean
  /** Brains and passages per brain of `--many-brains`; null when not asked. */
  readonly manyBrains: { readonly brains: number; readonly passages: number } | null
  /** Timed runs of `--startup` (issue 25's start-up targets, results/startup.md); null when not asked. */
  readonly startup: number | null
  /** Starts per mode of `--startup-large` (a 100,000-passage brain, results/startup-large.md); null when not asked. */
  readonly startupLarge: number | null
  /** Starts per fast mode of `--startup-postgres` (results/startup-postgres.md); null when not asked. */
  readonly startupPostgres: number | null
  /** Runs of `--graph-snapshot` (MovieLens-small's graph: build vs snapshot load); null when not asked. */
  readonly graphSnapshot: number | null
  /** `--tune-bm25`: grid BM25 settings on SciFact train (results/bm25-tuning.md). */
  readonly tuneBm25: boolean
  /** Timed forget cycles of `--forgetting` (issue 26, results/forgetting.md); null when not asked. */
  readonly forgetting: number | null
  /** Rounds per condition of `--time` (issue 28, results/time.md); null when not asked. */
  readonly time: number | null
  /** Replays of `--store-writes` (ingestion's writes to SQLite, results/store-writes.md); null when not asked. */
  readonly storeWrites: number | null
  /** Brain sizes (entities) of `--op-growth` (issue 29 item 4, results/op-growth.md); null when not asked. */
  readonly opGrowth: readonly number[] | null
  readonly dataDir: string | null
  readonly out: string | null
  readonly phases: readonly Phase[]
  readonly only: readonly string[]
  readonly help: boolean
}

export const USAGE = `usage: npm run bench -- [options]
  --config <name[,name]>  run configs (benchmarks/configs/<name>.yaml); 'all' runs every config
  --list                  list configs with their status
  --phases <p[,p]>        ingest, verify, search (default: all three)
  --data-dir <dir>        datasets folder (default: ../shared/datasets from the repo root)
  --out <dir>             run files folder (default: benchmarks/runs/)
  --only <system[,...]>   run only these systems (engram, minisearch, flexsearch, orama, sqlite-fts5);
                          with --scale: peers to measure beside Engram, and/or a subset of the Engram
                          scale systems (engram-bm25-index, engram-search, engram-hybrid)
  --accept                write the measured numbers into the config's expected block and log it in LOG.md
  --report                regenerate results/*.md and the plot from results/data without running
  --scale [n,n,...]       scale curve over synthetic passages (default 10000,100000,300000)
                          (also: start-up of a 100,000-passage brain from SQLite)
  --latency               per-stage latency suites (tinybench) and HTTP scenarios (autocannon)
  --latency mixed         the built server on a seeded SciFact brain (EMBEDDER=none, then use-lite): searches
                          alone for 30 s, then searches, ingestions and model writes 70/20/10 over 32
                          connections for 60 s; search p50/p95/p99, server CPU and event-loop delay per phase
                          (the mixed-load section of results/latency.md; needs npm run build first; ~8 min)
  --hnsw-construction     HNSW efConstruction against build time and recall@10 (exact search the truth) on the
                          use-lite vectors of SciFact, MuSiQue-100 and LoCoMo dev (results/hnsw-construction.md)
  --use-lite-precision    use-lite's int8 products against its float model: cosine by text set and pieces, run
                          time per batch, texts/s (results/use-lite-precision.md)
  --ingest                ingestion pipeline throughput over the LoCoMo dev turns (results/ingest.md)
  --calibrate-fusion      calibrate the default fusion (cc) for the harness embedder on SciFact train, LoCoMo dev
                          and MuSiQue-100; writes results/fusion-calibration.md and the engine's calibration table
  --recsys                MovieLens recommend vs popularity and item-kNN (results/movielens.md)
  --recsys-validation     recommend's settings compared on nested validation folds of the MovieLens training
                          split, never its test ratings (results/movielens-validation.md)
  --scale-out             PostgreSQL scale-out: ingestion with 1 and 2 worker processes, search latency
                          and req/s on PostgreSQL vs SQLite (results/scale-out.md; needs PostgreSQL)
  --many-brains [n,p]     n brains of p SciFact passages (default 2000,200) on SQLite served by one
                          process under a 512 MB index memory budget (results/many-brains.md)
  --console-explorer      the console's entity explorer in headless Chromium on a seeded 10,000-entity /
                          30,000-relationship brain: 2-hop of a hub, whole brain, pan/zoom frame times
                          (results/console-explorer.md; needs Chromium)
  --startup [runs]        the built server's start-up: empty data directory to /health 200 with
                          EMBEDDER=none and use-lite, its RSS, first search vs later ones, engram --help;
                          runs per figure after one warm-up, default 5 (results/startup.md; needs
                          npm run build first, no dataset)
  --startup-large [runs]  a 100,000-passage brain with synthetic vectors on SQLite: process start to first
                          search with every snapshot, with the vector snapshot only, and with none; runs
                          per snapshot mode, default 3 (results/startup-large.md; no dataset; ~20 min)
  --startup-postgres [runs]
                          the same 100,000 passages in a fresh PostgreSQL database with INDEX_SNAPSHOT_DIR:
                          process start to first search from the snapshots, with 1,000 writes of another
                          process to apply first, and rebuilding from PostgreSQL; runs per fast mode, default
                          3 (results/startup-postgres.md; needs PostgreSQL and npm run build; ~12 min)
  --graph-snapshot [runs] MovieLens-small as a graph in a SQLite brain: the graph index built from the store
                          against loaded from its snapshot (wall, CPU, heap, file size), default 5 runs
                          (results/graph-snapshot.md)
  --forgetting [runs]     forgetting a one-passage source in a 100,000-passage brain (SQLite, without and with
                          synthetic vectors): time until search no longer returns it, p50/p95 over runs
                          (default 20), index memory before and after; and "no ghosts" on LoCoMo dev: a
                          brain that forgot half the sessions against one that never saw them
                          (results/forgetting.md)
  --time [rounds]         issue 28: ingestion passages/s with and without ending contradicted facts (LoCoMo dev
                          turns and a synthetic moves corpus, alternating, rounds per condition, default 2), then
                          search latency now / as_of / known_at on the brains built; quotes the per-category
                          run of locomo-dev.default (results/time.md)
  --op-growth [n,n,...]   one SYNTHETIC brain on SQLite grown to 1k, 3k, 10k, 30k, 100k entities (or the
                          sizes given); p50/p99 of every REST operation at each size, in process through
                          app.inject (results/op-growth.md; no dataset)
  --store-writes [runs]   the store writes of LoCoMo dev's turn tasks recorded while ingesting, replayed into
                          fresh SQLite directories (default 5 runs), and the WAL frames of one conversation's
                          commits by kind and by table or index (results/store-writes.md)
  --tune-bm25             grid BM25 analysis x variant x k1 x b on SciFact train, LoCoMo dev and
                          MuSiQue-100 as checks (results/bm25-tuning.md)
  --help`

/** Parses argv (after `--`). Throws on unknown flags so a typo never silently runs the wrong thing. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const args = {
    configs: [] as string[],
    list: false,
    report: false,
    accept: false,
    scale: null as number[] | null,
    latency: false,
    latencyMixed: false,
    ingest: false,
    recsys: false,
    recsysValidation: false,
    calibrateFusion: false,
    scaleOut: false,
    consoleExplorer: false,
    hnswConstruction: false,
    useLitePrecision: false,
    manyBrains: null as { brains: number; passages: number } | null,
    startup: null as number | null,
    startupLarge: null as number | null,
    startupPostgres: null as number | null,
    graphSnapshot: null as number | null,
    tuneBm25: false,
    forgetting: null as number | null,
    time: null as number | null,
    opGrowth: null as number[] | null,
    storeWrites: null as number | null,
    dataDir: null as string | null,
    out: null as string | null,
    phases: [...ALL_PHASES] as Phase[],
    only: [] as string[],
    help: false,
  }
  const list = (v: string | undefined, flag: string) => {
    if (!v || v.startsWith('--')) throw new Error(`${flag} needs a value`)
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const [flag, inline] = a.includes('=')
      ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
      : [a, undefined]
    const value = () => inline ?? argv[++i]
    switch (flag) {
      case '--config':
        args.configs.push(...list(value(), flag))
        break
      case '--phases': {
        const phases = list(value(), flag)
        for (const p of phases)
          if (!ALL_PHASES.includes(p as Phase)) throw new Error(`unknown phase '${p}'`)
        args.phases = ALL_PHASES.filter((p) => phases.includes(p))
        break
      }
      case '--data-dir':
        args.dataDir = list(value(), flag).join(',')
        break
      case '--out':
        args.out = list(value(), flag).join(',')
        break
      case '--only':
        args.only = list(value(), flag)
        break
      case '--scale': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.scale = next ? next.split(',').map(Number) : [10_000, 100_000, 300_000]
        if (args.scale.some((n) => !Number.isInteger(n) || n <= 0))
          throw new Error('--scale sizes must be positive integers')
        break
      }
      case '--scale-out':
        args.scaleOut = true
        break
      case '--many-brains': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        const { brains: n, passages: p } = MANY_BRAINS_DEFAULT
        const [brains, passages] = next ? next.split(',').map(Number) : [n, p]
        if (![brains, passages].every((n) => Number.isInteger(n) && n! > 0))
          throw new Error('--many-brains takes two positive integers: brains,passages')
        args.manyBrains = { brains: brains!, passages: passages! }
        break
      }
      case '--startup': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.startup = next === undefined ? 5 : Number(next)
        if (!Number.isInteger(args.startup) || args.startup <= 0)
          throw new Error('--startup runs must be a positive integer')
        break
      }
      case '--startup-large': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.startupLarge = next === undefined ? 3 : Number(next)
        if (!Number.isInteger(args.startupLarge) || args.startupLarge <= 0)
          throw new Error('--startup-large runs must be a positive integer')
        break
      }
      case '--startup-postgres':
      case '--graph-snapshot': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        const runs = next === undefined ? (flag === '--graph-snapshot' ? 5 : 3) : Number(next)
        if (!Number.isInteger(runs) || runs <= 0)
          throw new Error(`${flag} runs must be a positive integer`)
        if (flag === '--graph-snapshot') args.graphSnapshot = runs
        else args.startupPostgres = runs
        break
      }
      case '--store-writes': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.storeWrites = next === undefined ? 5 : Number(next)
        if (!Number.isInteger(args.storeWrites) || args.storeWrites <= 0)
          throw new Error('--store-writes runs must be a positive integer')
        break
      }
      case '--forgetting': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.forgetting = next === undefined ? 20 : Number(next)
        if (!Number.isInteger(args.forgetting) || args.forgetting <= 0)
          throw new Error('--forgetting runs must be a positive integer')
        break
      }
      case '--time': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.time = next === undefined ? 2 : Number(next)
        if (!Number.isInteger(args.time) || args.time <= 0)
          throw new Error('--time rounds must be a positive integer')
        break
      }
      case '--op-growth': {
        const next =
          inline ?? (argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined)
        args.opGrowth = next ? next.split(',').map(Number) : [...OP_GROWTH_SIZES]
        if (args.opGrowth.some((n) => !Number.isInteger(n) || n <= 0))
          throw new Error('--op-growth sizes must be positive integers')
        break
      }
      case '--recsys-validation':
        args.recsysValidation = true
        break
      case '--tune-bm25':
        args.tuneBm25 = true
        break
      case '--console-explorer':
        args.consoleExplorer = true
        break
      case '--hnsw-construction':
        args.hnswConstruction = true
        break
      case '--use-lite-precision':
        args.useLitePrecision = true
        break
      case '--calibrate-fusion':
        args.calibrateFusion = true
        break
      case '--latency':
        if ((inline ?? argv[i + 1]) === 'mixed') {
          if (inline === undefined) i++
          args.latencyMixed = true
        } else if (inline !== undefined) throw new Error(`--latency takes only 'mixed'`)
        else args.latency = true
        break
      case '--list':
      case '--report':
      case '--accept':
      case '--ingest':
      case '--recsys':
      case '--help':
        args[flag.slice(2) as 'list' | 'report' | 'accept' | 'ingest' | 'recsys' | 'help'] = true
        break
      default:
        throw new Error(`unknown argument '${a}'\n${USAGE}`)
    }
  }
  return args
}
