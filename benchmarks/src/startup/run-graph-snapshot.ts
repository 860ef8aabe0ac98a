import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { isDeepStrictEqual } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createHash } from 'node:crypto'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { GraphIndex } from '@engram/core'
// Not exported by @engram/core: the benchmark times the snapshot functions themselves. (Run from the
// sources by `npm run bench`; the build maps these to packages/core/dist.)
import { decodeSnapshot } from '../../../packages/core/src/indexes/snapshot-codec.js'
import {
  graphFromParts,
  loadGraphSnapshot,
  saveGraphSnapshot,
} from '../../../packages/core/src/indexes/graph/graph-snapshot.js'
import { LexicalIndexes } from '../../../packages/core/src/indexes/lexical-indexes.js'
import {
  loadLexicalSnapshot,
  saveLexicalSnapshot,
} from '../../../packages/core/src/indexes/lexical-snapshot.js'
import { loopYielder } from '../../../packages/core/src/loop-yielder.js'
import { loopStallProbe } from '../ingest/loop-stall-probe.js'
import { loadMovieLens } from '../loaders/movielens.js'
import { captureEnvironment } from '../run/environment.js'
import { sizeOf } from '../scale/measure-startup.js'
import type {
  GraphBuildRun,
  GraphLoadRun,
  GraphSaveRun,
  GraphSnapshotResult,
  LexicalLoadRun,
} from './graph-snapshot-result.js'
import { graphSnapshotReport } from './graph-snapshot-report.js'
import { movieLensGraphRecords } from './movielens-graph-records.js'

export const GRAPH_SNAPSHOT_COMMAND = 'npm run bench -- --graph-snapshot'
const BATCH = 5000
const DIGEST_BYTES = 32

/**
 * Full collections until the heap settles: `global.gc` when node runs with --expose-gc, else exposed at
 * run time; several passes with event-loop turns between, since typed arrays' backing stores are
 * released after their owners are collected (one pass left a previous run's arrays in the baseline).
 */
