import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import {
  createEngine,
  INGEST_TEXT,
  localExtractorPool,
  useLiteEmbedder,
  type Embedder,
} from '@engram/core'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { loadConfig } from '@engram/server'
import { loadLocomo } from '../loaders/locomo.js'
import { threadCpuMs } from '../run/proc-cpu.js'
import { locomoTasks, type IngestTaskSpec } from './locomo-tasks.js'

/**
 * Where a LoCoMo turn task's CPU goes, per thread (issue 27 item 3; the per-thread figures of
 * benchmarks/LOG.md): the turns of `use-lite-side-by-side.ts`'s turn workload (conv-26's first `--turns`),
 * ingested `--rounds` times into fresh brains by one engine with the server's defaults, the local extractor
 * on 2 worker threads and use-lite (cache off), after the same warm-up (the other conversations' turns).
 * Threads are named by when they appeared: the main thread (the event loop), the threads the process had
 * before any pool (V8's platform workers: garbage collection and compilation; libuv's), the extraction
 * workers, the embedder workers, and any other (SQLite's checkpoint worker). Linux only (procfs).
 *
 *   npx tsx --conditions=source benchmarks/src/ingest/turn-thread-cpu.ts --data ../shared/datasets
 *
 * `--calls FILE` also writes the timed rounds' embedder calls (their texts, as JSON), for looking at what
 * the pipeline embeds.
 */

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/datasets' },
    turns: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    'warm-up': { type: 'string' },
    calls: { type: 'string' },
  },
})

const tids = () => new Set(readdirSync('/proc/self/task').map(Number))
const role = new Map<number, string>()
const name = (found: Set<number>, label: string) => {
  for (const tid of found) if (!role.has(tid)) role.set(tid, label)
}
name(new Set([process.pid]), 'main thread (event loop)')
name(tids(), 'V8 platform and libuv threads')
const extractor = localExtractorPool({ workers: 2 })
await extractor.warmUp()
name(tids(), 'extraction workers')
const useLite = useLiteEmbedder({ cacheSize: 0 })
await useLite.warmUp()
name(tids(), 'embedder workers')

const calls: string[][] = []
let recording = false
const embedder: Embedder = {
  ...useLite,
  embed: (texts, signal, how) => {
    if (recording) calls.push([...texts])
    return useLite.embed(texts, signal, how)
  },
}

const locomo = loadLocomo(join(resolve(values.data!), 'locomo-dev'), 'locomo-dev')
const first = locomo.groups[0]!.name
const all = locomoTasks(locomo, 'turn')
const turns = all.filter((s) => s.brainId === first).slice(0, Number(values.turns))
const warmUp = all
  .filter((s) => s.brainId !== first)
  .slice(0, values['warm-up'] === undefined ? undefined : Number(values['warm-up']))

const { workers, workersPerBrain } = loadConfig({})
const dir = mkdtempSync(join(tmpdir(), 'engram-turn-cpu-'))
const engram = createEngine({
  storage: sqliteAdapter({ dataDir: dir }),
  version: 'bench',
  defaultBrain: null,
  workers,
  workersPerBrain,
  maxPendingTasks: turns.length + warmUp.length + 1,
  embedder,
  extractor,
})

async function ingest(specs: readonly IngestTaskSpec[], brainOf: (spec: IngestTaskSpec) => string) {
  for (const brainId of new Set(specs.map(brainOf))) await engram.brains.create(brainId)
  for (const spec of specs)
    await engram.tasks.submit({ brainId: brainOf(spec), kind: INGEST_TEXT, payload: spec.payload })
  await engram.tasks.idle()
}

function snapshot(): Map<number, number> {
  const out = new Map<number, number>()
  for (const tid of tids()) {
    const ms = threadCpuMs(process.pid, tid)
    if (ms !== null) out.set(tid, ms)
  }
  return out
}

try {
  await engram.start()
  await ingest(warmUp, (spec) => `warm-up-${spec.brainId}`)
  const byRole = new Map<string, number>()
  let wallMs = 0
  recording = true
  for (let round = 0; round < Number(values.rounds); round++) {
    const before = snapshot()
    const t0 = performance.now()
    await ingest(turns, (spec) => `${spec.brainId}-${round}`)
    wallMs += performance.now() - t0
    for (const [tid, ms] of snapshot()) {
      const label = role.get(tid) ?? 'other threads'
      byRole.set(label, (byRole.get(label) ?? 0) + ms - (before.get(tid) ?? 0))
    }
  }
  recording = false
  const n = turns.length * Number(values.rounds)
  const total = [...byRole.values()].reduce((a, b) => a + b, 0)
  console.log(
    `${n} turn tasks (${turns.length} x ${values.rounds}), ${((n / wallMs) * 1000).toFixed(1)} passages/s, ` +
      `${calls.length} embedder calls of ${calls.flat().length} texts`,
  )
  console.log('| threads | CPU ms per turn |\n|---|---|')
  for (const [label, ms] of [...byRole].sort((a, b) => b[1] - a[1]))
    console.log(`| ${label} | ${(ms / n).toFixed(2)} |`)
  console.log(`| all | ${(total / n).toFixed(2)} |`)
  if (values.calls !== undefined) writeFileSync(values.calls, JSON.stringify(calls))
} finally {
  await engram.stop({ graceMs: 0 })
  await useLite.close()
  await extractor.close()
  rmSync(dir, { recursive: true, force: true })
}
