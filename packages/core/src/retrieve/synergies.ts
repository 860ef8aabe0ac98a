import { notFound } from '../errors.js'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import type { Entity } from '../model/entity.js'
import { resolveTarget } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'
import { synergyScores } from './synergies-scores.js'

export interface SynergiesOptions {
  /** `same` (default): drop candidates of the opposite sign; `opposite`: keep only those. */
  polarity?: 'same' | 'opposite'
  /** `do`: direct seeds only. */
  directOnly?: boolean
  /** `pa`: return the remote seeds as `potentialAnchors`. */
  potentialAnchors?: boolean
  /** `ppa`: return the direct seeds as `anchors`. */
  anchors?: boolean
  /** Synergies returned (default 50). */
  topK?: number
  /** Candidate labels (any-match); default the target's own labels. */
  labels?: string[]
}

export interface Synergy {
  node: Entity
  associationScore: number
  connectedBy: Entity[]
}

export interface SynergiesResult {
  targetNode: Entity
  /** Direct seeds, when `anchors` was asked (else empty). */
  anchors: Entity[]
  /** Remote seeds, when `potentialAnchors` was asked (else empty). */
  potentialAnchors: Entity[]
  synergies: Synergy[]
}

/** Loads entity records for node numbers, in order, skipping any deleted since the index saw them. */
export async function entitiesOf(
  deps: RetrieveDeps,
  graph: GraphIndex,
  nodes: readonly number[],
): Promise<Entity[]> {
  const uuids = [...new Set(nodes.map((n) => graph.uuid[n]!))]
  const byUuid = new Map((await deps.store.entities.get(uuids)).map((e) => [e.uuid, e]))
  return nodes.flatMap((n) => {
    const e = byUuid.get(graph.uuid[n]!)
    return e === undefined ? [] : [e]
  })
}

/**
 * `GET /retrieve/entity/synergies` (CONTRACT.md section 6): nodes that share events or neighbours with
 * `target`, ranked by association score (see {@link synergyScores}). Unknown target -> 404.
 */
export async function synergies(
  deps: RetrieveDeps,
  target: string,
  options: SynergiesOptions = {},
): Promise<SynergiesResult> {
  const targetNode = await resolveTarget(deps, target)
  if (targetNode === null) throw notFound('Entity', target)
  const graph = await deps.indexes.graph.get(deps.store)
  const node = graph.node(targetNode.uuid)
  if (node === undefined) return { targetNode, anchors: [], potentialAnchors: [], synergies: [] }
  const result = await synergyScores(deps, graph, node, {
    polarity: options.polarity ?? 'same',
    directOnly: options.directOnly ?? false,
    findRemote: options.potentialAnchors ?? false,
    limit: Math.max(0, options.topK ?? 50),
    ...(options.labels !== undefined ? { labels: options.labels } : {}),
  })
  const top = result.scores
  const entities = new Map(
    (
      await entitiesOf(deps, graph, [
        ...top.flatMap((s) => [s.node, ...s.connectedBy]),
        ...(options.anchors ? result.anchors : []),
        ...(options.potentialAnchors ? result.potentialAnchors : []),
      ])
    ).map((e) => [e.uuid, e]),
  )
  const entity = (n: number) => entities.get(graph.uuid[n]!)
  const present = (nodes: number[]) => nodes.map(entity).filter((e): e is Entity => e !== undefined)
  return {
    targetNode,
    anchors: options.anchors ? present(result.anchors) : [],
    potentialAnchors: options.potentialAnchors ? present(result.potentialAnchors) : [],
    synergies: top.flatMap((s) => {
      const node = entity(s.node)
      return node === undefined
        ? []
        : [{ node, associationScore: s.score, connectedBy: present(s.connectedBy) }]
    }),
  }
}
