import type { SearchContext } from '../../contracts/search-plugins.js'
import { isUuid } from '../../ids.js'
import { EVENT_LABEL } from '../../model/entity.js'

/** Behaviour weights by event or predicate name (original-notes D, the documented table). */
const BEHAVIOUR: Record<string, number> = {
  view: 0.2,
  click: 0.2,
  cart: 0.5,
  addtocart: 0.5,
  purchase: 1,
  buy: 1,
  bought: 1,
  favorite: 0.7,
  wishlist: 0.7,
  follow: 0.5,
  prefers: 1,
  likes: 1,
  rated: 0.6,
}

export function behaviourWeight(name: string): number {
  const key = name.toLowerCase().replace(/[\s_-]+/g, '')
  for (const [behaviour, weight] of Object.entries(BEHAVIOUR))
    if (key.includes(behaviour)) return weight
  return 0.2
}

/**
 * The target's preference profile from the graph: what the user touched through events (actor ->
 * EVENT -> item, weighted by the behaviour the event names) and, at half weight, the items' own
 * neighbours (their attributes). A hit's preference is its weight in the profile plus half the weight
 * of its neighbours found there. Computed per request from at most a few hundred edges.
 */
export async function preferenceScores(
  ctx: Pick<SearchContext, 'graph' | 'entities'>,
  target: string,
  uuids: string[],
): Promise<Map<string, number>> {
  const { graph } = ctx
  const user = isUuid(target)
    ? (await graph.entities([target]))[0]
    : ((await ctx.entities.byName(target))[0] ?? (await ctx.entities.byName(`user:${target}`))[0])
  const scores = new Map<string, number>()
  if (user === undefined) return scores
  const profile = new Map<string, number>()
  const add = (id: string, w: number) => profile.set(id, (profile.get(id) ?? 0) + w)
  for (const rel of (await graph.relationshipsOf(user.uuid)).slice(0, 500)) {
    const first = rel.subjectUuid === user.uuid ? rel.objectUuid : rel.subjectUuid
    const [node] = await graph.entities([first])
    if (node === undefined) continue
    const weight = behaviourWeight(node.labels.includes(EVENT_LABEL) ? node.name : rel.name)
    const items = node.labels.includes(EVENT_LABEL)
      ? (await graph.relationshipsOf(node.uuid))
          .filter((r) => r.uuid !== rel.uuid && (r.flowKey === null || r.flowKey === rel.flowKey))
          .map((r) => (r.subjectUuid === node.uuid ? r.objectUuid : r.subjectUuid))
      : [first]
    for (const item of items) {
      if (item === user.uuid) continue
      add(item, weight)
      for (const attr of (await graph.relationshipsOf(item)).slice(0, 50)) {
        const other = attr.subjectUuid === item ? attr.objectUuid : attr.subjectUuid
        if (other !== user.uuid && other !== node.uuid) add(other, weight * 0.5)
      }
    }
  }
  for (const uuid of uuids) {
    let score = profile.get(uuid) ?? 0
    for (const rel of (await graph.relationshipsOf(uuid)).slice(0, 50)) {
      score += 0.5 * (profile.get(rel.subjectUuid === uuid ? rel.objectUuid : rel.subjectUuid) ?? 0)
    }
    if (score > 0) scores.set(uuid, score)
  }
  return scores
}
