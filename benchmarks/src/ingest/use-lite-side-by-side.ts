import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type * as Core from '@engram/core'
import type * as Sqlite from '@engram/adapter-sqlite'
import { loadLocomo } from '../loaders/locomo.js'
import { loadMusique } from '../loaders/musique.js'
import { cpuMsSince } from '../run/proc-cpu.js'
import { locomoTasks, type IngestTaskSpec } from './locomo-tasks.js'
import type { SideBySideResult } from './use-lite-side-by-side-report.js'

/**
 * Issue 27 item 3, side by side: the use-lite embedder alone and the ingestion pipeline with it, run by
 * the engine of one source tree (`--root`, e.g. this checkout or `git worktree add /tmp/engram-before`
 * of the previous commit), so the previous and the current code are timed in one command on one machine:
 *
 *   bash benchmarks/src/ingest/use-lite-side-by-side.sh /tmp/engram-before /tmp/side-by-side
 *
 * The core and SQLite adapter are imported from `--root`, so each tree's own embedder and pipeline run.
 * Every run: that tree's server defaults (`WORKERS` tasks at once, `WORKERS_PER_BRAIN` of one brain, as its
 * `loadConfig({})` gives them; local extractor on 2 worker threads), after an unreported warm-up in the
 * same engine with the same embedder (`--warm-up` turns of the other conversations: `ingest`),
 * `useLiteEmbedder({ cacheSize: 0 })` so no run gets repeated texts from an earlier one for free.
 * "Embedder alone" embeds, in one call with a fresh embedder, the texts the previous code's session
 * pipeline sent its embedder (`--texts`, or this run's own), and keeps their vectors for the report.
 */

type Run = SideBySideResult['runs'][number]
type Result = SideBySideResult

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    out: { type: 'string' },
    texts: { type: 'string' },
    data: { type: 'string', default: '../shared/datasets' },
    musique: { type: 'string', default: '100' },
    turns: { type: 'string', default: '120' },
    /** Turns of the other conversations ingested, unreported, before each timed workload (default: all). */
    'warm-up': { type: 'string' },
    /** Only the workload whose label starts with this. */
    only: { type: 'string' },
    /** Also time the embedder alone on the session texts (`--texts` or this run's). */
    alone: { type: 'boolean', default: false },
    /** Instead of the tree's default `WORKERS` (and `WORKERS_PER_BRAIN` one less): a setting's own effect. */
    workers: { type: 'string' },
  },
})
const root = resolve(values.root ?? '.')
const core = (await import(join(root, 'packages/core/src/index.ts'))) as typeof Core
// What `npm start` of that tree runs with: a default is part of the code being compared.
const { loadConfig } = (await import(join(root, 'packages/server/src/config.ts'))) as {
  loadConfig(env: NodeJS.ProcessEnv): { workers: number; workersPerBrain: number }
}
const { workers, workersPerBrain } = loadConfig(
  values.workers === undefined ? {} : { WORKERS: values.workers },
)
const { sqliteAdapter } = (await import(
  join(root, 'adapters/sqlite/src/index.ts')
)) as typeof Sqlite

// One extractor pool for the process, as a server keeps one (started before any timing).
const extractor = core.localExtractorPool({ workers: 2 })
await extractor.warmUp()

/** Submits `specs` (into `brainOf(spec)`) and waits until the engine is idle. */
async function submitAll(
  engram: Core.Engram,
  specs: readonly IngestTaskSpec[],
  brainOf: (spec: IngestTaskSpec) => string,
) {
  const brains = [...new Set(specs.map(brainOf))]
  for (const brainId of brains) await engram.brains.create(brainId)
  for (const spec of specs)
    await engram.tasks.submit({
      brainId: brainOf(spec),
      kind: core.INGEST_TEXT,
      payload: spec.payload,
    })
  await engram.tasks.idle()
  return brains
}

/**
 * One engine, as a server that has been up a while: it first ingests `warmUp` (other conversations'
 * turns, into brains of their own) with the same embedder, unreported, so that the code of every stage,
 * embedding included, is JIT-compiled; then `specs`, timed.
 */
