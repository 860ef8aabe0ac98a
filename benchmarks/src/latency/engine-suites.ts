import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import {
  contextPack,
  createEngine,
  createRetrieveDeps,
  INGEST_TEXT,
  type Engram,
  type SearchRequest,
} from '@engram/core'
import { locomoTasks } from '../ingest/locomo-tasks.js'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'
import { fnv1a, syntheticEmbedder, syntheticUnitVector } from '../scale/synthetic-vectors.js'
import { openEngineBrain, type EngineBrain } from '../systems/engine-brain.js'
import { cycle, type LatencyFixture } from './latency-fixture.js'
import type { LatencySuite } from './latency-suites.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'engram-bench-latency-'))

function request(query: string, overrides: Partial<SearchRequest> = {}): SearchRequest {
  return {
    query,
    k: 10,
    channels: ['passages'],
    expand: 'none',
    fusion: 'none',
    rerank: 'none',
    profileStages: false,
    ...overrides,
  }
}

/** The engine-search task that runs the request `GET /retrieve/search` builds from `query` and `k` alone. */
export const HTTP_DEFAULT_TASK =
  'BM25 passages, as GET /retrieve/search runs it (the HTTP default: default fusion, expand auto, rerank auto)'

/** `SearchService.search` end to end (channels, fusion, hydration, snippets), as `/retrieve/search` runs it. */
export const engineSearchSuite: LatencySuite = {
  name: 'engine-search',
  stage: 'the search pipeline (`engram.search.search`), SQLite adapter, k=10',
  missing: null,
  async add(bench, fixture) {
    const lexicalDir = tempDir()
    const hybridDir = tempDir()
    const lexical = await openEngineBrain({ storage: sqliteAdapter({ dataDir: lexicalDir }) })
    await lexical.commitDocs(fixture.scifact.docs)
    const t0 = performance.now()
    const hybrid = await openEngineBrain({
      storage: sqliteAdapter({ dataDir: hybridDir }),
      embedder: syntheticEmbedder(),
    })
    await hybrid.commitDocs(fixture.scifact.docs, (d) => syntheticUnitVector(fnv1a(d.id)))
    const hybridMs = (performance.now() - t0).toFixed(0)
    const next = cycle(fixture.scifact.queries)
    const search = (brain: EngineBrain, overrides: Partial<SearchRequest>) => async () => {
      await brain.search.search(brain.brainId, request(next(), overrides))
    }
    bench.add('BM25 passages, fusion none', search(lexical, {}))
    bench.add('BM25 passages, fusion rrf', search(lexical, { fusion: 'rrf' }))
    bench.add(HTTP_DEFAULT_TASK, async () => {
      // What GET /retrieve/search?query=..&k=10 asks: no fusion named (the server's default), expand and
      // rerank `auto` (graph stage, coverage rerank), passages.
      await lexical.search.search(lexical.brainId, {
        query: next(),
        k: 10,
        channels: ['passages'],
        expand: 'auto',
        rerank: 'auto',
        profileStages: false,
      })
    })
    bench.add(
      'hybrid passages (BM25 + HNSW), rrf, excluding query embedding',
      search(hybrid, { fusion: 'rrf' }),
    )
    bench.add(
      'hybrid passages (BM25 + HNSW), cc, excluding query embedding',
      search(hybrid, { fusion: 'cc' }),
    )
    const reports: (StageTimingsReport | null)[] = []
    for (const q of fixture.scifact.queries) {
      const r = await lexical.search.search(
        lexical.brainId,
        request(q, { fusion: 'rrf', profileStages: true }),
      )
      reports.push(r.stageTimings as StageTimingsReport | null)
    }
    return {
      rows: stageRows(reports, 'queries', 'BM25 passages, rrf: '),
      note:
        `SciFact (${fixture.scifact.docs.length} passages committed through engram.commit); hybrid rows use SYNTHETIC 512-d ` +
        `passage vectors and an instant synthetic query embedder (commit + HNSW build ${hybridMs} ms), so they exclude the query ` +
        'embedding, which embed-query times on its own',
      async teardown() {
        await lexical.close()
        await hybrid.close()
        rmSync(lexicalDir, { recursive: true, force: true })
        rmSync(hybridDir, { recursive: true, force: true })
      },
    }
  },
}

interface StageTimingsReport {
  total_ms: number
  stages: { stage: string; wall_ms: number }[]
}

/** One LoCoMo conversation ingested by session through the real pipeline (local extractor), on SQLite. */
interface LocomoBrain {
  engram: Engram
  brainId: string
  /** Its questions, in order. */
  queries: string[]
  /** What was ingested, for the suite's note. */
  note: string
  close(): Promise<void>
}

