import { clipText } from '../analysis/one-spaced.js'
import { GRAPH_WALK_DEFAULTS, walkRank, type WalkReaders } from '../builtins/stages/graph-walk.js'
import {
  HOP_COVERAGE_DEFAULTS,
  hopsThrough,
  QUERY_COVERAGE_DEFAULTS,
} from '../builtins/stages/query-coverage.js'
import { isComposedQuestion, type NameSpread } from '../search/query-shape.js'
import { coverPackPassages } from './context-pack-coverage.js'
import { candidateDepth } from '../search/search-request.js'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import { walkFromSeeds } from '../indexes/graph/passage-walk.js'
import { sequenceNeighbours } from '../indexes/passage-sequence.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import { createStageTimer, type StageTimer } from '../search/stage-timer.js'
import { buildFacts, type Fact } from './context-pack-facts.js'
import { bridgePaths, temporalConflicts, topicsOf } from './context-pack-links.js'
import { supersededFacts, type FactWindow } from './context-pack-superseded.js'
import { personalizedPageRank } from './context-pack-ppr.js'
import { scoreFacts, selectFacts } from './context-pack-rank.js'
import { contextSeeds } from './context-pack-seeds.js'
import { factLine, sessionsOf, topicLine } from './context-pack-text.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/**
 * The pack orders its passages as the default search does (`defaultPipeline`): by the graph walk, and,
 * for a composed question (`isComposedQuestion`), by query coverage with a hop from the first passage
 * (`rerank=plugin:hops`). The hop finds the second passage of a multi-hop question (MuSiQue-100 source
 * passages R@5 0.5825 -> 0.6433) and costs single-turn memory questions (LoCoMo dev 0.6125 -> 0.5867),
 * which the question's shape tells apart (benchmarks/LOG.md, issue 27).
 */
export function packOrdering(
  text: string,
  options: Pick<ContextPackOptions, 'coverage' | 'hops'>,
  spread?: NameSpread,
): { coverage: boolean; hops: boolean } {
  const composed = isComposedQuestion(text, spread)
  return { coverage: options.coverage ?? composed, hops: options.hops ?? composed }
}

export interface ContextPackOptions {
  /** Facts returned (default 40). */
  maxFacts?: number
  /** Passages in `sourcePassages` and the text (default 8). */
  maxPassages?: number
  /** Passages in `historicalContext` (default 10). */
  historicalLimit?: number
  /** Rank with personalized PageRank (default true). */
  usePpr?: boolean
  /** Fill `stageTimings` (default false). */
  profileStages?: boolean
  /** Bridge events followed per strong hub (default 3, the original's `cross_event_bridges`). */
  crossEventBridges?: number
  /**
   * Re-order the first passages so they cover the text's words (`coverPackPassages`; default: for a
   * composed question, `packOrdering`).
   * Not a REST parameter: for libraries and ablations.
   */
  coverage?: boolean
  /**
   * With `coverage`, lead on from the first passage through the graph as `rerank=plugin:hops` does
   * (default: for a composed question, `packOrdering`). Not a REST parameter: for libraries and ablations.
   */
  hops?: boolean
}

export interface ContextTriple {
  /** The seed entity the fact was found from (`bridge:<name>` for a bridge fact). */
  identifiedEntity: string
  sourceChunkIds: string[]
  sourceSessionIds: string[]
  /** [actor, leg, event, leg, target] with missing parts left out; [subject, edge, object] when direct. */
  triple: (Entity | Relationship)[]
  relevance: number
  text: string
}

export interface TemporalConflict {
  entityUuid: string
  entityName: string
  predicate: string
  objectUuid: string
  objectName: string
  /** Event (or direct relationship) uuids asserting the statement, oldest first. */
  hubs: string[]
  /** Distinct ISO days, ascending. */
  happenedAts: string[]
  facts: string[]
  /**
   * `restated`: one statement asserted with different dates; `superseded`: a fact a newer one with
   * another object ended (docs/time.md), `hubs` old then new.
   */
  kind: 'restated' | 'superseded'
  /** The validity window of each hub, in the order of `hubs`. */
  windows: FactWindow[]
  /** For `superseded`: the fact that ended this one. */
  supersededBy: { hub: string; predicate: string; objectUuid: string; objectName: string } | null
}

