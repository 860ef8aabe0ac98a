import { analyze } from '../analysis/analyze.js'
import { normalizeEntityName } from '../model-writes/normalize-entity-name.js'
import { isEvent, type Entity } from '../model/entity.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** Share of the target's analysed terms an entities-channel hit must contain to count as a match. */
export const TARGET_MATCH_THRESHOLD = 0.5

export interface ResolveTargetOptions {
  /** Only entities this accepts can be the answer (e.g. a label filter); applied at every step. */
  accept?: (entity: Entity) => boolean
}

/** Targets longer than this are not looked up as ids or names (they cannot be either). */
const MAX_ID_LENGTH = 512

/** BM25 candidates examined for the lexical fallback. */
const CANDIDATES = 10

/**
 * Resolves a `target` string to one entity (CONTRACT.md section 6, issue 5 point 1), in this order:
 *
 * 1. an entity whose uuid is `target`;
 * 2. entities whose normalised name or alias equals the normalised `target`: non-events first, then the
 *    best connected (most relationships), then by uuid so the choice is stable;
 * 3. the entities channel (BM25 over name, aliases and description): the best hit among the top
 *    {@link CANDIDATES} whose text contains at least {@link TARGET_MATCH_THRESHOLD} of the target's
 *    analysed terms. BM25 scores are not comparable across queries, so the threshold is on term
 *    coverage, not on the raw score.
 *
 * With `options.accept`, entities it rejects are skipped at every step. Returns null when nothing
 * qualifies. Never throws for any target string.
 *
 * The original (original-notes.md section A.7) embedded the target and took hit [0] of an ANN search
 * whose ordering was reversed on one backend (the least similar of the top 10); lexical resolution with
 * an explicit threshold avoids both the embedder dependency and that bug.
 */
export async function resolveTarget(
  deps: RetrieveDeps,
  target: string,
  options: ResolveTargetOptions = {},
): Promise<Entity | null> {
  const accept = options.accept ?? (() => true)
  const text = target.trim()
  if (text.length === 0) return null
  if (text.length <= MAX_ID_LENGTH) {
    const [byId] = await deps.store.entities.get([text])
    if (byId !== undefined && accept(byId)) return byId
    const byName = (await deps.store.entities.findByName(normalizeEntityName(text))).filter(accept)
    if (byName.length > 0) return pickBest(deps, byName)
  }
  return bestLexicalMatch(deps, text, accept)
}

async function pickBest(deps: RetrieveDeps, entities: Entity[]): Promise<Entity> {
  if (entities.length === 1) return entities[0]!
  const degrees = await Promise.all(
    entities.map(async (e) => (await deps.store.relationships.of(e.uuid)).length),
  )
  const ranked = entities.map((entity, i) => ({ entity, degree: degrees[i]! }))
  ranked.sort(
    (a, b) =>
      Number(isEvent(a.entity)) - Number(isEvent(b.entity)) ||
      b.degree - a.degree ||
      (a.entity.uuid < b.entity.uuid ? -1 : a.entity.uuid > b.entity.uuid ? 1 : 0),
  )
  return ranked[0]!.entity
}

/** Share of the distinct analysed terms of `query` that occur in `text` (0 when the query has none). */
export function termCoverage(query: string, text: string): number {
  const wanted = new Set(analyze(query))
  if (wanted.size === 0) return 0
  const have = new Set(analyze(text))
  let hit = 0
  for (const term of wanted) if (have.has(term)) hit++
  return hit / wanted.size
}

async function bestLexicalMatch(
  deps: RetrieveDeps,
  text: string,
  accept: (entity: Entity) => boolean,
): Promise<Entity | null> {
  const hits = deps.indexes.entities.search(text, CANDIDATES)
  if (hits.length === 0) return null
  const entities = new Map(
    (await deps.store.entities.get(hits.map((h) => h.id))).map((e) => [e.uuid, e]),
  )
  for (const hit of hits) {
    const entity = entities.get(hit.id)
    if (entity === undefined || !accept(entity)) continue
    const haystack = [entity.name, ...entity.aliases, entity.description ?? ''].join(' ')
    if (termCoverage(text, haystack) >= TARGET_MATCH_THRESHOLD) return entity
  }
  return null
}
