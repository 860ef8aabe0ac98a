import type { JsonObject, Polarity } from '../model/common.js'

/** An entity as an extractor returns it, under a local key unique within one task. */
export interface ExtractedEntity {
  key: string
  name: string
  /**
   * Other names the text gives it (an abbreviation it defines: "... de Medicina (ELAM)"): they become
   * the entity's aliases, so a search or a later text naming it by one finds it.
   */
  aliases?: string[]
  labels: string[]
  description?: string | null
  properties?: JsonObject
  happenedAt?: string | null
  polarity?: Polarity
  passageIds: string[]
}

/** What an extractor returns: records with local keys, each citing the passages it came from. */
export interface ExtractedGraph {
  entities: ExtractedEntity[]
  relationships: {
    subjectKey: string
    objectKey: string
    name: string
    description?: string | null
    amount?: number | null
    eventKey?: string | null
    passageIds: string[]
  }[]
  observations: {
    aboutKey: string
    text: string
    polarity?: Polarity
    labels?: string[]
    passageIds: string[]
  }[]
  usage?: { promptTokens: number; completionTokens: number }
}

export interface ExtractionInput {
  /**
   * Passages of one task, with the ids every extracted record must cite; `start` and `end` (optional)
   * are where the passage's text lies in `text`.
   */
  passages: { id: string; text: string; start?: number; end?: number }[]
  /**
   * The whole text the passages were cut from, when they were (optional): what an extractor may read
   * around a passage, such as the code block a passage cut inside one belongs to.
   */
  text?: string
  /** Anchor for relative dates ("yesterday", "last March"), ISO 8601. */
  sourceTimestamp: string
  /** Observation focus hints: entities or topics observations should be about first. */
  observateFor: string[]
}

export interface ExtractionContext {
  signal: AbortSignal
  /** The brain the passages belong to: a shared extractor may serve brains in turn with it. */
  brainId?: string
}

/**
 * Turns passages into entities, events, relationships and observations with local keys (the pipeline
 * resolves them to uuids). Must be deterministic for the same input: a task may run twice.
 */
export interface Extractor {
  readonly kind: 'extractor'
  readonly name: string
  extract(input: ExtractionInput, ctx: ExtractionContext): Promise<ExtractedGraph>
}
