import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import { cappedEdges, specificity } from '../synergies-steps.js'
import type { ChannelHit, RecommendContext } from './recommend-types.js'
import { WALK_EDGE_CAP } from './target-interactions.js'

/** Labels that mark attribute nodes (plus any label starting with `ATTR`). */
export const ATTRIBUTE_LABELS: ReadonlySet<string> = new Set([
  'ATTRIBUTE',
  'CATEGORY',
  'BRAND',
  'COLOR',
  'COLOUR',
  'MATERIAL',
  'STYLE',
  'GENRE',
  'TAG',
  'TOPIC',
])
/** Direct edges that state a preference outright (target -PREFERS-> attribute). */
export const PREFERENCE_PREDICATES: ReadonlySet<string> = new Set([
  'PREFERS',
  'LIKES',
  'LOVES',
  'ENJOYS',
  'FAVORS',
  'FAVOURS',
  'INTERESTED_IN',
])
const MAX_CONNECTED_BY = 3

export function isAttribute(graph: GraphIndex, node: number): boolean {
  return graph.labels[node]!.some((l) => ATTRIBUTE_LABELS.has(l) || l.startsWith('ATTR'))
}

/**
 * Attribute preferences: the target's weight per attribute, then every item carrying a preferred
 * attribute scored sum(pref(a) / log2(2 + degree(a))), the IDF-like damping of the original
 * (original-notes.md section A.7; inverse document frequency after Spärck Jones, "A statistical
 * interpretation of term specificity", J. Documentation 1972) so a ubiquitous attribute counts less
 * than a rare one.
 *
 * Preferences come from explicit edges (`PREFERS`, `LIKES`, ... to an attribute; weight
 * `properties.weight`, else `amount`, else 1); without any, from behaviour: each attribute of each
 * item the target interacted with gains that interaction's behaviour x recency weight.
 */
export function attributePreferenceChannel(ctx: RecommendContext): ChannelHit[] {
  const { graph, target } = ctx
  const preference = new Map<number, number>()
  for (const e of cappedEdges(graph, target, WALK_EDGE_CAP)) {
    const far = graph.other(e, target)
    if (!PREFERENCE_PREDICATES.has(graph.predicate[e]!) || !isAttribute(graph, far)) continue
    const w = Number.isNaN(graph.weight[e]!) ? 1 : graph.weight[e]!
    preference.set(far, (preference.get(far) ?? 0) + w)
  }
  if (preference.size === 0) {
    for (const [item, interaction] of ctx.interactions()) {
      if (isAttribute(graph, item)) continue
      for (const e of cappedEdges(graph, item, WALK_EDGE_CAP)) {
        const attribute = graph.other(e, item)
        if (!graph.isEvent[attribute] && isAttribute(graph, attribute))
          preference.set(attribute, (preference.get(attribute) ?? 0) + interaction.weight)
      }
    }
  }

  const hits = new Map<number, { score: number; by: Map<number, number> }>()
  for (const [attribute, pref] of preference) {
    if (pref <= 0) continue
    const vote = pref * specificity(graph, attribute)
    for (const e of cappedEdges(graph, attribute, WALK_EDGE_CAP)) {
      const item = graph.other(e, attribute)
      if (item === target || graph.isEvent[item] || isAttribute(graph, item)) continue
      let hit = hits.get(item)
      if (hit === undefined) hits.set(item, (hit = { score: 0, by: new Map() }))
      hit.score += vote
      hit.by.set(attribute, (hit.by.get(attribute) ?? 0) + vote)
    }
  }
  return [...hits].map(([node, hit]) => ({
    node,
    score: hit.score,
    connectedBy: [...hit.by]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_CONNECTED_BY)
      .map(([a]) => a),
  }))
}
