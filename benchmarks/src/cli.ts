import { join, resolve } from 'node:path'
import { acceptExpected, asAccepted, logPath } from './config/accept-expected.js'
import { listConfigNames, loadBenchConfig } from './config/bench-config.js'
import { parseCliArgs, USAGE } from './cli-args.js'
import { runIngestBench } from './ingest/run-ingest-bench.js'
import { runHnswConstruction } from './vectors/hnsw-construction-bench.js'
import { runUseLitePrecision } from './vectors/use-lite-precision-bench.js'
import { runLatencySuites } from './latency/run-latency-suites.js'
import { rewriteMixedLoadSection } from './latency/mixed-load-report.js'
import { runMixedLoadBench } from './latency/run-mixed-load.js'
import { MANY_BRAINS_DEFAULT } from './many-brains/many-brains-corpus.js'
import { runManyBrains } from './many-brains/run-many-brains.js'
import { runMovieLens } from './recsys/run-movielens.js'
import { runMovieLensValidation } from './recsys/run-movielens-validation.js'
import {
  benchmarksDir,
  cacheDir,
  calibrationTablePath,
  configsDir,
  defaultDataDir,
  defaultRunsDir,
  isInside,
  repoRoot,
  resultsDir,
} from './paths.js'
import { REPORT_COMMAND, resultDataPath, saveResult, writeReport } from './report/write-report.js'
import { runConfig } from './run/run-config.js'
import { runExtractionConfig } from './extraction/run-extraction.js'
import { runScaleCurve } from './scale/run-scale-curve.js'
import { runScaleOut } from './scale-out/run-scale-out.js'
import { runConsoleExplorer } from './console/run-console-explorer.js'
import { runStartup } from './startup/run-startup.js'
import { runStartupLarge } from './scale/run-startup-large.js'
import { runStartupPostgres } from './startup/run-startup-postgres.js'
import { runGraphSnapshot } from './startup/run-graph-snapshot.js'
import { rewriteForgettingReport, runForgetting } from './forgetting/run-forgetting.js'
import { rewriteOpGrowthReport, runOpGrowth } from './growth/run-op-growth.js'
import { runStoreWrites } from './ingest/run-store-writes.js'
import { resolveEngramSystem } from './systems/engram-system.js'
import { rewriteTimeReport, runTimeBench } from './time/run-time-bench.js'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { chooseBm25, tuneBm25, tuningReport } from './tune/tune-bm25.js'
import { runFusionCalibration } from './calibration/run-fusion-calibration.js'
import { benchVectors, vectorCacheDir } from './vectors/bench-vectors.js'

