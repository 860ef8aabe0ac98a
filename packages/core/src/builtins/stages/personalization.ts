import type { StagePlugin } from '../../contracts/search-plugins.js'
import { blendPreferences, personalizationWeight } from './personalization-gate.js'
import { preferenceScores } from './preference-profile.js'

/**
 * Personalization for a request's `target`: blends every hit's current score (fused, or reranked)
 * with the target's preference for it, read from the graph (`preferenceScores`), by a weight the query
 * sets (`personalizationWeight`: a vague query leaves room for taste). Runs last, over all hits; when
 * the weight is 0 or the target has no preference among them, the order stays and no score is set.
 */
export function personalization(): StagePlugin {
  return {
    kind: 'stage',
    name: 'personalize',
    head: Number.POSITIVE_INFINITY,
    async run(query, hits, ctx, search) {
      if (search.target === undefined) return new Map()
      const lambda = personalizationWeight(query)
      const entityIds = hits.filter((h) => h.entity !== null).map((h) => h.id)
      const prefs = await preferenceScores(ctx, search.target, entityIds)
      const blended = blendPreferences(
        hits,
        hits.map((h) => prefs.get(h.id) ?? 0),
        lambda,
      )
      const scores = new Map<string, number>()
      if (lambda > 0 && [...prefs.values()].some((v) => v > 0))
        for (const { hit, score } of blended) scores.set(hit.id, score)
      return { scores, order: blended.map(({ hit }) => hit.id) }
    },
  }
}
