import type { GoldEntity, GoldType, RedocredDoc } from './redocred.js'

/** A node of an ingested brain as the measures read it. */
export interface ExtractedNode {
  readonly uuid: string
  /** Its name and aliases. */
  readonly names: readonly string[]
  readonly labels: readonly string[]
}

/** What one document's brain holds: nodes (events included) and relationships between them. */
export interface ExtractedDoc {
  readonly nodes: readonly ExtractedNode[]
  readonly edges: readonly {
    readonly subject: string
    readonly object: string
    /** The relationship's name (`TARGETED` for an event's object leg). */
    readonly name?: string
  }[]
}

/** The leg from an event to what its verb targeted (local-extractor.ts). */
const TARGETED = 'TARGETED'

export const EVENT = 'EVENT'

/** The engine's label of each typed gold kind. */
export const TYPED: readonly (readonly [GoldType, string])[] = [
  ['PER', 'PERSON'],
  ['LOC', 'PLACE'],
  ['ORG', 'ORGANIZATION'],
]
const NAMED_TYPES = new Set<GoldType>(['PER', 'ORG', 'LOC', 'MISC'])

/**
 * The matching key of a name: NFKC, lower case, every run of characters that is not a letter or digit
 * one space, a leading article dropped ("the Beatles" = "Beatles"). Names compare equal when keys do.
 */
export function nameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^(?:the|a|an) /, '')
}

/**
 * The keys a gold mention matches: its own, and without a quoted nickname (`Wilfried "Willi" Schneider`
 * also matches `Wilfried Schneider`), the two ways a text names that person.
 */
