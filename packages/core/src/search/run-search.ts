import type {
  Candidate,
  ChannelList,
  ChannelPlugin,
  SearchContext,
  StagePlugin,
} from '../contracts/search-plugins.js'
import type { BrainStore } from '../contracts/storage-adapter.js'
import { EngramError } from '../errors.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { HitScores, SearchHit, SearchResponse } from '../model/search.js'
import type { PluginRegistry } from '../registry/plugin-registry.js'
import { tokenize } from '../analysis/analyze.js'
import { extrasOf, facetsOf, matchesExtras, type Extras } from './extras.js'
import { blendPreferences, personalizationWeight } from './personalization-gate.js'
import { candidateDepth, type SearchRequest } from './search-request.js'
import { snippetMaker } from './snippet.js'
import type { StageTimer } from './stage-timer.js'

export interface SearchDeps {
  registry: PluginRegistry
  store: BrainStore
  ctx: SearchContext
  timer: StageTimer
  /** Preference of `target` for each entity uuid (personalization); absent when not requested. */
  preferences?: (target: string, uuids: string[]) => Promise<Map<string, number>>
}

/** How many fused candidates a rerank stage rescores. */
const RERANK_HEAD = 50
const MAX_EXPANSION_SEEDS = 20

const BUILTIN_CHANNELS = new Set(['passages', 'entities', 'events', 'communities'])

/** `passages` etc. name built-ins; `plugin:<name>` (or a bare registered name) names a plugin channel. */
function resolveChannel(registry: PluginRegistry, raw: string): ChannelPlugin {
  const name = raw.startsWith('plugin:') ? raw.slice(7) : raw
  if (raw.startsWith('plugin:') && BUILTIN_CHANNELS.has(name)) throw unknownChannel(registry, raw)
  try {
    return registry.resolve('channel', name)
  } catch {
    throw unknownChannel(registry, raw)
  }
}

/** The request name of a channel: built-ins by name, plugins as `plugin:<name>`. */
function channelName(channel: ChannelPlugin): string {
  return BUILTIN_CHANNELS.has(channel.name) ? channel.name : `plugin:${channel.name}`
}

function unknownChannel(registry: PluginRegistry, raw: string): EngramError {
  const loaded = registry.names('channel').map((n) => (BUILTIN_CHANNELS.has(n) ? n : `plugin:${n}`))
  return new EngramError(
    'VALIDATION_ERROR',
    `Unknown search channel '${raw}'. Loaded: ${loaded.join(', ') || '(none)'}.`,
    {
      status: 400,
      resolution: `Use one of: ${loaded.join(', ')}.`,
    },
  )
}

/**
 * The search pipeline (DESIGN.md section 3): channels -> fusion -> optional neighbour expansion ->
 * stages (rerank, personalization) -> hydration with snippets, extras and facets, cut to k.
 */
