import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { localExtractorPool } from '@engram/core'
import { loadConfig } from '@engram/server'
import { locomoTasks, parseLocomoDate, type IngestTaskSpec } from '../ingest/locomo-tasks.js'
import { loadLocomo } from '../loaders/locomo.js'
import { resultDataPath } from '../report/write-report.js'
import { captureEnvironment } from '../run/environment.js'
import type { ConfigResult } from '../run/run-types.js'
import { asOfLatency, type TimeQuery } from './as-of-latency.js'
import { mulberry32 } from '../scale/synthetic-corpus.js'
import { movesCorpus, type MovesPerson } from './moves-corpus.js'
import { timedIngest, type KeptEngine, type TimedIngestRun } from './timed-ingest.js'
import { timeReport } from './time-report.js'
import {
  LOCOMO_CORPUS,
  TIME_CATEGORY_CONFIG,
  TIME_COMMAND,
  type TimeIngestCorpus,
  type TimeResult,
  type TimeSearchBrain,
} from './time-result.js'

/** The synthetic corpus: 2,000 people x (3 homes + 2 employers) = 10,000 one-sentence passages. */
const MOVES = { people: 2000, homes: 3, employers: 2 } as const
/** People of the synthetic brain asked about in the latency run (one question each). */
const MOVES_QUERIES = 600

/**
 * `npm run bench -- --time [rounds]`: issue 28's measured checks beside the per-category run.
 * Invalidation cost: LoCoMo dev turns and a SYNTHETIC moves corpus (moves-corpus.ts) ingested with and
 * without contradictions, alternating, `rounds` times each (timed-ingest.ts); then `as_of` / `known_at`
 * search latency on the last "with" brain of each (as-of-latency.ts). Writes results/data/time.json and
 * results/time.md (which also quotes the last run of locomo-dev.default per category).
 */
export async function runTimeBench(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
  rounds: number,
): Promise<TimeResult> {
  const started = performance.now()
  const environment = captureEnvironment()
  const loadBefore = loadavg()
  const server = loadConfig({})
  const settings = {
    workers: server.workers,
    workersPerBrain: server.workersPerBrain,
    extractorWorkers: server.extractorWorkers,
  }
  const locomo = loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev')
  const turns = locomoTasks(locomo, 'turn')
  const moves = movesCorpus(MOVES)
  const extractor = localExtractorPool({ workers: settings.extractorWorkers })
  const kept: KeptEngine[] = []
  try {
    await extractor.warmUp()
    // The system time halfway through each kept ingestion: `known_at` there sees about half the brain.
    const knownAt: string[] = []
    const run = async (
      specs: readonly IngestTaskSpec[],
      contradictions: boolean,
      keep: boolean,
    ) => {
      const { run: r, kept: k } = await timedIngest(specs, {
        contradictions,
        extractor,
        workers: settings.workers,
        workersPerBrain: settings.workersPerBrain,
        keep,
      })
      if (k !== null) {
        kept.push(k)
        knownAt.push(new Date((Date.parse(r.startedAt) + Date.parse(r.endedAt)) / 2).toISOString())
      }
      return r
    }
    log(`time warm-up: ${turns.length} LoCoMo turn tasks (not reported) ...`)
    await run(turns, true, false)

    const corpora: { name: string; description: string; specs: readonly IngestTaskSpec[] }[] = [
      {
        name: LOCOMO_CORPUS,
        description: `${turns.length.toLocaleString('en-US')} turns of the 5 LoCoMo dev conversations, one task per turn, one brain per conversation, the session date as \`source_timestamp\` (few single-valued facts: the realistic case).`,
        specs: turns,
      },
      {
        name: 'SYNTHETIC moves',
        description: `${MOVES.people.toLocaleString('en-US')} people, each with ${MOVES.homes} homes ("X lives in C." then "X moved to C.") and ${MOVES.employers} employers ("X works for E."), ${moves.tasks.length.toLocaleString('en-US')} one-sentence tasks in one brain, dated 60 to 460 days apart, arriving shuffled (benchmarks/src/time/moves-corpus.ts): nearly every task fills a slot someone already holds (the worst case).`,
        specs: moves.tasks,
      },
    ]
    const ingest: TimeIngestCorpus[] = []
    for (const corpus of corpora) {
      const runs: TimedIngestRun[] = []
      // with, without, without, with, ...: a drift in load falls on both alike.
      const order = Array.from({ length: rounds * 2 }, (_, i) => i % 4 === 0 || i % 4 === 3)
      const lastWith = order.lastIndexOf(true)
      for (const [i, contradictions] of order.entries()) {
        const keep = i === lastWith
        log(`time ingest ${corpus.name} ${contradictions ? 'with' : 'without'} ...`)
        const r = await run(corpus.specs, contradictions, keep)
        log(
          `  ${r.passages} passages in ${(r.wallMs / 1000).toFixed(2)} s = ${((r.passages / r.wallMs) * 1000).toFixed(1)}/s, ` +
            `CPU ${(r.cpuMs / r.passages).toFixed(2)} ms/passage, ended ${r.ended}, invalidations ${r.invalidations}, ` +
            `failed ${r.failed}, load ${r.load1.toFixed(2)}`,
        )
        runs.push(r)
      }
      ingest.push({ name: corpus.name, description: corpus.description, runs })
    }

    const search: TimeSearchBrain[] = []
    const [locomoEngine, movesEngine] = kept
    if (locomoEngine === undefined || movesEngine === undefined)
      throw new Error('time: the "with" brains were not kept')
    log(`time search: LoCoMo dev brains ...`)
    const locomoQueries: TimeQuery[] = locomo.groups.flatMap((g) => {
      const asOf = middleSessionDate(g.docs.map((d) => String(d.metadata?.session_date ?? '')))
      return g.queries.map((q) => ({
        brainId: g.name,
        query: q.text,
        asOf,
        knownAt: knownAt[0]!,
      }))
    })
    search.push({
      name: 'LoCoMo dev',
      description:
        'the 5 conversation brains of the last "with" ingestion of the LoCoMo turns; each conversation\'s questions (categories 1-4), `as_of` at the date of its middle session, `known_at` at the system time halfway through that ingestion.',
      passages: turns.length,
      queries: locomoQueries.length,
      conditions: await asOfLatency(locomoEngine.engram, locomoQueries),
    })
    log(`time search: SYNTHETIC moves brain ...`)
    const movesQueries = movesQuestions(moves.people, MOVES_QUERIES, knownAt[1]!)
    search.push({
      name: 'SYNTHETIC moves',
      description: `the one brain of the last "with" ingestion of the moves corpus; ${MOVES_QUERIES} people drawn at random (seeded), "Where does X live?" or "Who does X work for?", \`as_of\` between the person's second and third statements, \`known_at\` at the system time halfway through that ingestion.`,
      passages: moves.tasks.length,
      queries: movesQueries.length,
      conditions: await asOfLatency(movesEngine.engram, movesQueries),
    })
    for (const b of search)
      for (const c of b.conditions)
        log(
          `  ${b.name} ${c.condition}: p50 ${c.latency.p50.toFixed(2)} p95 ${c.latency.p95.toFixed(2)} ms, changed ${(c.changed * 100).toFixed(1)}%`,
        )

    const result: TimeResult = {
      environment,
      loadBefore,
      loadAfter: loadavg(),
      rounds,
      server: settings,
      ingest,
      search,
      wallMs: performance.now() - started,
    }
    mkdirSync(join(resultsDir, 'data'), { recursive: true })
    const data = join(resultsDir, 'data', 'time.json')
    writeFileSync(data, `${JSON.stringify(result, null, 2)}\n`)
    const file = join(resultsDir, 'time.md')
    writeFileSync(file, timeReport(result, categoryRun(resultsDir), TIME_COMMAND))
    log(`wrote ${file} and ${data}`)
    return result
  } finally {
    for (const k of kept) await k.close()
    await extractor.close()
  }
}

