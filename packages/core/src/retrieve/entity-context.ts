import { notFound } from '../errors.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { NeighborsOf } from './neighbors-of.js'
import { resolveTarget } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** One edge of the neighbourhood tree and what lies beyond it. */
export interface ContextBranch {
  predicate: Relationship
  node: Entity
  /** `out`: the parent is the subject; `in`: the parent is the object. */
  direction: 'out' | 'in'
  /** Empty at the depth limit, at a node already placed elsewhere in the tree, or past the caps. */
  neighbors: ContextBranch[]
}

/**
 * One entry of `natural_language_web`, the original's shape (original-notes.md section A.7):
 * `{description, information_direction, <PREDICATE>: {<node name>: <node description>, info}}` where
 * `info` holds the entries one level further. Where the original had null (a leaf's `info`, an unset
 * description) this has `[]` and `""`: the wire carries no null (docs/wire-format.md).
 */
export type WebEntry = Record<string, unknown>

export interface EntityContext {
  targetNode: Entity
  neighborhood: ContextBranch[]
  naturalLanguageWeb: WebEntry[]
  /** Distinct non-empty descriptions of the target, the nodes and the predicates, nearest first. */
  textContexts: string[]
}

/** Children kept per node (newest edges first). */
export const CONTEXT_FAN_OUT = 20
/** Nodes placed in the whole tree. */
export const CONTEXT_MAX_NODES = 400
const MAX_TEXTS = 200

/**
 * `GET /retrieve/entity/context`: the neighbourhood of `target` to `depth` (1..5) as a tree, built
 * breadth first so every node sits at its shortest distance from the target and appears once (the
 * tree is cycle-free), with at most {@link CONTEXT_FAN_OUT} children per node and
 * {@link CONTEXT_MAX_NODES} nodes overall. The original recursed per path with no fan-out cap and
 * answered 500 for an unknown target (original-notes.md section A.7); here that is a 404.
 */
export async function entityContext(
  deps: RetrieveDeps,
  target: string,
  depth: number,
): Promise<EntityContext> {
  const root = await resolveTarget(deps, target)
  if (root === null) throw notFound('Entity', target)
  const graph = new NeighborsOf(deps.store)
  graph.remember([root])
  const placed = new Set([root.uuid])
  const neighborhood: ContextBranch[] = []
  let frontier: { uuid: string; children: ContextBranch[] }[] = [
    { uuid: root.uuid, children: neighborhood },
  ]
  const maxDepth = Math.max(1, Math.min(5, Math.floor(depth)))
  for (let level = 0; level < maxDepth && frontier.length > 0; level++) {
    const next: typeof frontier = []
    for (const parent of frontier) {
      let kept = 0
      for (const edge of await graph.of(parent.uuid)) {
        if (kept >= CONTEXT_FAN_OUT || placed.size >= CONTEXT_MAX_NODES) break
        if (placed.has(edge.node.uuid)) continue
        placed.add(edge.node.uuid)
        kept++
        const branch: ContextBranch = {
          predicate: edge.relationship,
          node: edge.node,
          direction: edge.direction,
          neighbors: [],
        }
        parent.children.push(branch)
        next.push({ uuid: edge.node.uuid, children: branch.neighbors })
      }
    }
    frontier = next
  }
  return {
    targetNode: root,
    neighborhood,
    naturalLanguageWeb: neighborhood.map(webEntry),
    textContexts: textContexts(root, neighborhood),
  }
}

function webEntry(branch: ContextBranch): WebEntry {
  return {
    description: branch.predicate.description ?? '',
    information_direction: branch.direction === 'out' ? 'outgoing' : 'incoming',
    [branch.predicate.name]: {
      [branch.node.name]: branch.node.description ?? '',
      info: branch.neighbors.map(webEntry),
    },
  }
}

function textContexts(root: Entity, neighborhood: ContextBranch[]): string[] {
  const out = new Set<string>()
  const add = (text: string | null) => {
    const t = text?.trim()
    if (t && out.size < MAX_TEXTS) out.add(t)
  }
  add(root.description)
  let level = neighborhood
  while (level.length > 0 && out.size < MAX_TEXTS) {
    for (const b of level) {
      add(b.predicate.description)
      add(b.node.description)
    }
    level = level.flatMap((b) => b.neighbors)
  }
  return [...out]
}