export interface ContextPath {
  hubs: [string, string]
  sharedEntity: string
  sharedEntityName: string
  weight: number
  /** Uuids of the two legs that touch the shared entity. */
  legs: [string, string]
}

export interface ContextTopic {
  uuid: string
  name: string
  labels: string[]
  score: number
  facts: number
}

export interface ContextPack {
  textContext: string
  triples: ContextTriple[]
  graphSessionIds: string[]
  historicalContext: string[]
  sourcePassages: string[]
  /** Ids of `sourcePassages`, in the same order. */
  sourcePassageIds: string[]
  temporalConflicts: TemporalConflict[]
  paths: ContextPath[]
  topics: ContextTopic[]
  stageTimings: ReturnType<StageTimer['report']> | null
}

/** Questions about the past, order or changes keep superseded facts (marked); "now" questions do not. */
const HISTORY =
  /\b(order|chronolog\w*|previous(ly)?|before|earlier|used to|history|histor\w+|conflict\w*|changed?|have i|did i)\b/i
const CURRENT = /\b(now|currently|current|latest|today|these days)\b/i
const MAX_PASSAGE_CHARS = 1000

export function isHistoryQuestion(text: string): boolean {
  return HISTORY.test(text) && !CURRENT.test(text)
}

/**
 * `POST /retrieve/context`: an evidence pack for an LLM (CONTRACT.md section 6, original-notes.md
 * section A.7), in stages:
 *
 * 1. seeds from the entities, events and passages channels (`contextSeeds`);
 * 2. event-centred facts around them, with bridges to other events of the same entities (`buildFacts`);
 * 3. personalized PageRank over the fact graph (`personalizedPageRank`);
 * 4. relevance from seed similarity, PageRank, completeness and recency, then MMR to `maxFacts`
 *    (`scoreFacts`, `selectFacts`);
 * 5. passages (the text's passage candidates, fused as a search fuses them, re-ranked by the graph
 *    walk of `expand=neighbors` when `use_ppr`, the first ones ordered to cover the text's words and
 *    lead on from the first through the graph, as `rerank=plugin:hops` orders them), historical
 *    context, temporal conflicts, bridge paths and topics.
 *
 * The original's hard-coded benchmark queries and session regexes are not copied: sessions come from
 * passage metadata (`session_id` or `session`). Every field is present; arrays may be empty.
 */
