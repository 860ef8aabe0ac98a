import type { GraphIndex } from '../indexes/graph/graph-index.js'

/** Edges read per seed, legs read per event, and candidate facts per request. */
const SEED_EDGE_CAP = 50
const HUB_LEG_CAP = 20
export const MAX_FACT_CANDIDATES = 3000
/** Hubs whose entities are followed to other events for bridge facts (the original: 12). */
const BRIDGE_SOURCE_HUBS = 12
/** A bridge fact is weaker evidence than the hub it hangs off. */
const BRIDGE_SEED_FACTOR = 0.75

/** Context legs place an event (where, within what) rather than saying what it did. */
const CONTEXT_LEG = /OCCURRED|WITHIN|HELD_IN|TOOK_PLACE|LOCATED/

export function isContextLeg(predicate: string): boolean {
  return CONTEXT_LEG.test(predicate)
}

/**
 * One event-centred fact: `actor -actorLeg-> hub -leg-> target` (the original's 5-tuple (n, r, m, r2,
 * b)), or a direct fact `actor -actorLeg-> target` with no hub. Either side of an event may be missing
 * (an event with no actor, or no target).
 */
export interface Fact {
  /** `actorLeg|leg` edge numbers (-1 when missing): facts are deduplicated on it. */
  key: string
  actor: number | null
  actorLeg: number | null
  hub: number | null
  leg: number | null
  target: number | null
  /** The target leg is a context leg (place, container). */
  context: boolean
  /** A leg is deprecated or has `invalid_at` (kept only for history questions). */
  superseded: boolean
  /** Reached by following an entity from a seed hub to another event. */
  bridge: boolean
  /** The seed node (or, for a bridge, the shared entity) that led to the fact. */
  via: number
  /** Seed weight of its nodes combined by noisy-OR, in [0, 1]. */
  seed: number
  /** When it happened (ms; NaN when undated). */
  time: number
  ppr: number
  relevance: number
}

/** The nodes of a fact (actor, hub, target), without gaps. */
export function factNodes(f: Fact): number[] {
  const out: number[] = []
  if (f.actor !== null) out.push(f.actor)
  if (f.hub !== null) out.push(f.hub)
  if (f.target !== null) out.push(f.target)
  return out
}

/**
 * Event-centred facts around the seeds (original-notes.md section A.7, steps 2, 4 and 5): for a seed
 * event, its facts; for a seed entity, the facts of every event it takes part in and its direct edges.
 * An event's facts pair each actor leg (x -> event) with each target or context leg (event -> y) of the
 * same flow key. With `bridges` > 0, entities of the strongest hubs are followed to up to that many
 * other events per hub ("bridges" between events sharing an entity). Superseded legs are dropped unless
 * `history`. Facts are unique per (actor leg, leg).
 */
