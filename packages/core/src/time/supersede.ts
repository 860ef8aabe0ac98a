/**
 * Which facts of one subject and one single-valued slot end which (docs/time.md, "Contradictions").
 * Graphiti's rule without its LLM (getzep/graphiti, `resolve_edge_contradictions`): ordered by when
 * they became true, a fact ends where the next fact with another object begins; arrival order does not
 * matter, so an older fact ingested later is born ended. A restatement of the same object continues
 * the fact. Facts about the future and windows written by hand take no part in being ended.
 */

export interface SlotFact {
  /** The fact's id (its predicate relationship's uuid). */
  id: string
  /** What fills the slot (the home, the employer). */
  objectUuid: string
  /** When it became true (ms); a fact with no stated time became true when the brain learned it. */
  validFrom: number
  /** When the brain learned it (ms): breaks ties between facts that became true at once. */
  created: number
  /** A plan or a prediction: never ends another fact, never ended. */
  future: boolean
  /** Its end was written by hand (`PUT /model/relationship`): it keeps it. */
  manual: boolean
}

/** The end each fact should have: the next fact's start and its id, or null while nothing ended it. */
export type Ending = { invalidAt: number; by: string } | null

export function supersede(facts: readonly SlotFact[]): Map<string, Ending> {
  const timeline = facts
    .filter((f) => !f.future)
    .sort((a, b) => a.validFrom - b.validFrom || a.created - b.created || (a.id < b.id ? -1 : 1))
  const endings = new Map<string, Ending>()
  for (let i = 0; i < timeline.length; i++) {
    const fact = timeline[i]!
    if (fact.manual) continue
    const next = timeline.slice(i + 1).find((f) => f.objectUuid !== fact.objectUuid)
    endings.set(fact.id, next === undefined ? null : { invalidAt: next.validFrom, by: next.id })
  }
  return endings
}