export function goldKeys(name: string): string[] {
  const keys = [nameKey(name), nameKey(name.replace(/\s*["“][^"”]*["”]\s*/g, ' '))]
  return [...new Set(keys.filter((k) => k.length > 0))]
}

/**
 * Gold entities each node stands for. Exact: one of its names has the key of one of their mentions.
 * Otherwise partial: a capitalised name whose key is a run of whole words of the mentions of exactly one
 * entity ("Wilfried" or "Willi" of `Wilfried "Willi" Schneider`), the fragments coreference should have
 * joined to the full name; a run found in two entities' mentions matches neither.
 */
export function matchNodes(
  nodes: readonly ExtractedNode[],
  gold: readonly GoldEntity[],
): Map<string, GoldEntity[]> {
  const byKey = new Map<string, GoldEntity[]>()
  const byRun = new Map<string, Set<GoldEntity>>()
  for (const entity of gold)
    for (const key of new Set(entity.names.flatMap(goldKeys))) {
      const list = byKey.get(key) ?? []
      list.push(entity)
      byKey.set(key, list)
      const words = key.split(' ')
      for (let i = 0; i < words.length; i++)
        for (let j = i + 1; j <= words.length; j++) {
          const run = words.slice(i, j).join(' ')
          byRun.set(run, (byRun.get(run) ?? new Set()).add(entity))
        }
    }
  const matches = new Map<string, GoldEntity[]>()
  for (const node of nodes) {
    if (node.labels.includes(EVENT)) continue
    const found = new Set<GoldEntity>()
    for (const name of node.names) for (const e of byKey.get(nameKey(name)) ?? []) found.add(e)
    if (found.size === 0)
      for (const name of node.names.filter((n) => /^\p{Lu}/u.test(n))) {
        const run = byRun.get(nameKey(name))
        if (run?.size === 1) found.add([...run][0]!)
      }
    matches.set(node.uuid, [...found])
  }
  return matches
}

/** Sums over documents; `extractionScores` turns them into the reported measures. */
export interface ExtractionCounts {
  namedGold: number
  namedFound: number
  /** Per typed kind: nodes with the label, those matching a gold entity of the kind, gold entities, found. */
  typed: Record<string, { predicted: number; correct: number; gold: number; found: number }>
  matchedGold: number
  matchedNodesPerGold: number
  nodes: number
  nodesMatched: number
  pairs: number
  pairsJoined: number
  /** Events whose actor and target match two different gold entities; those two related in gold. */
  eventsJudged: number
  eventsRelated: number
  /** Relationships between two non-event nodes matching two different gold entities; those related in gold. */
  relationshipsJudged: number
  relationshipsRelated: number
}

export function emptyCounts(): ExtractionCounts {
  return {
    namedGold: 0,
    namedFound: 0,
    typed: Object.fromEntries(
      TYPED.map(([t]) => [t, { predicted: 0, correct: 0, gold: 0, found: 0 }]),
    ),
    matchedGold: 0,
    matchedNodesPerGold: 0,
    nodes: 0,
    nodesMatched: 0,
    pairs: 0,
    pairsJoined: 0,
    eventsJudged: 0,
    eventsRelated: 0,
    relationshipsJudged: 0,
    relationshipsRelated: 0,
  }
}

/** Adds one document's brain, judged against its gold annotation, to `counts`. */
export function countDocument(
  counts: ExtractionCounts,
  gold: RedocredDoc,
  extracted: ExtractedDoc,
): void {
  const matches = matchNodes(extracted.nodes, gold.entities)
  const nodesOf = new Map<number, Set<string>>()
  for (const [uuid, entities] of matches)
    for (const e of entities) nodesOf.set(e.index, (nodesOf.get(e.index) ?? new Set()).add(uuid))
  const labelsOf = new Map(extracted.nodes.map((n) => [n.uuid, n.labels]))

  for (const e of gold.entities) {
    const nodes = nodesOf.get(e.index)
    if (NAMED_TYPES.has(e.type)) {
      counts.namedGold++
      if (nodes) counts.namedFound++
    }
    if (nodes) {
      counts.matchedGold++
      counts.matchedNodesPerGold += nodes.size
    }
  }
  for (const [type, label] of TYPED) {
    const c = counts.typed[type]!
    for (const e of gold.entities.filter((x) => x.type === type)) {
      c.gold++
      if ([...(nodesOf.get(e.index) ?? [])].some((u) => labelsOf.get(u)!.includes(label))) c.found++
    }
    for (const node of extracted.nodes.filter((n) => n.labels.includes(label))) {
      c.predicted++
      if ((matches.get(node.uuid) ?? []).some((e) => e.type === type)) c.correct++
    }
  }
  for (const [, entities] of matches) {
    counts.nodes++
    if (entities.length > 0) counts.nodesMatched++
  }

  // Joined: an edge between nodes of the two entities, or an event node with an edge to a node of each.
  const adjacent = new Map<string, Set<string>>()
  const link = (a: string, b: string) => adjacent.set(a, (adjacent.get(a) ?? new Set()).add(b))
  for (const { subject, object } of extracted.edges) {
    link(subject, object)
    link(object, subject)
  }
  const events = new Set(extracted.nodes.filter((n) => n.labels.includes(EVENT)).map((n) => n.uuid))
  const reach = (uuid: string): Set<string> => {
    const out = new Set<string>()
    for (const next of adjacent.get(uuid) ?? []) {
      out.add(next)
      if (events.has(next)) for (const far of adjacent.get(next) ?? []) out.add(far)
    }
    return out
  }
  for (const [h, t] of gold.relatedPairs) {
    counts.pairs++
    const targets = nodesOf.get(t) ?? new Set()
    const joined = [...(nodesOf.get(h) ?? [])].some((u) =>
      [...reach(u)].some((v) => targets.has(v)),
    )
    if (joined) counts.pairsJoined++
  }

  // An event's actor (the node with an edge into it) and its target (its TARGETED leg): is what the
  // verb relates a pair the gold set relates?
  const related = new Set(gold.relatedPairs.flatMap(([h, t]) => [`${h} ${t}`, `${t} ${h}`]))
  const actors = new Map<string, string[]>()
  const targets = new Map<string, string[]>()
  const add = (map: Map<string, string[]>, event: string, node: string) => {
    const list = map.get(event)
    if (list === undefined) map.set(event, [node])
    else list.push(node)
  }
  for (const { subject, object, name } of extracted.edges) {
    if (events.has(object) && !events.has(subject)) add(actors, object, subject)
    if (events.has(subject) && name === TARGETED) add(targets, subject, object)
  }
  const goldOf = (uuids: readonly string[]) =>
    new Set(uuids.flatMap((u) => (matches.get(u) ?? []).map((e) => e.index)))
  for (const event of events) {
    const a = goldOf(actors.get(event) ?? [])
    const t = goldOf(targets.get(event) ?? [])
    const pairs = [...a].flatMap((x) => [...t].filter((y) => y !== x).map((y) => `${x} ${y}`))
    if (pairs.length === 0) continue
    counts.eventsJudged++
    if (pairs.some((p) => related.has(p))) counts.eventsRelated++
  }

  // A relationship between two things (no event on either side, `LOCATED_IN`, `MEMBER_OF`, ...): does
  // it join a pair the gold set relates?
  for (const { subject, object } of extracted.edges) {
    if (events.has(subject) || events.has(object)) continue
    const a = goldOf([subject])
    const b = goldOf([object])
    const pairs = [...a].flatMap((x) => [...b].filter((y) => y !== x).map((y) => `${x} ${y}`))
    if (pairs.length === 0) continue
    counts.relationshipsJudged++
    if (pairs.some((p) => related.has(p))) counts.relationshipsRelated++
  }
}

const div = (a: number, b: number) => (b === 0 ? 0 : a / b)
const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r))

/** The reported measures, by the names the config lists. */
export function extractionScores(c: ExtractionCounts): Record<string, number> {
  const out: Record<string, number> = { 'NE-R': div(c.namedFound, c.namedGold) }
  let predicted = 0
  let correct = 0
  let gold = 0
  let found = 0
  for (const [type] of TYPED) {
    const t = c.typed[type]!
    out[`${type}-P`] = div(t.correct, t.predicted)
    out[`${type}-R`] = div(t.found, t.gold)
    predicted += t.predicted
    correct += t.correct
    gold += t.gold
    found += t.found
  }
  out['typed-P'] = div(correct, predicted)
  out['typed-R'] = div(found, gold)
  out['typed-F1'] = f1(out['typed-P'], out['typed-R'])
  out['nodes-per-entity'] = div(c.matchedNodesPerGold, c.matchedGold)
  out['node-P'] = div(c.nodesMatched, c.nodes)
  out['pair-R'] = div(c.pairsJoined, c.pairs)
  out['event-P'] = div(c.eventsRelated, c.eventsJudged)
  out['events-judged'] = c.eventsJudged
  out['relationship-P'] = div(c.relationshipsRelated, c.relationshipsJudged)
  out['relationships-judged'] = c.relationshipsJudged
  return out
}