export function buildFacts(
  graph: GraphIndex,
  seeds: ReadonlyMap<number, number>,
  options: { history: boolean; bridges: number },
): Fact[] {
  const facts = new Map<string, Fact>()
  const hubs = new Set<number>()
  const weightOf = (n: number | null) => (n === null ? 0 : (seeds.get(n) ?? 0))
  const usable = (e: number) => graph.usable(e) && (options.history || graph.valid[e]!)
  const add = (f: Omit<Fact, 'seed' | 'time' | 'ppr' | 'relevance'>, seed?: number) => {
    if (facts.size >= MAX_FACT_CANDIDATES || facts.has(f.key)) return
    // When it happened: its actor leg's time, else its leg's, else its hub's.
    let time = f.actorLeg === null ? Number.NaN : graph.edgeTime[f.actorLeg]!
    if (Number.isNaN(time) && f.leg !== null) time = graph.edgeTime[f.leg]!
    if (Number.isNaN(time) && f.hub !== null) time = graph.time[f.hub]!
    // Field by field: `{ ...f, seed, ... }` took V8's slow path on Node 20 (7-10 us a fact, 90% of the
    // stage on MuSiQue-100) and gave each fact a hidden class of its own, which PPR then read slowly.
    facts.set(f.key, {
      key: f.key,
      actor: f.actor,
      actorLeg: f.actorLeg,
      hub: f.hub,
      leg: f.leg,
      target: f.target,
      context: f.context,
      superseded: f.superseded,
      bridge: f.bridge,
      via: f.via,
      // Noisy-OR of the seed weights of its nodes: a fact matching two parts of the question
      // (the person and the event) beats one matching only the person.
      seed: seed ?? 1 - (1 - weightOf(f.actor)) * (1 - weightOf(f.hub)) * (1 - weightOf(f.target)),
      time,
      ppr: 0,
      relevance: 0,
    })
  }

  const addHub = (hub: number, via: number, bridge: boolean, seed?: number) => {
    if (hubs.has(hub)) return
    hubs.add(hub)
    // Pairs are formed over every leg, superseded or not, so that dropping a superseded actor leg
    // does not leave its event behind as an actor-less fact.
    const legs = graph.adjacency[hub]!.filter((e) => graph.usable(e)).slice(0, HUB_LEG_CAP)
    const actors = legs.filter((e) => graph.object[e] === hub)
    const targets = legs.filter((e) => graph.subject[e] === hub)
    const pairs: [number | null, number | null][] = []
    for (const a of actors)
      for (const t of targets) {
        const fa = graph.flowKey[a]
        const ft = graph.flowKey[t]
        if (fa === null || ft === null || fa === ft) pairs.push([a, t])
      }
    if (pairs.length === 0) {
      for (const a of actors) pairs.push([a, null])
      for (const t of targets) pairs.push([null, t])
    }
    for (const [a, t] of pairs) {
      const superseded = (a !== null && !graph.valid[a]) || (t !== null && !graph.valid[t])
      if (superseded && !options.history) continue
      add(
        {
          key: `${a ?? -1}|${t ?? -1}`,
          actor: a === null ? null : graph.subject[a]!,
          actorLeg: a,
          hub,
          leg: t,
          target: t === null ? null : graph.object[t]!,
          context: t !== null && isContextLeg(graph.predicate[t]!),
          superseded,
          bridge,
          via,
        },
        seed,
      )
    }
  }

  for (const seed of seeds.keys()) {
    if (graph.isEvent[seed]) {
      addHub(seed, seed, false)
      continue
    }
    for (const e of graph.adjacency[seed]!.filter(usable).slice(-SEED_EDGE_CAP).reverse()) {
      const other = graph.other(e, seed)
      if (graph.isEvent[other]) addHub(other, seed, false)
      else
        add({
          key: `${e}|-1`,
          actor: graph.subject[e]!,
          actorLeg: e,
          hub: null,
          leg: null,
          target: graph.object[e]!,
          context: false,
          superseded: !graph.valid[e],
          bridge: false,
          via: seed,
        })
    }
  }

  if (options.bridges > 0) {
    const best = new Map<number, number>()
    for (const f of facts.values())
      if (f.hub !== null) best.set(f.hub, Math.max(best.get(f.hub) ?? 0, f.seed))
    const sources = [...best]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, BRIDGE_SOURCE_HUBS)
    for (const [hub, score] of sources) {
      let added = 0
      const entities = new Set<number>()
      for (const e of graph.adjacency[hub]!) if (usable(e)) entities.add(graph.other(e, hub))
      for (const entity of entities) {
        if (graph.isEvent[entity]) continue
        for (const e of graph.adjacency[entity]!.filter(usable).slice().reverse()) {
          if (added >= options.bridges) break
          const other = graph.other(e, entity)
          if (!graph.isEvent[other] || hubs.has(other)) continue
          addHub(other, entity, true, score * BRIDGE_SEED_FACTOR)
          added++
        }
        if (added >= options.bridges) break
      }
    }
  }
  return [...facts.values()]
}