function collector(): () => Promise<void> {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed === undefined) setFlagsFromString('--expose-gc')
  const gc = exposed ?? (runInNewContext('gc') as () => void)
  return async () => {
    for (let i = 0; i < 4; i++) {
      gc()
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/** Everything V8 accounts: the JS heap and the typed arrays' backing stores (the graph's CSR arrays). */
function heapBytes(): number {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start)
  return (d.user + d.system) / 1000
}

/** Fields of a graph index but its time views (a cache) and change count (restarts at 0 either way). */
const stateOf = (g: GraphIndex) =>
  Object.fromEntries(Object.entries(g).filter(([k]) => k !== 'views' && k !== 'changeCount'))

/** The lexical indexes restored from the snapshot in `dir`, as `index-snapshots.ts` restores them. */
async function loadLexical(dir: string): Promise<LexicalIndexes> {
  const pause = loopYielder()
  return LexicalIndexes.restore({}, await loadLexicalSnapshot(dir, pause), pause)
}

/** What a lexical snapshot holds of the indexes (their parts, the entity attributes among them). */
const lexicalStateOf = (l: LexicalIndexes) => l.toParts()

/**
 * `npm run bench -- --graph-snapshot [runs]` (issue 29 item 3): MovieLens-small as a graph of records in
 * a SQLite brain (`movieLensGraphRecords`); then `runs` times, in turn: the graph index built from the
 * store (`GraphIndex.build`, what a start without a graph snapshot does on a brain's first graph
 * request), its snapshot saved (`saveGraphSnapshot`), and loaded (`loadGraphSnapshot`), each with wall
 * and CPU time and, after a full collection, the heap the index holds. The first load is compared
 * field by field with the built index. Each save and load runs beside a stall probe (`loopStallProbe`): the
 * longest the event loop went without a turn meanwhile. The brain's lexical indexes are built once
 * from the store and their snapshot loaded `runs` times the same way. Writes results/graph-snapshot.md
 * and results/data/graph-snapshot.json.
 */
export async function runGraphSnapshot(
  runs: number,
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<GraphSnapshotResult> {
  const environment = captureEnvironment()
  const gc = collector()
  const { entities, relationships } = movieLensGraphRecords(
    loadMovieLens(join(dataDir, 'movielens-small')),
  )
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-graph-'))
  const storage = sqliteAdapter({ dataDir: join(dir, 'data') })
  try {
    await storage.open()
    await storage.catalog.create({
      id: 'ml',
      nameKey: 'ml',
      tokenHash: 'x',
      tokenLast4: 'xxxx',
      createdAt: new Date(0).toISOString(),
    })
    const store = await storage.brain('ml')
    let t0 = performance.now()
    for (let i = 0; i < entities.length; i += BATCH)
      await store.apply({ entities: entities.slice(i, i + BATCH) })
    for (let i = 0; i < relationships.length; i += BATCH)
      await store.apply({ relationships: relationships.slice(i, i + BATCH) })
    const storeMs = performance.now() - t0
    log(
      `graph-snapshot: ${entities.length} entities, ${relationships.length} relationships stored in ${Math.round(storeMs)} ms`,
    )
    const snapshot = join(dir, 'graph-snapshot')
    const lexicalSnapshot = join(dir, 'lexical-snapshot')
    t0 = performance.now()
    const lexical = new LexicalIndexes()
    await lexical.build(store, loopYielder(20))
    const lexicalBuildMs = performance.now() - t0
    await saveLexicalSnapshot(lexical, lexicalSnapshot)
    const lexicalBytes = sizeOf(lexicalSnapshot)
    const lexicalState = lexicalStateOf(lexical)
    const documents = { entities: lexical.entities.size, events: lexical.events.size }
    const lexicalLoads: LexicalLoadRun[] = []
    let lexicalEqualsBuilt = false
    const builds: GraphBuildRun[] = []
    const saves: GraphSaveRun[] = []
    const loads: GraphLoadRun[] = []
    let loadedEqualsBuilt = false
    let shape = { nodes: 0, edges: 0 }
    for (let run = 0; run < runs; run++) {
      await gc()
      let load1 = loadavg()[0]!
      let before = heapBytes()
      let t = performance.now()
      let cpu = process.cpuUsage()
      let built: GraphIndex | null = await GraphIndex.build(store)
      const build: GraphBuildRun = {
        wallMs: performance.now() - t,
        cpuMs: cpuMsSince(cpu),
        heapMb: 0,
        load1,
      }
      await gc()
      builds.push({ ...build, heapMb: (heapBytes() - before) / 2 ** 20 })
      shape = { nodes: built.nodeCount, edges: built.edgeUuid.length }

      t = performance.now()
      cpu = process.cpuUsage()
      const saveProbe = loopStallProbe()
      const bytes = await saveGraphSnapshot(built, snapshot)
      const saveWallMs = performance.now() - t
      const saveCpuMs = cpuMsSince(cpu)
      saves.push({ wallMs: saveWallMs, cpuMs: saveCpuMs, bytes, stallMs: await saveProbe.stop() })
      const builtState = run === 0 ? stateOf(built) : null
      built = null

      await gc()
      load1 = loadavg()[0]!
      before = heapBytes()
      t = performance.now()
      cpu = process.cpuUsage()
      let probe = loopStallProbe()
      let loaded: GraphIndex | null = await loadGraphSnapshot(snapshot)
      const wallMs = performance.now() - t
      const cpuMs = cpuMsSince(cpu)
      const stallMs = await probe.stop()
      await gc()
      const heapMb = (heapBytes() - before) / 2 ** 20
      if (builtState !== null) loadedEqualsBuilt = isDeepStrictEqual(stateOf(loaded), builtState)
      loaded = null
      // Where a load's time goes, step by step as `loadGraphSnapshot` takes them.
      t = performance.now()
      const file = readFileSync(join(snapshot, 'graph.bin'))
      const readMs = performance.now() - t
      t = performance.now()
      createHash('sha256')
        .update(file.subarray(0, file.length - DIGEST_BYTES))
        .digest()
      const sha256Ms = performance.now() - t
      t = performance.now()
      const parts = decodeSnapshot(file.subarray(0, file.length - DIGEST_BYTES))
      const decodeMs = performance.now() - t
      t = performance.now()
      graphFromParts(parts)
      const assembleMs = performance.now() - t
      loads.push({ wallMs, cpuMs, heapMb, load1, readMs, sha256Ms, decodeMs, assembleMs, stallMs })

      await gc()
      const lexicalLoad1 = loadavg()[0]!
      t = performance.now()
      cpu = process.cpuUsage()
      probe = loopStallProbe()
      const restored = await loadLexical(lexicalSnapshot)
      const lexicalLoad: LexicalLoadRun = {
        wallMs: performance.now() - t,
        cpuMs: cpuMsSince(cpu),
        stallMs: await probe.stop(),
        load1: lexicalLoad1,
      }
      lexicalLoads.push(lexicalLoad)
      if (run === 0) lexicalEqualsBuilt = isDeepStrictEqual(lexicalStateOf(restored), lexicalState)
      log(
        `graph-snapshot run ${run + 1}/${runs}: build ${Math.round(build.wallMs)} ms, save ` +
          `${Math.round(saves[run]!.wallMs)} ms (${(bytes / 2 ** 20).toFixed(1)} MiB), load ` +
          `${Math.round(wallMs)} ms, longest stall ${Math.round(stallMs)} ms; lexical load ` +
          `${Math.round(lexicalLoad.wallMs)} ms, longest stall ${Math.round(lexicalLoad.stallMs)} ms ` +
          `(load average ${load1.toFixed(2)})`,
      )
    }
    if (!loadedEqualsBuilt) throw new Error('the loaded graph differs from the built one')
    if (!lexicalEqualsBuilt)
      throw new Error('the loaded lexical indexes differ from the built ones')
    const result: GraphSnapshotResult = {
      command: `${GRAPH_SNAPSHOT_COMMAND}${runs === 5 ? '' : ` ${runs}`}`,
      environment,
      graph: { entities: entities.length, relationships: relationships.length, ...shape },
      storeMs,
      sqliteBytes: sizeOf(join(dir, 'data')),
      builds,
      saves,
      loads,
      loadedEqualsBuilt,
      lexical: {
        documents,
        bytes: lexicalBytes,
        buildMs: lexicalBuildMs,
        loads: lexicalLoads,
        loadedEqualsBuilt: lexicalEqualsBuilt,
      },
      loadAfter: loadavg(),
    }
    mkdirSync(join(resultsDir, 'data'), { recursive: true })
    const data = join(resultsDir, 'data', 'graph-snapshot.json')
    writeFileSync(data, `${JSON.stringify(result, null, 2)}\n`)
    const file = join(resultsDir, 'graph-snapshot.md')
    writeFileSync(file, graphSnapshotReport(result))
    log(`wrote ${file} and ${data}`)
    return result
  } finally {
    await storage.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
