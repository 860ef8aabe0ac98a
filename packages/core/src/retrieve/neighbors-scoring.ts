import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { cosine } from '../vectors/cosine.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/**
 * Structural similarity of SCAN (Xu, Yuruk, Feng & Schweiger, "SCAN: a structural clustering algorithm
 * for networks", KDD 2007): |Γ(u) ∩ Γ(v)| / sqrt(|Γ(u)| · |Γ(v)|), where Γ(x) is the closed
 * neighbourhood (x and its neighbours). In [0, 1]; adjacent nodes score above 0 even with no common
 * neighbour, two nodes with the same neighbours score 1.
 */
export function structuralSimilarity(
  u: string,
  uNeighbors: ReadonlySet<string>,
  v: string,
  vNeighbors: ReadonlySet<string>,
): number {
  const gu = new Set(uNeighbors).add(u)
  const gv = new Set(vNeighbors).add(v)
  let shared = 0
  for (const x of gu) if (gv.has(x)) shared++
  return shared / Math.sqrt(gu.size * gv.size)
}

/** The text a node is matched on: name, aliases, labels and description. */
export function entityText(e: Entity): string {
  return [e.name, ...e.aliases, ...e.labels, e.description ?? ''].join(' ')
}

/** The text an edge is matched on: its predicate in words (`WORKS_AT` -> `works at`) and description. */
export function relationshipText(r: Relationship): string {
  return [r.name.replace(/_/g, ' ').toLowerCase(), r.description ?? ''].join(' ')
}

/**
 * Recency of a dated fact, as the original's entity-info scored it (original-notes.md section A.7):
 * 1 / (1 + ln(1 + days)). Undated facts get 0 here, not the original's 1, so a fact with no date never
 * outranks a dated one on recency alone.
 */
export function recency(happenedAt: string | null, now: Date): number {
  if (happenedAt === null) return 0
  const t = Date.parse(happenedAt)
  if (Number.isNaN(t)) return 0
  const days = Math.max(0, (now.getTime() - t) / 86_400_000)
  return 1 / (1 + Math.log(1 + days))
}

/**
 * Dense similarity of phrases to entities when the brain has vectors: for each phrase, cosine (clipped
 * to [0, 1]) with each entity's stored vector. Returns null without an embedder or vectors, so callers
 * fall back to lexical matching.
 */
export async function denseMatches(
  deps: RetrieveDeps,
  phrases: string[],
  uuids: string[],
): Promise<Map<string, number>[] | null> {
  if (deps.embed === null || deps.vectors === null || uuids.length === 0) return null
  const embed = deps.embed
  const [stored, queries] = await Promise.all([
    deps.vectors.get('entities', uuids),
    Promise.all(phrases.map((p) => embed(p))),
  ])
  if (stored.size === 0) return null
  return queries.map((q) => {
    const scores = new Map<string, number>()
    for (const [uuid, v] of stored) scores.set(uuid, Math.max(0, cosine(q, v)))
    return scores
  })
}
