import { analyze } from '../analysis/analyze.js'
import { notFound } from '../errors.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { NeighborsOf } from './neighbors-of.js'
import { cosine } from '../vectors/cosine.js'
import { entityText, recency, relationshipText } from './neighbors-scoring.js'
import { resolveTarget } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** One step of a path: the edge taken and the node it leads to. */
export interface PathStep {
  relationship: Relationship
  node: Entity
}

/** A scored path from the target (the original's MatchPath). */
export interface MatchPath {
  /** The node the path ends at (the target itself when nothing matched). */
  targetNode: Entity
  /** In [0, 1]: 0.8 * match + 0.2 * recency of the last step, times 0.85 per hop past the first. */
  similarity: number
  /** Empty when no path matches the query (the wire `path` is then `[]`). */
  steps: PathStep[]
  /** Runner-up paths ending at other nodes (at most 3; their own `children` are empty). */
  children: MatchPath[]
}

export interface EntityInfo {
  targetNode: Entity
  path: MatchPath
}

const FAN_OUT = 15
const MAX_PATHS = 3000
const RUNNERS_UP = 3
const HOP_PENALTY = 0.85
/** Embedding cosine from which the end node counts as matching without a shared term. */
const MIN_COSINE = 0.5

/**
 * `GET /retrieve/entity/info`: the path from `target` (up to `maxDepth` hops, 1..5) whose
 * relationships and nodes best answer `query`.
 *
 * The original walked greedily, one best edge per step by cosine of relationship vectors, and kept a
 * single (predicate, node) pair scored 0.6 * sim + 0.2 * recency (original-notes.md section A.7). Here
 * every simple path is enumerated (fan-out and path caps keep hubs cheap) and scored as a whole, so a
 * question that needs two hops ("the city of Alice's employer") can be answered:
 *
 * - match: share of the query's analysed terms found in the predicates, names, labels and
 *   descriptions along the path, counting only terms that some path covers and that are not the
 *   target's own name (so "where", "does" or "Alice" do not dilute it); with vectors, averaged with the
 *   cosine of the query and the end node's embedding;
 * - recency: 1 / (1 + ln(1 + days)) of the last step's date (0 when undated);
 * - similarity = (0.8 * match + 0.2 * recency) * 0.85^(hops - 1), so shorter paths win ties.
 *
 * Paths with no match are ignored; when none is left the path is empty with similarity 0.
 */
export async function entityInfo(
  deps: RetrieveDeps,
  target: string,
  query: string,
  maxDepth: number,
): Promise<EntityInfo> {
  const root = await resolveTarget(deps, target)
  if (root === null) throw notFound('Entity', target)
  const now = deps.now?.() ?? new Date()
  const own = new Set(analyze([root.name, ...root.aliases].join(' ')))
  const all = [...new Set(analyze(query))]
  const terms = all.some((t) => !own.has(t)) ? all.filter((t) => !own.has(t)) : all

  const graph = new NeighborsOf(deps.store)
  graph.remember([root])
  const termsOf = new Map<string, Set<string>>()
  const termSet = (key: string, text: () => string) => {
    let set = termsOf.get(key)
    if (set === undefined) {
      set = new Set(analyze(text()))
      termsOf.set(key, set)
    }
    return set
  }

  const paths: PathStep[][] = []
  const depth = Math.max(1, Math.min(5, Math.floor(maxDepth)))
  const walk = async (uuid: string, path: PathStep[], onPath: Set<string>) => {
    if (path.length >= depth || paths.length >= MAX_PATHS) return
    let taken = 0
    for (const edge of await graph.of(uuid)) {
      if (taken >= FAN_OUT || paths.length >= MAX_PATHS) break
      if (onPath.has(edge.node.uuid)) continue
      taken++
      const next = [...path, { relationship: edge.relationship, node: edge.node }]
      paths.push(next)
      onPath.add(edge.node.uuid)
      await walk(edge.node.uuid, next, onPath)
      onPath.delete(edge.node.uuid)
    }
  }
  await walk(root.uuid, [], new Set([root.uuid]))

  const dense = await denseScores(deps, query, paths)
  const coveredBy = paths.map((steps) => {
    const covered = new Set<string>()
    for (const { relationship, node } of steps) {
      for (const t of termSet(`r:${relationship.uuid}`, () => relationshipText(relationship)))
        covered.add(t)
      for (const t of termSet(`n:${node.uuid}`, () => entityText(node))) covered.add(t)
    }
    return covered
  })
  // Terms no path can cover ("where", "does") say nothing about which path is best: leave them out.
  const coverable = terms.filter((t) => coveredBy.some((c) => c.has(t)))
  const scored: { steps: PathStep[]; similarity: number }[] = []
  for (const [i, steps] of paths.entries()) {
    const covered = coveredBy[i]!
    const lexical =
      coverable.length === 0 ? 0 : coverable.filter((t) => covered.has(t)).length / coverable.length
    const end = steps[steps.length - 1]!
    const cos = dense?.get(end.node.uuid)
    if (lexical === 0 && (cos === undefined || cos < MIN_COSINE)) continue
    const match = cos === undefined ? lexical : (lexical + cos) / 2
    const fresh = recency(end.relationship.happenedAt ?? end.node.happenedAt, now)
    const similarity = (0.8 * match + 0.2 * fresh) * HOP_PENALTY ** (steps.length - 1)
    scored.push({ steps, similarity })
  }
  const endId = (p: PathStep[]) => p[p.length - 1]!.node.uuid
  scored.sort(
    (a, b) =>
      b.similarity - a.similarity ||
      a.steps.length - b.steps.length ||
      (endId(a.steps) < endId(b.steps) ? -1 : endId(a.steps) > endId(b.steps) ? 1 : 0),
  )

  const best = scored[0]
  if (best === undefined) {
    return { targetNode: root, path: { targetNode: root, similarity: 0, steps: [], children: [] } }
  }
  const endOf = (p: PathStep[]) => p[p.length - 1]!.node
  const ends = new Set([endOf(best.steps).uuid])
  const children: MatchPath[] = []
  for (const other of scored.slice(1)) {
    if (children.length >= RUNNERS_UP) break
    const end = endOf(other.steps)
    if (ends.has(end.uuid)) continue
    ends.add(end.uuid)
    children.push({
      targetNode: end,
      similarity: other.similarity,
      steps: other.steps,
      children: [],
    })
  }
  return {
    targetNode: root,
    path: {
      targetNode: endOf(best.steps),
      similarity: best.similarity,
      steps: best.steps,
      children,
    },
  }
}

/** Cosine (clipped at 0) of the query with each path end's vector; null without vectors. */
async function denseScores(
  deps: RetrieveDeps,
  query: string,
  paths: PathStep[][],
): Promise<Map<string, number> | null> {
  if (deps.embed === null || deps.vectors === null || paths.length === 0) return null
  const ends = [...new Set(paths.map((p) => p[p.length - 1]!.node.uuid))]
  const [q, vectors] = await Promise.all([deps.embed(query), deps.vectors.get('entities', ends)])
  const out = new Map<string, number>()
  for (const [uuid, v] of vectors) out.set(uuid, Math.max(0, cosine(q, v)))
  return out
}
