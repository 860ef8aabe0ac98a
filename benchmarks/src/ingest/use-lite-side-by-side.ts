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
 * Every run: server defaults (5 tasks at once, 4 per brain, local extractor on 2 worker threads), after
 * an unreported pass of the same tasks without the embedder (JIT warm-up),
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
    /** Only the workload whose label starts with this. */
    only: { type: 'string' },
    /** Also time the embedder alone on the session texts (`--texts` or this run's). */
    alone: { type: 'boolean', default: false },
  },
})
const root = resolve(values.root ?? '.')
const core = (await import(join(root, 'packages/core/src/index.ts'))) as typeof Core
const { sqliteAdapter } = (await import(
  join(root, 'adapters/sqlite/src/index.ts')
)) as typeof Sqlite

// One extractor pool for the process, as a server keeps one (started before any timing).
const extractor = core.localExtractorPool({ workers: 2 })
await extractor.warmUp()

async function ingest(
  label: string,
  specs: readonly IngestTaskSpec[],
  embedder: Core.Embedder | null,
) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-side-by-side-'))
  const engram = core.createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    defaultBrain: null,
    workers: 5,
    workersPerBrain: 4,
    maxPendingTasks: specs.length + 1,
    embedder,
    extractor,
  })
  try {
    await engram.start()
    const brains = [...new Set(specs.map((s) => s.brainId))]
    for (const brainId of brains) await engram.brains.create(brainId)
    const load1 = loadavg()[0]!
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    for (const spec of specs)
      await engram.tasks.submit({
        brainId: spec.brainId,
        kind: core.INGEST_TEXT,
        payload: spec.payload,
      })
    await engram.tasks.idle()
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
      if (specs === sessions) sent.push(...texts)
      return embedder.embed(texts, signal, how)
    },
  }
  try {
    // A server that has been up a while has its code JIT-compiled (extraction workers included): one
    // unreported pass without the embedder first, as `npm run bench -- --ingest` does.
    await ingest(`${label} (warm-up, no embedder)`, specs, null)
    runs.push(await ingest(label, specs, recording))
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
const result: Result = { root, runs, alone, texts, vectors: vectors.map((v) => Array.from(v)) }
if (values.out) writeFileSync(values.out, JSON.stringify(result))