export async function contextPack(
  deps: RetrieveDeps,
  text: string,
  options: ContextPackOptions = {},
): Promise<ContextPack> {
  const maxFacts = Math.max(0, Math.floor(options.maxFacts ?? 40))
  const maxPassages = Math.max(0, Math.floor(options.maxPassages ?? 8))
  const historicalLimit = Math.max(0, Math.floor(options.historicalLimit ?? 10))
  const usePpr = options.usePpr ?? true
  const timer = createStageTimer()
  const now = (deps.now?.() ?? new Date()).getTime()
  const history = isHistoryQuestion(text)

  const graph = await timer.time('context.graph', () => deps.indexes.graph.get(deps.store))
  const seedDepth = Math.max(24, maxPassages, historicalLimit)
  const seeds = await timer.time('context.seeds', () =>
    contextSeeds(deps, graph, text, {
      seeds: seedDepth,
      // The candidates a search for the pack's passages fuses (fusion normalises over the whole list,
      // so the same depth gives the same fused scores), re-ranked by the walk below.
      candidates: Math.max(24, historicalLimit, candidateDepth({ k: maxPassages })),
    }),
  )
  const facts = timer.timeSync('context.facts', () =>
    buildFacts(graph, seeds.nodes, {
      history,
      bridges: Math.max(0, options.crossEventBridges ?? 3),
    }),
  )
  if (usePpr)
    timer.timeSync('context.ppr', () => personalizedPageRank(graph, facts, seeds.nodes, text))
  // The pack's passages: with `use_ppr`, the text's passage candidates re-ranked by a walk over the
  // passage-entity graph from the same seeds (the graph stage of `expand=neighbors`), which also brings
  // in passages one entity away from them; without, the candidates as fused.
  const rankedPassages = usePpr
    ? await timer.time('context.walk', () =>
        walkRank(
          text,
          seeds.passages,
          packReaders(deps, graph),
          deps.graphWalk ?? GRAPH_WALK_DEFAULTS,
        ),
      )
    : seeds.passages
  const { coverage, hops } = packOrdering(text, options, (name) =>
    deps.indexes.passages.spread(name),
  )
  const { ranked: packPassages, loaded } = coverage
    ? await timer.time('context.coverage', () =>
        coverPackPassages(
          deps,
          text,
          rankedPassages,
          hops ? HOP_COVERAGE_DEFAULTS : QUERY_COVERAGE_DEFAULTS,
          // The pack's candidates are passages only.
          hops
            ? hopsThrough(
                async (seeds) => walkFromSeeds(graph, seeds),
                () => false,
              )
            : null,
        ),
      )
    : { ranked: rankedPassages, loaded: [] }

  const relationships = new Map<string, Relationship>()
  const loadRelationships = async (list: readonly Fact[]) => {
    const uuids = list
      .flatMap((f) => [f.actorLeg, f.leg])
      .filter((e): e is number => e !== null)
      .map((e) => graph.edgeUuid[e]!)
      .filter((u) => !relationships.has(u))
    for (const r of await deps.store.relationships.get([...new Set(uuids)]))
      relationships.set(r.uuid, r)
  }
  const selected = await timer.time('context.rank', async () => {
    scoreFacts(facts, now, usePpr)
    const pool = facts.slice(0, Math.max(maxFacts * 10, 200))
    // Shared sources from the graph's citations: the pool's relationship records (up to 800 read and
    // parsed per pack, a fifth of its time) are not needed to choose; only the chosen facts' are read.
    const sources = (f: Fact) => edgeSources(graph, f)
    const reserve = Math.min(maxFacts, Math.max(3, Math.floor(maxFacts / 4)))
    return selectFacts(graph, pool, maxFacts, reserve, sources)
  })

  // The report is taken once the last stage has ended (inside it, `context.hydrate` was left out).
  const pack = await timer.time('context.hydrate', async (): Promise<ContextPack> => {
    const conflicts = temporalConflicts(graph, facts)
    // Actors with an ended fact of their own: only those have superseded facts to read from the store.
    const actors = [
      ...new Set(
        selected.flatMap((f) =>
          f.actor !== null &&
          !graph.isEvent[f.actor] &&
          graph.adjacency[f.actor]!.some((e) => graph.subject[e] === f.actor && graph.hasEnded(e))
            ? [graph.uuid[f.actor]!]
            : [],
        ),
      ),
    ]
    const superseded = await supersededFacts(deps.allTime ?? deps.store, actors)
    const paths = bridgePaths(graph, selected)
    const topics = topicsOf(graph, selected)
    // The facts the pack shows: the chosen ones and those of its temporal conflicts.
    const shown = [...selected, ...conflicts.flatMap((c) => c.facts)]
    await loadRelationships(shown)
    const nodes = new Set<number>()
    for (const f of shown)
      for (const n of [f.actor, f.hub, f.target, f.via]) if (n !== null) nodes.add(n)
    for (const p of paths) nodes.add(p.shared)
    for (const t of topics) nodes.add(t.node)
    const entities = new Map(
      (await deps.store.entities.get([...nodes].map((n) => graph.uuid[n]!))).map((e) => [
        e.uuid,
        e,
      ]),
    )
    const entity = (n: number | null) => (n === null ? undefined : entities.get(graph.uuid[n]!))
    const relationship = (e: number | null) =>
      e === null ? undefined : relationships.get(graph.edgeUuid[e]!)

    // Passages: the text's own hits (fused, then walked), as the original ranked them. The
    // passages the chosen facts cite stay with their triples (`source_chunk_ids`): fusing them in
    // here, as this once did, let passages cited by facts MMR picked for diversity push the text's
    // best hits out (LoCoMo evidence in source_passages 0.49 -> 0.57 without them).
    const cited = selected.flatMap((f) => citations(graph, f, relationships))
    const sourceIds = packPassages.slice(0, maxPassages).map((c) => c.id)
    // The passages the coverage ordering read are not read again.
    const passages = new Map(loaded.map((p) => [p.id, p]))
    const unread = new Set([
      ...packPassages.slice(0, 2 * maxPassages + historicalLimit).map((p) => p.id),
      ...seeds.passages.slice(0, seedDepth).map((p) => p.id),
      ...cited,
    ])
    for (const id of passages.keys()) unread.delete(id)
    for (const p of await deps.store.passages.get([...unread])) passages.set(p.id, p)
    const sourcePassages = sourceIds
      .map((id) => passages.get(id))
      .filter((p): p is Passage => p !== undefined)

    const triples: ContextTriple[] = []
    const sessions = new Set<string>()
    for (const f of selected) {
      const parts = [
        entity(f.actor),
        relationship(f.actorLeg),
        entity(f.hub),
        relationship(f.leg),
        entity(f.target),
      ].filter((x): x is Entity | Relationship => x !== undefined)
      if (parts.length < 3) continue
      const chunks = citations(graph, f, relationships)
      const factSessions = sessionsOf(chunks.map((id) => passages.get(id)))
      for (const s of factSessions) sessions.add(s)
      const via = entity(f.via)
      triples.push({
        identifiedEntity: f.bridge ? `bridge:${via?.name ?? ''}` : (via?.name ?? ''),
        sourceChunkIds: chunks,
        sourceSessionIds: factSessions,
        triple: parts,
        relevance: f.relevance,
        text: factLine(f, entity, relationship, factSessions),
      })
    }

    const topicList: ContextTopic[] = topics.flatMap((t) => {
      const e = entity(t.node)
      return e === undefined
        ? []
        : [{ uuid: e.uuid, name: e.name, labels: e.labels, score: t.score, facts: t.facts }]
    })
    const textContext = [
      ...topics.map((t) => entity(t.node)).flatMap((e) => (e ? [topicLine(e)] : [])),
      ...sourcePassages.map((p) => `[passage] ${clip(p.text)}`),
      ...triples.map((t) => t.text),
    ].join('\n')

    return {
      textContext,
      triples,
      graphSessionIds: [...sessions].sort(),
      // Asked at a time, the facts outside their window there are listed as history too.
      historicalContext: [
        ...(await historical(deps, seeds.passages.slice(0, seedDepth), passages, historicalLimit)),
        ...(deps.time !== undefined ? superseded.map((s) => s.line) : []),
      ],
      sourcePassages: sourcePassages.map((p) => p.text),
      sourcePassageIds: sourcePassages.map((p) => p.id),
      temporalConflicts: [
        ...conflicts.flatMap((c): TemporalConflict[] => {
          const actor = entity(c.actor)
          const object = entity(c.target)
          if (actor === undefined || object === undefined) return []
          return [
            {
              entityUuid: actor.uuid,
              entityName: actor.name,
              predicate: c.predicate,
              objectUuid: object.uuid,
              objectName: object.name,
              hubs: c.facts.map((f) =>
                f.hub !== null ? graph.uuid[f.hub]! : graph.edgeUuid[f.actorLeg!]!,
              ),
              happenedAts: c.days,
              facts: c.facts.map((f) => factLine(f, entity, relationship, [])),
              kind: 'restated',
              windows: c.facts.map((f) => {
                const timed =
                  (f.hub !== null ? entity(f.hub) : undefined) ?? relationship(f.actorLeg)
                return { validAt: timed?.validAt ?? null, invalidAt: timed?.invalidAt ?? null }
              }),
              supersededBy: null,
            },
          ]
        }),
        ...superseded.map((s): TemporalConflict => ({
          entityUuid: s.actor.uuid,
          entityName: s.actor.name,
          predicate: s.predicate,
          objectUuid: s.object.uuid,
          objectName: s.object.name,
          hubs: [s.hub, s.by.hub],
          happenedAts: [
            ...new Set(
              [s.window.validAt, s.by.window.validAt].flatMap((d) => (d ? [d.slice(0, 10)] : [])),
            ),
          ].sort(),
          facts: [s.line],
          kind: 'superseded',
          windows: [s.window, s.by.window],
          supersededBy: {
            hub: s.by.hub,
            predicate: s.by.predicate,
            objectUuid: s.by.object.uuid,
            objectName: s.by.object.name,
          },
        })),
      ],
      paths: paths.flatMap((p) => {
        const shared = entity(p.shared)
        return shared === undefined
          ? []
          : [
              {
                hubs: [graph.uuid[p.hubs[0]]!, graph.uuid[p.hubs[1]]!] as [string, string],
                sharedEntity: shared.uuid,
                sharedEntityName: shared.name,
                weight: p.weight,
                legs: [graph.edgeUuid[p.legs[0]]!, graph.edgeUuid[p.legs[1]]!] as [string, string],
              },
            ]
      }),
      topics: topicList,
      stageTimings: null,
    }
  })
  if (options.profileStages) pack.stageTimings = timer.report()
  return pack
}