export async function runSearch(request: SearchRequest, deps: SearchDeps): Promise<SearchResponse> {
  const { registry, store, ctx, timer } = deps
  const channels = [...new Set(request.channels.length > 0 ? request.channels : ['passages'])].map(
    (c) => resolveChannel(registry, c),
  )
  const fusion = registry.resolveRequest('fusion', request.fusion)
  const rerank: StagePlugin | null =
    request.rerank === 'none' ? null : resolveRerank(registry, request.rerank)
  if (rerank !== null) checkRequirements(rerank, request.rerank, ctx)
  const depth = candidateDepth(request)

  const lists: ChannelList[] = []
  const listChannel = new Map<ChannelList, string>()
  await timer.time('search.retrieve', async () => {
    for (const channel of channels) {
      for (const list of await channel.search(
        {
          text: request.query,
          depth,
          ...(request.nodeLabels ? { nodeLabels: request.nodeLabels } : {}),
          ...(request.communityLabels ? { communityLabels: request.communityLabels } : {}),
        },
        ctx,
      )) {
        const name = channelName(channel)
        const named = name.startsWith('plugin:')
          ? { ...list, name, signal: 'plugin' as const }
          : list
        lists.push(named)
        listChannel.set(named, name)
      }
    }
  })

  let fused: Candidate[] = timer.timeSync('search.fusion', () =>
    fusion.fuse(lists, request.fusionAlpha === undefined ? {} : { alpha: request.fusionAlpha }),
  )
  const graphIds = new Set(
    lists.filter((l) => l.signal === 'graph').flatMap((l) => l.items.map((i) => i.id)),
  )

  let neighbors: ChannelList | null = null
  if (request.expand === 'neighbors') {
    neighbors = await timer.time('search.expand', () =>
      expandNeighbors(
        fused.filter((c) => graphIds.has(c.id)).slice(0, MAX_EXPANSION_SEEDS),
        new Set(fused.map((c) => c.id)),
        ctx,
      ),
    )
    fused = mergeByScore(fused, neighbors.items)
  }

  // Hits come from the first max(depth, 5k) fused candidates that have a record (and pass the extras
  // filter). Rerank and personalization read all of them, and a filter may reject most, so those load
  // the whole window at once; a plain search loads records in rank order, k at a time, until it has k
  // hits: it parses about k rows instead of five times as many (hydration was the largest cost of a
  // BM25 search over HTTP).
  const window = fused.slice(0, Math.max(depth, request.k * 5))
  const personalizing = request.target !== undefined && deps.preferences !== undefined
  const filtering = request.extras !== undefined && Object.keys(request.extras).length > 0
  const eager = rerank !== null || personalizing || filtering
  const records = new Map<string, HitRecord>()
  let hydrated = 0
  const hydrateThrough = async (end: number) => {
    if (end <= hydrated) return
    const ids = window.slice(hydrated, end).map((c) => c.id)
    hydrated = Math.min(end, window.length)
    await timer.time('search.hydrate', () => loadRecords(store, ids, records))
  }
  if (eager) await hydrateThrough(window.length)
  let ranked = eager ? window.filter((c) => records.has(c.id)) : window

  const rerankScores = new Map<string, number>()
  if (rerank !== null && ranked.length > 0) {
    const head = ranked.slice(0, RERANK_HEAD)
    const scores = await timer.time('search.rerank', () =>
      rerank.run(
        request.query,
        head.map((c) => ({ id: c.id, score: c.score, ...recordText(records.get(c.id)!) })),
        ctx,
      ),
    )
    for (const [id, s] of scores) rerankScores.set(id, s)
    const rescored = head
      .filter((c) => scores.has(c.id))
      .sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || (a.id < b.id ? -1 : 1))
    ranked = [...rescored, ...head.filter((c) => !scores.has(c.id)), ...ranked.slice(RERANK_HEAD)]
  }

  const personalize = new Map<string, number>()
  if (personalizing) {
    const lambda = personalizationWeight(request.query)
    const entityIds = ranked.filter((c) => records.get(c.id)!.kind === 'entity').map((c) => c.id)
    const prefs = await timer.time('search.personalize', () =>
      deps.preferences!(request.target!, entityIds),
    )
    const base = ranked.map((c) => ({ ...c, score: rerankScores.get(c.id) ?? c.score }))
    const blended = blendPreferences(
      base,
      base.map((c) => prefs.get(c.id) ?? 0),
      lambda,
    )
    if (lambda > 0 && [...prefs.values()].some((v) => v > 0))
      for (const { hit, score } of blended) personalize.set(hit.id, score)
    ranked = blended.map(({ hit }) => ranked.find((c) => c.id === hit.id)!)
  }

  const snippet = snippetMaker(tokenize(request.query))
  const fusedName = fusion.name === 'rrf' || fusion.name === 'cc' ? fusion.name : null
  const hits: SearchHit[] = []
  for (let i = 0; i < ranked.length && hits.length < request.k; i++) {
    const candidate = ranked[i]!
    // The next records in rank order, enough to fill the remaining hits if all of them qualify.
    if (i >= hydrated) await hydrateThrough(i + request.k - hits.length)
    const record = records.get(candidate.id)
    if (record === undefined) continue
    const extras = record.extras
    if (!matchesExtras(extras, request.extras)) continue
    const scores: HitScores = {}
    let channel = neighbors?.items.some((item) => item.id === candidate.id) ? 'neighbors' : ''
    for (const list of lists) {
      const item = list.items.find((listed) => listed.id === candidate.id)
      if (item === undefined) continue
      if (list.signal === 'plugin')
        (scores.plugin ??= {})[list.name.replace(/^plugin:/, '')] = item.score
      else if (list.signal === 'graph')
        scores.graph = Math.max(scores.graph ?? -Infinity, item.score)
      else scores[list.signal] = item.score
      const owner = listChannel.get(list)!
      if (channel === '' || (owner === 'passages' && channel !== 'passages')) channel = owner
    }
    if (fusedName !== null) scores[fusedName] = candidate.score
    if (rerankScores.has(candidate.id)) scores.rerank = rerankScores.get(candidate.id)!
    if (personalize.has(candidate.id)) scores.personalize = personalize.get(candidate.id)!
    hits.push({
      id: candidate.id,
      nodeId: record.nodeId,
      channel: channel || 'passages',
      labels: record.labels,
      score: scores.personalize ?? scores.rerank ?? candidate.score,
      scores,
      snippet: snippet(record.text),
      extras,
    })
  }

  const channelLists: Record<string, string[]> = {}
  for (const list of lists) channelLists[list.name] = list.items.map((i) => i.id)
  if (neighbors !== null) channelLists.neighbors = neighbors.items.map((i) => i.id)
  return {
    hits,
    nodeIds: hits.map((h) => h.nodeId),
    channelLists,
    facets: facetsOf(hits),
    stageTimings: request.profileStages ? timer.report() : null,
  }
}