async function ingest(
  label: string,
  specs: readonly IngestTaskSpec[],
  warmUp: readonly IngestTaskSpec[],
  embedder: Core.Embedder,
) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-side-by-side-'))
  const engram = core.createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    defaultBrain: null,
    workers,
    workersPerBrain,
    maxPendingTasks: specs.length + warmUp.length + 1,
    embedder,
    extractor,
  })
  try {
    await engram.start()
    const w0 = performance.now()
    await submitAll(engram, warmUp, (spec) => `warm-up-${spec.brainId}`)
    console.error(
      `${label} (warm-up: ${warmUp.length} tasks of other conversations, unreported): ${((performance.now() - w0) / 1000).toFixed(1)} s`,
    )
    const load1 = loadavg()[0]!
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const brains = await submitAll(engram, specs, (spec) => spec.brainId)
    const wallMs = performance.now() - t0
    const cpuMs = cpuMsSince(cpu0)
    let passages = 0
    let embedded = 0
    let failed = 0
    for (const brainId of brains) {
      passages += (await (await engram.store(brainId)).stats()).passages
      for (let skip = 0; ; skip += 1000) {
        const page = await engram.tasks.list(brainId, { limit: 1000, skip })
        for (const task of page) {
          embedded += task.counts.embedded ?? 0
          if (task.status !== 'completed') failed++
        }
        if (page.length < 1000) break
      }
    }
    const run = { label, passages, embedded, wallMs, cpuMs, failed, load1 }
    console.error(
      `${label}: ${passages} passages, ${embedded} texts embedded in ${(wallMs / 1000).toFixed(1)} s = ${((passages / wallMs) * 1000).toFixed(1)} passages/s, CPU ${(cpuMs / passages).toFixed(1)} ms/passage (load ${load1.toFixed(1)})`,
    )
    return run
  } finally {
    await engram.stop({ graceMs: 0 })
    rmSync(dir, { recursive: true, force: true })
  }
}

const dataDir = resolve(values.data!)
const locomo = loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev')
const first = locomo.groups[0]!.name
const sessions = locomoTasks(locomo, 'session').filter((s) => s.brainId === first)
const turns = locomoTasks(locomo, 'turn')
  .filter((s) => s.brainId === first)
  .slice(0, Number(values.turns))
// The warm-up: the turns of the other conversations, none of the timed workloads' texts.
const warmUp = locomoTasks(locomo, 'turn')
  .filter((s) => s.brainId !== first)
  .slice(0, values['warm-up'] === undefined ? undefined : Number(values['warm-up']))
const musique = loadMusique(join(dataDir, 'musique-100'), 'musique-100')
const paragraphs: IngestTaskSpec[] = musique.groups[0]!.docs.slice(0, Number(values.musique)).map(
  (doc) => ({
    brainId: 'musique',
    turns: 1,
    payload: {
      text: `${doc.title}\n${doc.text}`,
      json: null,
      metaKeys: { title: doc.title ?? '' },
      observateFor: [],
      sourceTimestamp: new Date(0).toISOString(),
      skipEnrichment: false,
    },
  }),
)

const workloads: Record<string, readonly IngestTaskSpec[]> = {
  [`one task per session, ${first}`]: sessions,
  [`one task per turn, ${first} (first ${turns.length} turns)`]: turns,
  [`one task per MuSiQue-100 paragraph (first ${paragraphs.length})`]: paragraphs,
}
const runs: Run[] = []
const sent: string[] = []
for (const [label, specs] of Object.entries(workloads)) {
  if (values.only !== undefined && !label.startsWith(values.only)) continue
  const embedder = core.useLiteEmbedder({ cacheSize: 0 })
  await embedder.warmUp()
  const recording: Core.Embedder = {
    ...embedder,
    embed: (texts, signal, how) => {
      // The timed pass's texts only (the warm-up's brains are named `warm-up-*`).
      if (specs === sessions && !how?.brainId?.startsWith('warm-up-')) sent.push(...texts)
      return embedder.embed(texts, signal, how)
    },
  }
  try {
    runs.push(await ingest(label, specs, warmUp, recording))
  } finally {
    await embedder.close()
  }
}

let alone: Result['alone'] = null
let vectors: Float32Array[] = []
const texts = values.texts ? (JSON.parse(readFileSync(values.texts, 'utf8')) as Result).texts : sent
if (values.alone) {
  const embedder = core.useLiteEmbedder({ cacheSize: 0 })
  await embedder.warmUp()
  const load1 = loadavg()[0]!
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  vectors = await embedder.embed([...texts], AbortSignal.timeout(3_600_000))
  const ms = performance.now() - t0
  const cpuMs = cpuMsSince(cpu0)
  await embedder.close()
  alone = { texts: texts.length, ms, cpuMs, load1 }
  console.error(
    `embedder alone: ${texts.length} texts in ${(ms / 1000).toFixed(1)} s = ${((texts.length / ms) * 1000).toFixed(1)} texts/s (load ${load1.toFixed(1)})`,
  )
}
await extractor.close()
const result: Result = {
  root,
  server: { workers, workersPerBrain },
  runs,
  alone,
  texts,
  vectors: vectors.map((v) => Array.from(v)),
}
if (values.out) writeFileSync(values.out, JSON.stringify(result))