/** The saved run of locomo-dev.default, whose per-category numbers time.md quotes; undefined if none. */
export function categoryRun(resultsDir: string): ConfigResult | undefined {
  const file = resultDataPath(resultsDir, TIME_CATEGORY_CONFIG)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConfigResult) : undefined
}

/**
 * `--report`: results/time.md rendered again from results/data/time.json and the saved per-category run
 * (after either changes). Returns the file written, or null without saved data.
 */
export function rewriteTimeReport(resultsDir: string): string | null {
  const data = join(resultsDir, 'data', 'time.json')
  if (!existsSync(data)) return null
  const saved = JSON.parse(readFileSync(data, 'utf8')) as TimeResult
  const file = join(resultsDir, 'time.md')
  writeFileSync(file, timeReport(saved, categoryRun(resultsDir), TIME_COMMAND))
  return file
}

/** The session date (ISO) in the middle of a conversation's distinct session dates. */
function middleSessionDate(dates: readonly string[]): string {
  const parsed = [...new Set(dates)]
    .map((d) => parseLocomoDate(d))
    .filter((d): d is string => d !== null)
    .sort()
  return parsed[Math.floor(parsed.length / 2)] ?? new Date(0).toISOString()
}

/** One question per sampled person, about the slot of their second statement, between statements 2 and 3. */
function movesQuestions(people: readonly MovesPerson[], n: number, knownAt: string): TimeQuery[] {
  const random = mulberry32(2021)
  const picked = new Set<number>()
  while (picked.size < Math.min(n, people.length)) picked.add(Math.floor(random() * people.length))
  return [...picked].map((i) => {
    const p = people[i]!
    const [, second, third] = p.statements
    const asOf = new Date((Date.parse(second!.at) + Date.parse(third!.at)) / 2).toISOString()
    const query = second!.text.includes(' works for ')
      ? `Who does ${p.name} work for?`
      : `Where does ${p.name} live?`
    return { brainId: 'moves', query, asOf, knownAt }
  })
}
