import type { Hit } from '../metrics/ranking.js'

/**
 * The dataset documents an Engram record stands for: a passage, its document; an entity or event, the
 * documents of the passages it was extracted from (its `sourcePassageIds`). Empty for a record the
 * benchmark cannot place (it then votes for nothing).
 */
export type DocsOf = (recordId: string) => readonly string[]

/**
 * Turns an Engram ranking of mixed records (passages, entities, events, expanded neighbours) into a ranking
 * of the dataset's documents, so graph channels are scored on the same judgements as passages.
 *
 * Each hit votes its fused score for the documents it stands for, split evenly among them; a document's
 * score is the sum of its votes. With RRF scores (which are sums over channel lists) this is RRF over the
 * channel lists with every graph list mapped to documents: an event extracted from one turn counts as that
 * turn at the event's rank, while an entity mentioned in 300 turns gives each of them 1/300 of its score,
 * so a frequent name cannot flood the top k, yet still lifts the passages that other channels found. A
 * document split into several chunks gets the votes of all of them. Ties are broken by document id (as
 * every metric does).
 */
export function docVotes(hits: readonly Hit[], docsOf: DocsOf): Hit[] {
  const scores = new Map<string, number>()
  for (const hit of hits) {
    const docs = [...new Set(docsOf(hit.id))]
    for (const doc of docs) scores.set(doc, (scores.get(doc) ?? 0) + hit.score / docs.length)
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/**
 * The documents of an ordered list of passage ids (a context pack's evidence), first occurrence kept, as a
 * ranking: scores fall by one per rank so the harness's score order is the list order. Passages the
 * benchmark cannot place are skipped.
 */
export function docsInOrder(
  passageIds: readonly string[],
  docOf: (passageId: string) => string | undefined,
): Hit[] {
  const docs: string[] = []
  const seen = new Set<string>()
  for (const id of passageIds) {
    const doc = docOf(id)
    if (doc === undefined || seen.has(doc)) continue
    seen.add(doc)
    docs.push(doc)
  }
  return docs.map((id, i) => ({ id, score: docs.length - i }))
}