function resolveRerank(registry: PluginRegistry, raw: string): StagePlugin {
  if (!raw.startsWith('plugin:')) {
    throw new EngramError(
      'VALIDATION_ERROR',
      `rerank must be 'none' or 'plugin:<name>' (got '${raw}').`,
      {
        status: 400,
        resolution: `Use one of: none, ${registry
          .names('stage')
          .map((n) => `plugin:${n}`)
          .join(', ')}.`,
      },
    )
  }
  return registry.resolveRequest('stage', raw)
}

/**
 * A stage that needs embeddings (e.g. `plugin:dense`) is refused up front with a 400 when the search
 * has none (no embedder configured, a lexical-only search, or a brain without vectors), instead of
 * silently changing nothing.
 */
function checkRequirements(stage: StagePlugin, raw: string, ctx: SearchContext): void {
  const missing = (stage.requires ?? []).filter((reader) => ctx[reader] === null)
  if (missing.length === 0) return
  throw new EngramError(
    'VALIDATION_ERROR',
    `rerank '${raw}' needs an embedder (query embeddings and stored vectors), and this search has none: the server runs without an embedder, the search is lexical-only, or the brain has no vectors.`,
    {
      status: 400,
      resolution: `Configure an embedder for the server (use-lite, openai or transformers), or use rerank=none.`,
    },
  )
}

interface HitRecord {
  kind: 'passage' | 'entity'
  nodeId: string
  labels: string[]
  text: string
  extras: Extras
  entity: Entity | null
}

function recordText(record: HitRecord): { text: string; entity: Entity | null } {
  return { text: record.text, entity: record.entity }
}

/** Loads the records of `ids` (passages first, then entities) into `out`; unknown ids stay absent. */
async function loadRecords(
  store: BrainStore,
  ids: string[],
  out: Map<string, HitRecord>,
): Promise<void> {
  const passages: Passage[] = await store.passages.get(ids)
  for (const p of passages) {
    const nodeId =
      typeof p.metadata.node_id === 'string'
        ? p.metadata.node_id
        : typeof p.metadata.doc_id === 'string'
          ? p.metadata.doc_id
          : p.id
    out.set(p.id, {
      kind: 'passage',
      nodeId,
      labels: ['PASSAGE'],
      text: p.text,
      extras: extrasOf(p.metadata),
      entity: null,
    })
  }
  const rest = ids.filter((id) => !out.has(id))
  for (const e of rest.length > 0 ? await store.entities.get(rest) : []) {
    out.set(e.uuid, {
      kind: 'entity',
      nodeId: e.uuid,
      labels: e.labels,
      text: e.description ? `${e.name}: ${e.description}` : e.name,
      extras: {
        ...extrasOf(e.properties),
        name: e.name,
        ...(e.happenedAt ? { happened_at: e.happenedAt } : {}),
      },
      entity: e,
    })
  }
}

/**
 * Interleaves expansion candidates into the fused ranking by score (a neighbour scores at most its
 * seed's score / log2(3), so it lands below its seed). Appending them after every fused candidate, as
 * this once did, kept them out of any top k the fused list could fill. Stable: on equal scores a fused
 * candidate stays ahead of a neighbour, and neighbours keep their own order.
 */
export function mergeByScore(fused: Candidate[], expansion: readonly Candidate[]): Candidate[] {
  const merged: Candidate[] = []
  let i = 0
  let j = 0
  while (i < fused.length || j < expansion.length) {
    if (j >= expansion.length || (i < fused.length && fused[i]!.score >= expansion[j]!.score))
      merged.push(fused[i++]!)
    else merged.push(expansion[j++]!)
  }
  return merged
}

/**
 * One hop from graph seeds: each neighbour scores seed score / log2(2 + its degree), so hubs that touch
 * everything do not flood the list (an IDF-like damping, as the original's degree-IDF).
 */
async function expandNeighbors(
  seeds: Candidate[],
  present: Set<string>,
  ctx: SearchContext,
): Promise<ChannelList> {
  const scores = new Map<string, number>()
  for (const seed of seeds) {
    for (const rel of await ctx.graph.relationshipsOf(seed.id)) {
      const other = rel.subjectUuid === seed.id ? rel.objectUuid : rel.subjectUuid
      if (present.has(other) || rel.deprecated) continue
      const degree = (await ctx.graph.relationshipsOf(other)).length
      const score = seed.score / Math.log2(2 + degree)
      if (score > (scores.get(other) ?? -Infinity)) scores.set(other, score)
    }
  }
  return {
    name: 'neighbors',
    signal: 'graph',
    items: [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)),
  }
}
