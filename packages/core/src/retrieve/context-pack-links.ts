import type { GraphIndex } from '../indexes/graph/graph-index.js'
import type { Fact } from './context-pack-facts.js'
import { factEntities } from './context-pack-rank.js'

/** Paths and topics returned at most. */
const MAX_PATHS = 20
const MAX_TOPICS = 5

/** The same statement (actor, predicate, target) dated differently by two or more events. */
export interface ConflictGroup {
  actor: number
  predicate: string
  target: number
  /** Facts in date order. */
  facts: Fact[]
  /** Distinct dates (ISO day), ascending. */
  days: string[]
}

/** Two events of the selection that share an entity. */
export interface BridgePath {
  hubs: [number, number]
  shared: number
  /** Mean relevance of the two best facts that meet there. */
  weight: number
  /** The legs touching the shared entity, one per hub. */
  legs: [number, number]
}

/** An entity the selected facts are about, with its summed relevance. */
export interface TopicScore {
  node: number
  score: number
  facts: number
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10)

/**
 * Temporal conflicts: the same (actor, predicate, target) asserted by two or more events or edges with
 * two or more distinct dates, e.g. "Alice moved to Berlin" dated 2020 and 2021. The original flagged any
 * entity seen in two events with two dates, which marks every entity that did two things on different
 * days; requiring the same statement keeps the contradictions (or true repetitions) only.
 */
export function temporalConflicts(graph: GraphIndex, facts: readonly Fact[]): ConflictGroup[] {
  const groups = new Map<string, Fact[]>()
  for (const f of facts) {
    if (f.actor === null || f.target === null || f.actorLeg === null || Number.isNaN(f.time))
      continue
    const predicate = graph.predicate[f.actorLeg]!
    const key = `${f.actor}|${predicate}|${f.target}`
    const list = groups.get(key) ?? []
    if (list.length === 0) groups.set(key, list)
    list.push(f)
  }
  const out: ConflictGroup[] = []
  for (const list of groups.values()) {
    const days = [...new Set(list.map((f) => day(f.time)))].sort()
    const distinctSources = new Set(list.map((f) => f.hub ?? f.actorLeg))
    if (days.length < 2 || distinctSources.size < 2) continue
    const first = list[0]!
    out.push({
      actor: first.actor!,
      predicate: graph.predicate[first.actorLeg!]!,
      target: first.target!,
      facts: [...list].sort((a, b) => a.time - b.time),
      days,
    })
  }
  return out
}

/**
 * Bridges between the selected events: every pair of hubs whose facts share an entity, weighted by
 * the mean relevance of their best facts (the original's `paths`, restricted to hubs that both made the
 * selection). Best first, at most {@link MAX_PATHS}.
 */
export function bridgePaths(graph: GraphIndex, selected: readonly Fact[]): BridgePath[] {
  const byEntity = new Map<number, Map<number, { fact: Fact; leg: number }>>()
  for (const f of selected) {
    if (f.hub === null) continue
    for (const [entity, leg] of [
      [f.actor, f.actorLeg],
      [f.target, f.leg],
    ] as const) {
      if (entity === null || leg === null || graph.isEvent[entity]) continue
      let hubs = byEntity.get(entity)
      if (hubs === undefined) byEntity.set(entity, (hubs = new Map()))
      const seen = hubs.get(f.hub)
      if (seen === undefined || seen.fact.relevance < f.relevance) hubs.set(f.hub, { fact: f, leg })
    }
  }
  // The best MAX_PATHS pairs, kept in order as they come (a pair goes after those it ties with, as
  // a stable sort of all pairs would put it): no object for the hundreds of pairs that never make it.
  const best: BridgePath[] = []
  for (const [entity, hubs] of byEntity) {
    const list = contenders([...hubs], MAX_PATHS + 1)
    for (let i = 0; i < list.length; i++) {
      const [ha, a] = list[i]!
      for (let j = i + 1; j < list.length; j++) {
        const [hb, b] = list[j]!
        const weight = (a.fact.relevance + b.fact.relevance) / 2
        let at = best.length
        while (at > 0 && precedes(weight, entity, ha, best[at - 1]!)) at--
        if (at === MAX_PATHS) continue
        best.splice(at, 0, { hubs: [ha, hb], shared: entity, weight, legs: [a.leg, b.leg] })
        if (best.length > MAX_PATHS) best.pop()
      }
    }
  }
  return best
}

/** Whether a pair goes before `path`: higher weight, then lower shared entity, then lower first hub. */
function precedes(weight: number, shared: number, firstHub: number, path: BridgePath): boolean {
  if (weight !== path.weight) return weight > path.weight
  return shared !== path.shared ? shared < path.shared : firstHub < path.hubs[0]
}

/**
 * The hubs of one entity that can be in one of the best pairs, in their order: all of them, or those
 * at least as relevant as the `keep`-th most relevant. With `keep` = {@link MAX_PATHS} + 1, a pair
 * with a hub below that weighs strictly less than each of the MAX_PATHS pairs of the most relevant hub
 * with the others above it, so it is never chosen, ties included. A person in all 40 facts of a pack
 * has 780 pairs of hubs (LoCoMo conv-26's packs: benchmarks/LOG.md, 2026-12-02).
 */
function contenders<T extends { fact: Fact }>(list: [number, T][], keep: number): [number, T][] {
  if (list.length <= keep) return list
  const threshold = list.map(([, h]) => h.fact.relevance).sort((a, b) => b - a)[keep - 1]!
  return list.filter(([, h]) => h.fact.relevance >= threshold)
}

/** The entities the selection is most about: relevance summed over the facts naming them. */
export function topicsOf(graph: GraphIndex, selected: readonly Fact[]): TopicScore[] {
  const scores = new Map<number, TopicScore>()
  for (const f of selected)
    for (const n of factEntities(graph, f)) {
      const t = scores.get(n) ?? { node: n, score: 0, facts: 0 }
      t.score += f.relevance
      t.facts++
      scores.set(n, t)
    }
  return [...scores.values()]
    .filter((t) => t.facts >= 2)
    .sort((a, b) => b.score - a.score || a.node - b.node)
    .slice(0, MAX_TOPICS)
}
