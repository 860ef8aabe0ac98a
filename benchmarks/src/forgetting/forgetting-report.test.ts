import { describe, expect, it } from 'vitest'
import { describeRenderedPage } from '../report/rendered-page.test-helper.js'
import type { ForgetLatencyResult, MemoryReading } from './forget-latency.js'
import { forgettingReport, forgettingVerdicts } from './forgetting-report.js'
import { FORGETTING_COMMAND, type ForgettingResult } from './forgetting-result.js'
import { graphDiffKinds } from './ghosts-report.js'
import type { ConversationGhosts, GhostQuery, NoGhostsResult } from './no-ghosts.js'

const summary = (p50: number) => ({ count: 3, p50, p95: p50 * 2, p99: p50 * 2, mean: p50 })
const memory = (passages: number, indexBytes: number): MemoryReading => ({
  passages,
  vectors: 0,
  indexBytes,
  parts: { lexical: indexBytes, passagesBm25: indexBytes, dense: 0, graph: 0, communities: 0 },
  rssMb: 500,
  heapMb: 300,
})

function latency(p50: number): ForgetLatencyResult {
  return {
    condition: 'none',
    size: 1000,
    seedMs: 10,
    indexMs: 20,
    load1: 1,
    runs: [1, 2, 3].map((n) => ({
      submitMs: 0.1,
      committedMs: n,
      unsearchableMs: p50 + n,
      extraSearches: 0,
      taskMs: p50 * 2,
      passages: 1,
      entities: 5,
    })),
    unsearchable: summary(p50),
    committed: summary(p50 - 1),
    task: summary(p50 * 2),
    submit: summary(0.1),
    before: memory(1000, 1_000_000),
    afterCycles: memory(1000, 1_003_000),
    bulk: 10,
    bulkIngested: memory(1010, 1_010_000),
    bulkForgotten: memory(1000, 1_011_000),
    bulkForgetMs: 100,
  }
}

const query = (outcome: GhostQuery['outcome']['default']): GhostQuery => ({
  id: 'q',
  outcome: { default: 'identical', neighbors: outcome },
  maxScoreDiff: { default: 0, neighbors: outcome === 'identical' ? 0 : 1e-6 },
})

function conversation(
  name: string,
  outcomes: GhostQuery['outcome']['default'][],
  graph: Record<string, number>,
  ghosts = 0,
): ConversationGhosts {
  const counts = {
    passages: 10,
    entities: 5,
    relationships: 2,
    observations: 1,
    sources: 2,
    bm25Docs: 10,
  }
  return {
    conversation: name,
    sessions: 4,
    forgotten: [2, 4],
    a: counts,
    b: counts,
    samePassageTexts: true,
    graphDiff: {
      counts: graph,
      examples: Object.keys(graph).map((what) => ({ what, a: 'Meal', b: 'meal' })),
    },
    keptQuestions: outcomes.length,
    differing: outcomes.filter((o) => o !== 'identical').map(query),
    examples: [],
    ghostHits: Array.from({ length: ghosts }, () => ({ query: 'q', mode: 'default', key: 'k' })),
    questionsSearched: outcomes.length + 1,
    forgetTasks: { completed: 2, passages: 10, entities: 3 },
  }
}

function ghosts(conversations: ConversationGhosts[]): NoGhostsResult {
  return { embedder: 'none', conversations, ingestMs: { a: 1, b: 1 }, forgetMs: 1 }
}

function result(p50: number, g: NoGhostsResult): ForgettingResult {
  return {
    environment: { cpu: 'cpu', cores: 2, memoryGb: 24, node: 'v20', os: 'linux', date: 'today' },
    loadBefore: [1, 1, 1],
    loadAfter: [1, 1, 1],
    runs: 3,
    latency: [latency(p50)],
    ghosts: [g],
    wallMs: { 'latency none': 1000 },
  }
}

describe('forgettingVerdicts', () => {
  it('judges the forget p50 against 50 ms, the rankings of A against B, and ghost hits', () => {
    const clean = ghosts([conversation('c1', ['identical', 'scores-differ'], { 'entity.name': 1 })])
    const ok = forgettingVerdicts(result(40, clean))
    expect(ok.map((v) => v.ok)).toEqual([true, true, true, true])
    expect(ok[2]!.measured).toBe('2 / 2 (1 with equal scores)')

    const bad = forgettingVerdicts(
      result(60, ghosts([conversation('c1', ['identical', 'hits-differ'], {}, 1)])),
    )
    expect(bad.map((v) => v.ok)).toEqual([false, true, false, false])
  })
})

describe('forgettingReport', () => {
  it('says whether every check is met and traces differences to graph differences', () => {
    const g = ghosts([
      conversation('c1', ['scores-differ'], { 'entity only in A': 1, 'entity only in B': 1 }),
      conversation('c2', ['identical'], {}),
    ])
    const text = forgettingReport(result(40, g), 'npm run bench -- --forgetting')
    expect(text).toContain('Every check is met.')
    expect(text).toContain('each of them a conversation whose stored graph differs')
    expect(forgettingReport(result(60, g), 'x')).toContain('Not every check is met')

    const unexplained = ghosts([conversation('c3', ['order-differs'], {})])
    expect(forgettingReport(result(40, unexplained), 'x')).toContain(
      '**c3 with no stored graph difference**',
    )
  })
})

describe('graphDiffKinds', () => {
  it('adds up each kind over conversations, A and B sides together, with its reason', () => {
    const kinds = graphDiffKinds(
      ghosts([
        conversation('c1', [], { 'entity only in A': 1, 'entity only in B': 2, 'entity.name': 3 }),
        conversation('c2', [], { 'entity.name': 4, 'entity.properties': 1 }),
      ]),
    )
    const byKind = Object.fromEntries(kinds.map((k) => [k.kind, k]))
    expect(byKind['entity only']!.count).toBe(3)
    expect(byKind['entity.name']!.count).toBe(7)
    expect(byKind['entity.name']!.example).toBe('"Meal" in A, "meal" in B (c1)')
    expect(byKind['entity.properties']!.reason).toMatch(/not explained here/)
  })
})

describeRenderedPage<ForgettingResult>('forgetting', (saved) =>
  forgettingReport(saved, FORGETTING_COMMAND),
)
