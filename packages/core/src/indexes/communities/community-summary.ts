import { EVENT_LABEL } from '../../model/entity.js'
import type { KnowledgeMultiGraph } from './graphology-view.js'
import type { Partition } from './louvain-communities.js'

/** Hub nodes named per community (and put first in its results). */
export const HUBS_PER_COMMUNITY = 3
/** Upper bound of a summary, in characters. */
export const MAX_SUMMARY_CHARS = 1000
/** Relationship statements a summary quotes at most. */
const MAX_STATEMENTS = 8

/** One community of the entity graph, with its members ranked by centrality. */
export interface Community {
  /** `community:<uuid of its most central member>`: stable across recomputations that keep its core. */
  id: string
  /** Present members, most central first (weighted degree inside the community; events included). */
  members: string[]
  /** Weighted degree inside the community per member, divided by the largest one (0..1]. */
  centrality: number[]
  /** The most central non-event members (the default hubs, without a label filter). */
  hubs: string[]
  /** Extractive summary: hub names, their descriptions, central statements and observations. */
  summary: string
  /** Every label carried by a member, for `community_labels` filtering. */
  labels: Set<string>
}

/**
 * Ranks each community's members by weighted degree inside the community ("strength", the weighted
 * degree centrality of Barrat et al., PNAS 2004, restricted to intra-community edges so a node central
 * to another community does not rank high here), picks hubs, and writes an extractive summary of at
 * most {@link MAX_SUMMARY_CHARS} characters made only of text already in the graph: hub names, hub
 * descriptions, the statements (relationship descriptions, else "subject predicate object") between
 * the most central members, hub observations, then other member names. Communities with fewer than
 * two members, or only events, are dropped: a singleton is what the `entities` channel already finds.
 */
export function summarizeCommunities(
  graph: KnowledgeMultiGraph,
  partition: Partition,
): Community[] {
  // One pass over nodes and one over edges; sort keys are computed once (graphology's degree() walks
  // the node's adjacency on every call).
  interface Entry {
    node: string
    labels: readonly string[]
    strength: number
    degree: number
  }
  const entries = new Map<string, Entry>()
  const groups = new Map<number, Entry[]>()
  graph.forEachNode((node, attributes) => {
    const c = partition.communityOf.get(node)
    if (c === undefined || !attributes.present) return
    const entry = { node, labels: attributes.labels, strength: 0, degree: graph.degree(node) }
    entries.set(node, entry)
    let group = groups.get(c)
    if (group === undefined) groups.set(c, (group = []))
    group.push(entry)
  })
  const strength = new Map<string, number>()
  graph.forEachEdge((_edge, attributes, source, target) => {
    if (partition.communityOf.get(source) !== partition.communityOf.get(target)) return
    const s = entries.get(source)
    const t = entries.get(target)
    if (s !== undefined) s.strength += attributes.weight
    if (t !== undefined) t.strength += attributes.weight
  })
  const communities: Community[] = []
  for (const group of groups.values()) {
    if (group.length < 2) continue
    group.sort(
      (a, b) => b.strength - a.strength || b.degree - a.degree || (a.node < b.node ? -1 : 1),
    )
    for (const e of group) strength.set(e.node, e.strength)
    const members = group.map((e) => e.node)
    const hubs = group
      .filter((e) => !e.labels.includes(EVENT_LABEL))
      .slice(0, HUBS_PER_COMMUNITY)
      .map((e) => e.node)
    if (hubs.length === 0) continue
    const top = group[0]!.strength
    const labels = new Set<string>()
    for (const e of group) for (const l of e.labels) labels.add(l)
    communities.push({
      id: `community:${members[0]}`,
      members,
      centrality: group.map((e) => (top > 0 ? e.strength / top : 1)),
      hubs,
      summary: summaryOf(graph, members, hubs, strength, partition),
      labels,
    })
  }
  return communities.sort((a, b) => (a.id < b.id ? -1 : 1))
}

export function isEventNode(graph: KnowledgeMultiGraph, node: string): boolean {
  return graph.getNodeAttribute(node, 'labels').includes(EVENT_LABEL)
}

function summaryOf(
  graph: KnowledgeMultiGraph,
  members: string[],
  hubs: string[],
  strength: Map<string, number>,
  partition: Partition,
): string {
  const name = (n: string) => graph.getNodeAttribute(n, 'name')
  const out = new SummaryWriter(MAX_SUMMARY_CHARS)
  out.add(`${hubs.map(name).join(', ')}.`)
  for (const hub of hubs) {
    const description = graph.getNodeAttribute(hub, 'description')
    if (description) out.add(`${name(hub)}: ${description}`)
  }
  const community = partition.communityOf.get(members[0]!)
  const statements: { text: string; rank: number }[] = []
  const seen = new Set<string>()
  for (const member of members.slice(0, 50)) {
    graph.forEachOutEdge(member, (_edge, attributes, source, target) => {
      if (partition.communityOf.get(target) !== community) return
      if (!graph.getNodeAttribute(target, 'present')) return
      const text =
        attributes.description ??
        `${name(source)} ${attributes.predicate.toLowerCase().replace(/_/g, ' ')} ${name(target)}`
      if (seen.has(text)) return
      seen.add(text)
      statements.push({ text, rank: (strength.get(source) ?? 0) + (strength.get(target) ?? 0) })
    })
  }
  statements.sort((a, b) => b.rank - a.rank || (a.text < b.text ? -1 : 1))
  for (const s of statements.slice(0, MAX_STATEMENTS)) out.add(s.text)
  for (const hub of hubs)
    for (const o of graph.getNodeAttribute(hub, 'observations').slice(0, 2)) out.add(o.text)
  const others = members
    .filter((m) => !hubs.includes(m) && !isEventNode(graph, m))
    .slice(0, 200)
    .map(name)
  if (others.length > 0) out.add(`Also: ${others.join(', ')}`)
  return out.text()
}

/** Appends sentences until the bound; the sentence that crosses it is cut with an ellipsis. */
class SummaryWriter {
  private readonly parts: string[] = []
  private length = 0
  constructor(private readonly max: number) {}

  add(sentence: string): void {
    const clean = sentence.replace(/\s+/g, ' ').trim()
    if (clean === '' || this.length >= this.max) return
    const text = /[.!?…]$/.test(clean) ? clean : `${clean}.`
    const room = this.max - this.length - (this.parts.length > 0 ? 1 : 0)
    if (room < 2) {
      this.length = this.max
      return
    }
    this.parts.push(text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`)
    this.length = this.parts.join(' ').length
  }

  text(): string {
    return this.parts.join(' ')
  }
}
