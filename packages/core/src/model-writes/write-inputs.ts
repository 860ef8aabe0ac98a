import type { Direction, JsonObject, Polarity } from '../model/common.js'

export interface CreateEntityInput {
  name: string
  labels?: string[]
  description?: string | null
  properties?: JsonObject
  metadata?: JsonObject | null
  happenedAt?: string | null
  polarity?: Polarity
  /** When these match an existing entity (same normalised name, properties equal), it is updated instead. */
  identificationParams?: JsonObject
}

export interface UpdateEntityInput {
  uuid: string
  newName?: string
  newDescription?: string | null
  newLabels?: string[]
  newProperties?: JsonObject
  propertiesToRemove?: string[]
  newPolarity?: Polarity
  newHappenedAt?: string | null
}

export interface CreateRelationshipInput {
  subjectUuid: string
  objectUuid: string
  predicateName: string
  predicateDescription: string
  amount?: number | null
  properties?: JsonObject
  direction?: Direction
  happenedAt?: string | null
  /** Event time the fact became true and stopped being true (docs/time.md); ISO 8601. */
  validAt?: string | null
  invalidAt?: string | null
}

export interface UpdateRelationshipInput {
  uuid: string
  newProperties?: JsonObject
  propertiesToRemove?: string[]
  newDescription?: string | null
  /**
   * A correction of the fact's window (docs/time.md): `validAt` / `invalidAt` replace the record's (null
   * clears); an `invalidAt` ends the fact (deprecated, `expiredAt` now) and so does `deprecated: true`
   * without one (ended now). The legs of its event and the event follow.
   */
  validAt?: string | null
  invalidAt?: string | null
}
