import type { Observation } from '../model/observation.js'
import type { Page, Paged } from './storage-page.js'

export interface ObservationQuery extends Page {
  /** Only observations of this entity uuid or passage id. */
  resourceId?: string
  /** Any-match against `metadata.labels`. */
  labels?: string[]
  /** Case-insensitive substring of the text. */
  queryText?: string
}

/** A brain's observations (texts about an entity or a passage). Written only through `BrainStore.apply`. */
export interface ObservationRepository {
  /** One observation, or null when the id is unknown. */
  get(id: string): Promise<Observation | null>
  /** Newest first (`insertedAt`, then id, descending), filtered by `query`. */
  list(query: ObservationQuery): Promise<Paged<Observation>>
  /**
   * Per id of `resourceIds`, in their order, the first `limitEach` of its observations as `list` with
   * that `resourceId` orders them, without their total: what lists of entities show with each entity.
   * Optional: without it, core reads them with one `list` per id (`observationsOfResources`).
   */
  ofResources?(resourceIds: readonly string[], limitEach: number): Promise<Observation[][]>
  /** Distinct values of the observations' `metadata.labels` arrays, sorted. */
  labels(): Promise<string[]>
}
