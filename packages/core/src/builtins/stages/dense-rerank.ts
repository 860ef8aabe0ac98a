import type { StagePlugin } from '../../contracts/search-plugins.js'
import { EngramError } from '../../errors.js'
import { cosine } from '../../vectors/cosine.js'

/**
 * `rerank=plugin:dense`: rescores the head of the fused list by the cosine between the query embedding
 * and each hit's stored vector (passage vectors for passages, entity vectors for entities), the
 * bi-encoder similarity of Sentence-BERT (Reimers & Gurevych, EMNLP 2019). It reorders what fusion
 * found by meaning alone; hits without a stored vector are not rescored and keep their fused order
 * behind the rescored ones. Needs an embedder: without one the request is refused with a 400 rather
 * than silently left in fused order.
 */
export function denseRerank(): StagePlugin {
  return {
    kind: 'stage',
    name: 'dense',
    requires: ['embed', 'vectors'],
    async run(query, hits, ctx) {
      if (ctx.embed === null || ctx.vectors === null)
        throw new EngramError(
          'VALIDATION_ERROR',
          "rerank 'plugin:dense' needs an embedder, and this search has none.",
          { status: 400, resolution: 'Configure an embedder for the server, or use rerank=none.' },
        )
      const q = await ctx.embed(query)
      const passageIds = hits.filter((h) => h.entity === null).map((h) => h.id)
      const entityIds = hits.filter((h) => h.entity !== null).map((h) => h.id)
      const [passages, entities] = await Promise.all([
        passageIds.length > 0 ? ctx.vectors.get('passages', passageIds) : new Map(),
        entityIds.length > 0 ? ctx.vectors.get('entities', entityIds) : new Map(),
      ])
      const scores = new Map<string, number>()
      for (const hit of hits) {
        const vector = (hit.entity === null ? passages : entities).get(hit.id)
        if (vector !== undefined) scores.set(hit.id, cosine(q, vector))
      }
      return scores
    },
  }
}