const clip = (text: string) => clipText(text, MAX_PASSAGE_CHARS)

/** The passages a fact's legs cite, from the graph (`GraphIndex.edgePassages`): a set, in no order. */
function edgeSources(graph: GraphIndex, f: Fact): Set<string> {
  const out = new Set<string>()
  for (const e of [f.actorLeg, f.leg])
    if (e !== null) for (const id of graph.edgePassages[e]!) out.add(id)
  return out
}

/** Passage ids a fact cites: the sources of its legs, in their records' order (`relationships`). */
function citations(
  graph: GraphIndex,
  f: Fact,
  relationships: ReadonlyMap<string, Relationship>,
): string[] {
  const out = new Set<string>()
  for (const e of [f.actorLeg, f.leg]) {
    if (e === null) continue
    for (const id of relationships.get(graph.edgeUuid[e]!)?.sourcePassageIds ?? []) out.add(id)
  }
  return [...out]
}

/**
 * Older evidence in time order: the text's best `limit` passages sorted by when they were written;
 * when the text matches no passage, the newest passages and structured records (as JSON) instead.
 */
async function historical(
  deps: RetrieveDeps,
  hits: { id: string }[],
  loaded: ReadonlyMap<string, Passage>,
  limit: number,
): Promise<string[]> {
  if (limit === 0) return []
  const top = hits
    .slice(0, limit)
    .map((h) => loaded.get(h.id))
    .filter((p): p is Passage => p !== undefined)
  if (top.length > 0)
    return top
      .sort((a, b) => a.insertedAt.localeCompare(b.insertedAt) || a.position - b.position)
      .map((p) => clip(p.text))
  const [passages, structured] = await Promise.all([
    deps.store.passages.list({ limit, skip: 0 }),
    deps.store.structured.list({ limit, skip: 0 }),
  ])
  return [
    ...passages.items.map((p) => clip(p.text)),
    ...structured.items.map((s) => clip(JSON.stringify(s.data))),
  ].slice(0, limit)
}

/** The graph walk readers of a context pack: the brain's indexes, the graph already loaded. */
function packReaders(deps: RetrieveDeps, graph: GraphIndex): WalkReaders {
  const { vectors, embed } = deps
  return {
    entities: (query, k) => deps.indexes.entities.search(query, k),
    denseEntities:
      vectors === null || embed === null
        ? null
        : async (query, k) => vectors.search('entities', await embed(query), k),
    walk: async (seeds, options) => walkFromSeeds(graph, seeds, options),
    sequenceNeighbours: async (ids) =>
      sequenceNeighbours(deps.indexes.lexical.sequence, ids, 'session'),
  }
}
