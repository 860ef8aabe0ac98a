import type { EngramClient } from '@engram/client'
import { boundedMap } from './bounded-map.js'
import { atOf, factTime } from './fact-window.js'
import { LOAD_CONCURRENCY, toNode } from './neighbourhood-loader.js'
import type { ExplorerEdge, ExplorerNode } from './neighbourhood.js'

type EntityPage = Awaited<ReturnType<typeof listEntities>>
type RelationshipPage = Awaited<ReturnType<typeof listRelationships>>
type Page = { kind: 'e'; page: EntityPage } | { kind: 'r'; page: RelationshipPage }

const listEntities = (client: EngramClient, skip: number, signal?: AbortSignal) =>
  client.GET('/retrieve/entities', {
    params: { query: { limit: PAGE, skip } },
    ...(signal === undefined ? {} : { signal }),
  })
const listRelationships = (client: EngramClient, skip: number, signal?: AbortSignal) =>
  client.GET('/retrieve/relationships', {
    params: { query: { limit: PAGE, skip } },
    ...(signal === undefined ? {} : { signal }),
  })

/** Records per request (the list endpoints' maximum page size). */
const PAGE = 1000

/**
 * Every entity and relationship of the brain, or the first `maxNodes` entities and, of the first
 * `maxEdges` relationships, those between them.
 */
export interface BrainGraph {
  nodes: ExplorerNode[]
  edges: ExplorerEdge[]
  /** Entities in the brain (may exceed `nodes.length` when capped). */
  totalEntities: number
  /** Relationships in the brain (may exceed what was read when capped). */
  totalRelationships: number
  requests: number
}

/**
 * The whole brain through the spec's list endpoints: `GET /retrieve/entities` and
 * `GET /retrieve/relationships` page by page (1,000 records each, {@link LOAD_CONCURRENCY} pages in
 * flight once the first page gave the total). Edges whose ends were not loaded are dropped.
 *
 * The lists are not sliced by time (docs/time.md): every record comes with its window, so the time
 * is applied here. Facts (relationships and events) that had ended at `asOf` (now when absent) carry
 * an `ended` time and are drawn greyed; with `asOf`, facts that had not started yet are left out, as
 * the server leaves them out of an `as_of` question (without one, facts stated for the future stay).
 */
export async function loadBrainGraph(
  client: EngramClient,
  maxNodes: number,
  maxEdges: number,
  signal?: AbortSignal,
  asOf?: string,
): Promise<BrainGraph> {
  const at = atOf(asOf)
  const hidden = (state: string) => asOf !== undefined && state === 'future'
  const entityPage = (skip: number) => listEntities(client, skip, signal)
  const relationshipPage = (skip: number) => listRelationships(client, skip, signal)
  const [firstEntities, firstRelationships] = await Promise.all([
    entityPage(0),
    relationshipPage(0),
  ])
  const entityTotal = Math.min(firstEntities.total, maxNodes)
  const skips = (total: number) =>
    Array.from({ length: Math.max(0, Math.ceil(total / PAGE) - 1) }, (_, i) => (i + 1) * PAGE)
  const entitySkips = skips(entityTotal)
  const relationshipSkips = skips(Math.min(firstRelationships.total, maxEdges))
  const rest = await boundedMap(
    [
      ...entitySkips.map((s) => ['e', s] as const),
      ...relationshipSkips.map((s) => ['r', s] as const),
    ],
    LOAD_CONCURRENCY,
    async ([kind, skip]): Promise<Page> =>
      kind === 'e'
        ? { kind, page: await entityPage(skip) }
        : { kind, page: await relationshipPage(skip) },
  )
  const nodes: ExplorerNode[] = []
  const have = new Set<string>()
  const addNode = (e: EntityPage['entities'][number]) => {
    if (have.has(e.uuid) || nodes.length >= maxNodes) return
    const node = toNode(e, at)
    if (node.time !== undefined && hidden(node.time.state)) return
    have.add(e.uuid)
    nodes.push(node)
  }
  const entityPages = [firstEntities, ...rest.flatMap((p) => (p.kind === 'e' ? [p.page] : []))]
  for (const page of entityPages) for (const e of page.entities) addNode(e)
  const edges: ExplorerEdge[] = []
  const relationshipPages = [
    firstRelationships,
    ...rest.flatMap((p) => (p.kind === 'r' ? [p.page] : [])),
  ]
  for (const page of relationshipPages) {
    for (const t of page.relationships) {
      if (!have.has(t.subject.uuid) || !have.has(t.object.uuid)) continue
      const time = factTime(t.predicate, at)
      if (hidden(time.state)) continue
      edges.push({
        uuid: t.predicate.uuid,
        predicate: t.predicate.name,
        ends: [t.subject.uuid, t.object.uuid],
        ...(time.text !== '' || time.state !== 'valid' ? { time } : {}),
      })
    }
  }
  return {
    nodes,
    edges,
    totalEntities: firstEntities.total,
    totalRelationships: firstRelationships.total,
    requests: 2 + rest.length,
  }
}
