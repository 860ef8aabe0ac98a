import { identifyEntity } from './neighbors-identify.js'
import { rankNeighbors, type NeighborsResult } from './neighbors.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** Weight of the best `looking_for` match against the similarity to the main node. */
const PHRASE_WEIGHT = 0.7

/**
 * `POST /retrieve/entities/neighbors/ai-mode`: neighbours of the identified entity ranked by what the
 * caller is looking for, without an LLM. Each `looking_for` phrase is matched against every candidate
 * (lexically, and by embedding when the brain has vectors); a candidate must match at least one phrase,
 * and its score is 0.3 * similarity to the main node + 0.7 * its best phrase match (CombMAX). The
 * original delegated this to an LLM agent and failed on every call (original-notes.md section A.7).
 */
export async function neighborsAiMode(
  deps: RetrieveDeps,
  params: Record<string, unknown>,
  options: { lookingFor: string[]; limit: number },
): Promise<NeighborsResult> {
  const main = await identifyEntity(deps, params)
  return rankNeighbors(deps, main, {
    limit: options.limit,
    phrases: options.lookingFor,
    phraseWeight: PHRASE_WEIGHT,
  })
}