/** `npm run bench -- ...`: see USAGE. Exit code 1 when any run verdict is FAIL. */
async function main(argv: readonly string[]): Promise<number> {
  const args = parseCliArgs(argv)
  const log = (line: string) => process.stdout.write(`${line}\n`)
  if (
    args.help ||
    (!args.list &&
      !args.report &&
      args.configs.length === 0 &&
      !args.scale &&
      !args.latency &&
      !args.latencyMixed &&
      !args.ingest &&
      !args.recsys &&
      !args.recsysValidation &&
      !args.scaleOut &&
      !args.manyBrains &&
      !args.tuneBm25 &&
      !args.calibrateFusion &&
      !args.consoleExplorer &&
      !args.hnswConstruction &&
      !args.useLitePrecision &&
      args.startup === null &&
      args.startupLarge === null &&
      args.startupPostgres === null &&
      args.graphSnapshot === null &&
      args.forgetting === null &&
      args.time === null &&
      args.opGrowth === null &&
      args.storeWrites === null)
  ) {
    log(USAGE)
    return 0
  }
  const dataDir = resolve(repoRoot, args.dataDir ?? defaultDataDir)
  const runsRoot = resolve(repoRoot, args.out ?? defaultRunsDir)
  if (
    (args.configs.length > 0 ||
      args.latency ||
      args.latencyMixed ||
      args.ingest ||
      args.recsys ||
      args.recsysValidation ||
      args.scaleOut ||
      args.manyBrains ||
      args.tuneBm25 ||
      args.calibrateFusion ||
      args.hnswConstruction ||
      args.useLitePrecision ||
      args.graphSnapshot !== null ||
      args.forgetting !== null ||
      args.time !== null ||
      args.storeWrites !== null) &&
    !existsSync(dataDir)
  ) {
    throw new Error(`data dir not found: ${dataDir} (pass --data-dir <dir>)`)
  }
  if (isInside(runsRoot, dataDir))
    throw new Error(`--out ${runsRoot} is inside the data dir; refusing to write there`)

  if (args.list) {
    for (const name of listConfigNames(configsDir)) {
      const config = loadBenchConfig(configsDir, name)
      const engram =
        config.kind === 'extraction'
          ? { ready: true, missing: '' }
          : await resolveEngramSystem(config)
      const last = existsSync(resultDataPath(resultsDir, name))
        ? (
            JSON.parse(readFileSync(resultDataPath(resultsDir, name), 'utf8')) as {
              verdict: string
            }
          ).verdict
        : 'never run'
      const state = engram.ready ? 'ready' : `pending (${engram.missing})`
      log(
        `${name.padEnd(36)} ${state}; peers: ${config.peers.join(', ') || '-'}; last verdict: ${last}`,
      )
    }
  }
  let failed = false
  const names = args.configs.includes('all') ? listConfigNames(configsDir) : args.configs
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  for (const name of names) {
    const config = loadBenchConfig(configsDir, name)
    log(`\n== ${name} (phases: ${args.phases.join(', ')})`)
    const command = `npm run bench -- --config ${name}`
    const result =
      config.kind === 'extraction'
        ? (await runExtractionConfig(config, { dataDir, command, log })).result
        : await runConfig(config, {
            dataDir,
            outDir: join(runsRoot, stamp),
            phases: args.phases,
            command,
            log,
            only: args.only,
          })
    if (args.accept) {
      const changes = await acceptExpected(
        join(configsDir, `${name}.yaml`),
        logPath(benchmarksDir),
        result,
      )
      log(changes.length ? `accepted:\n  ${changes.join('\n  ')}` : 'accepted: no change')
    }
    // Only complete runs of every system update the committed results; an accepted run is saved as
    // judged against the numbers it pinned.
    const final = args.accept ? asAccepted(result) : result
    failed ||= final.verdict === 'FAIL'
    if (args.phases.length === 3 && args.only.length === 0) saveResult(resultsDir, final)
  }
  if (args.scale) await runScaleCurve(args.scale, resultsDir, log, args.only)
  if (args.tuneBm25) {
    const command = 'npm run bench -- --tune-bm25'
    const rows = tuneBm25(dataDir, log)
    const { chosen } = chooseBm25(rows)
    writeFileSync(join(resultsDir, 'bm25-tuning.md'), tuningReport(rows, command))
    log(`chosen: ${JSON.stringify(chosen.setting)} (results/bm25-tuning.md)`)
  }
  if (args.latency) await runLatencySuites(dataDir, resultsDir, log)
  if (args.latencyMixed) {
    await runMixedLoadBench(dataDir, resultsDir, log)
    log(`wrote ${rewriteMixedLoadSection(resultsDir)}`)
  }
  if (args.ingest) await runIngestBench(dataDir, resultsDir, log)
  if (args.recsysValidation) await runMovieLensValidation(dataDir, resultsDir, log)
  if (args.recsys) await runMovieLens(dataDir, resultsDir, log)
  if (args.calibrateFusion) {
    const vectors = benchVectors({ cacheDir: vectorCacheDir(cacheDir) })
    try {
      await runFusionCalibration(
        dataDir,
        { results: resultsDir, table: calibrationTablePath },
        vectors,
        log,
      )
    } finally {
      await vectors.close()
    }
  }
  if (args.scaleOut) await runScaleOut(dataDir, resultsDir, log)
  // Needs no dataset: the brain is generated (seeded).
  if (args.consoleExplorer) await runConsoleExplorer(resultsDir, log)
  if (args.hnswConstruction) await runHnswConstruction(dataDir, resultsDir, log)
  if (args.useLitePrecision) await runUseLitePrecision(dataDir, resultsDir, log)
  // Needs no dataset either: the built server on temporary data directories.
  if (args.startup !== null) await runStartup(resultsDir, log, args.startup)
  // Needs no dataset: the brain is generated (seeded).
  if (args.startupLarge !== null) await runStartupLarge(args.startupLarge, resultsDir, log)
  // Needs no dataset: the brain is generated (seeded); needs PostgreSQL (started when local and down).
  if (args.startupPostgres !== null) await runStartupPostgres(args.startupPostgres, resultsDir, log)
  if (args.graphSnapshot !== null)
    await runGraphSnapshot(args.graphSnapshot, dataDir, resultsDir, log)
  if (args.storeWrites !== null) await runStoreWrites(args.storeWrites, dataDir, resultsDir, log)
  if (args.forgetting !== null) await runForgetting(dataDir, resultsDir, log, args.forgetting)
  if (args.time !== null) await runTimeBench(dataDir, resultsDir, log, args.time)
  // Needs no dataset: the brain is generated (seeded).
  if (args.opGrowth !== null) await runOpGrowth(args.opGrowth, resultsDir, log)
  if (args.manyBrains) {
    const { brains, passages } = args.manyBrains
    const defaults =
      brains === MANY_BRAINS_DEFAULT.brains && passages === MANY_BRAINS_DEFAULT.passages
    await runManyBrains(args.manyBrains, defaults, dataDir, resultsDir, log)
  }
  if (
    args.report ||
    names.length > 0 ||
    args.scale ||
    args.latency ||
    args.ingest ||
    args.scaleOut
  ) {
    for (const file of writeReport(configsDir, resultsDir)) log(`wrote ${file}`)
    // time.md quotes locomo-dev.default's per-category numbers: a new run of it rewrites the page too.
    if (args.report || names.includes('locomo-dev.default') || names.includes('all')) {
      const time = rewriteTimeReport(resultsDir)
      if (time !== null) log(`wrote ${time}`)
    }
    if (args.report) {
      const forgetting = rewriteForgettingReport(resultsDir)
      if (forgetting !== null) log(`wrote ${forgetting}`)
      const growth = rewriteOpGrowthReport(resultsDir)
      if (growth !== null) log(`wrote ${growth}`)
      const mixed = rewriteMixedLoadSection(resultsDir)
      if (mixed !== null) log(`wrote ${mixed}`)
      log(`(${REPORT_COMMAND})`)
    }
  }
  return failed ? 1 : 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(2)
  },
)