/** `systemTokenHash`: for a suite that serves the brain through the app (`buildApp`) with a token. */
export async function ingestLocomoBrain(
  fixture: LatencyFixture,
  options: { systemTokenHash?: string } = {},
): Promise<LocomoBrain> {
  const dir = tempDir()
  const locomo = fixture.locomo()
  const group = locomo.groups[0]!
  const brainId = group.name
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    ...options,
  })
  await engram.start()
  await engram.brains.create(brainId)
  await engram.indexes.get(brainId)
  const t0 = performance.now()
  const tasks = locomoTasks({ ...locomo, groups: [group] }, 'session')
  for (const t of tasks)
    await engram.tasks.submit({ brainId, kind: INGEST_TEXT, payload: t.payload })
  await engram.tasks.idle()
  const ingestMs = (performance.now() - t0).toFixed(0)
  const stats = await (await engram.store(brainId)).stats()
  const queries = group.queries.map((q) => q.text)
  return {
    engram,
    brainId,
    queries,
    note:
      `LoCoMo ${brainId}: ${tasks.length} session tasks ingested in ${ingestMs} ms -> ${stats.passages} passages, ` +
      `${stats.entities} entities (incl. events), ${stats.relationships} relationships; its ${queries.length} questions round robin`,
    async close() {
      await engram.stop({ graceMs: 0 })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Wall time per pipeline stage (`profile_stages`, one call per query), as percentiles per stage and of the
 * total; `what` names the calls, `prefix` the request.
 */
function stageRows(
  reports: readonly (StageTimingsReport | null)[],
  what: string,
  prefix = '',
): { task: string; latency: LatencySummary }[] {
  const samples = new Map<string, number[]>()
  const add = (stage: string, ms: number) => {
    let list = samples.get(stage)
    if (!list) samples.set(stage, (list = []))
    list.push(ms)
  }
  for (const report of reports) {
    if (!report) continue
    for (const s of report.stages) add(s.stage, s.wall_ms)
    add('total', report.total_ms)
  }
  return [...samples].map(([stage, list]) => ({
    task: `${prefix}${stage} (stage_timings, ${list.length} ${what} once each)`,
    latency: summarizeLatency(list),
  }))
}

/**
 * Neighbour expansion (`expand=neighbors`) needs a graph: one LoCoMo conversation goes through the real
 * ingestion pipeline (local extractor), then its questions are searched over passages + entities with and
 * without expansion; the `search.expand` stage is also read from `stage_timings`.
 */
export const neighbourExpansionSuite: LatencySuite = {
  name: 'neighbour-expansion',
  stage: 'graph neighbour expansion of the fused hits (`expand=neighbors`), SQLite adapter',
  missing: null,
  async add(bench, fixture) {
    const brain = await ingestLocomoBrain(fixture)
    const { brainId, queries } = brain
    const search = brain.engram.search
    const graph = { channels: ['passages', 'entities'], fusion: 'rrf' }
    const next = cycle(queries)
    bench.add('passages + entities, rrf, expand none', async () => {
      await search.search(brainId, request(next(), { ...graph, expand: 'none' }))
    })
    bench.add('passages + entities, rrf, expand neighbors', async () => {
      await search.search(brainId, request(next(), { ...graph, expand: 'neighbors' }))
    })
    const expand: number[] = []
    for (const q of queries) {
      const response = await search.search(
        brainId,
        request(q, { ...graph, expand: 'neighbors', profileStages: true }),
      )
      const stages = (response.stageTimings?.stages ?? []) as { stage: string; wall_ms: number }[]
      const stage = stages.find((s) => s.stage === 'search.expand')
      if (stage) expand.push(stage.wall_ms)
    }
    return {
      note: brain.note,
      rows: [
        {
          task: `search.expand stage alone (stage_timings, ${expand.length} questions once each)`,
          latency: summarizeLatency(expand),
        },
      ],
      teardown: () => brain.close(),
    }
  },
}

/**
 * The context pack (`POST /retrieve/context`) as its route runs it: the request's dependencies built from
 * the engine (`createRetrieveDeps`), then `contextPack` with the route's defaults (`max_facts` 40,
 * `max_passages` 8, `historical_limit` 10, PPR on), over the same LoCoMo brain as neighbour-expansion
 * (without an embedder, so no query embedding); its stages are read from `stage_timings`.
 */
export const contextPackSuite: LatencySuite = {
  name: 'context-pack',
  stage: 'token-budgeted context pack (`POST /retrieve/context`), SQLite adapter',
  missing: null,
  async add(bench, fixture) {
    const brain = await ingestLocomoBrain(fixture)
    const { engram, brainId, queries } = brain
    const pack = (text: string, profileStages = false) =>
      createRetrieveDeps(engram, brainId).then((deps) => contextPack(deps, text, { profileStages }))
    const next = cycle(queries)
    bench.add(
      "context pack, the route's defaults (max_facts 40, max_passages 8, PPR)",
      async () => {
        await pack(next())
      },
    )
    const reports: (StageTimingsReport | null)[] = []
    for (const q of queries) reports.push((await pack(q, true)).stageTimings)
    return {
      note: brain.note,
      rows: stageRows(reports, 'questions'),
      teardown: () => brain.close(),
    }
  },
}
