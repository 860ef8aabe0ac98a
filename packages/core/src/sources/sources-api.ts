import type { Page, Paged } from '../contracts/storage-page.js'
import type { SourceQuery } from '../contracts/source-repository.js'
import type { Passage } from '../model/passage.js'
import type { Source } from '../model/source.js'
import type { Task } from '../model/task.js'

/** Task kind of `DELETE /sources/{source_id}`. */
export const FORGET_SOURCE = 'forget_source'

/** What one deletion removed (`DELETE /model/*`, and each forget's task result adds passages and more). */
export interface GraphDeletion {
  entities: number
  relationships: number
  observations: number
}

/** The counts a finished forget task reports as its `result`. */
export interface ForgetResult extends GraphDeletion {
  source_id: string
  passages: number
  structured: number
  vectors: number
  /** Surviving entities and relationships whose citations or description were rewritten. */
  rewritten: number
  /** Changelog entries whose content was replaced by ids only. */
  changelog_redacted: number
  /** Task payloads erased. */
  payloads_erased: number
  /** What the storage could not guarantee about freed bytes (`BrainStore.purge`), or null. */
  storage_note: string | null
}

/** How a forget is asked for. */
export interface ForgetRequest {
  /**
   * The expiry sweep's forget (docs/time.md, Expiry), with the sweep's time (ISO 8601 UTC): when it
   * runs, a source whose `expiresAt` is no longer at or before that time (re-ingested meanwhile with
   * a later expiry, or none) is kept, and the task completes with `no_longer_expired: true`. Its task
   * id differs from a plain forget's of the same state.
   */
  expiredAt?: string
}

/**
 * Sources and forgetting (docs/forgetting.md): what the REST routes, MCP tools, the CLI and the
 * library call. Every method is brain-scoped; unknown brains are BRAIN_NOT_FOUND.
 */
export interface SourcesService {
  /** Active sources, newest update first. */
  list(brainId: string, query: SourceQuery): Promise<Paged<Source>>
  /** An active source and one page of its passages in position order; RESOURCE_NOT_FOUND otherwise. */
  get(
    brainId: string,
    sourceId: string,
    passages: Page,
  ): Promise<{ source: Source; passages: Paged<Passage> }>
  /**
   * Submits the forget of a source as a task (`FORGET_SOURCE`, result `ForgetResult`); the same
   * source forgotten twice before the first finishes returns the first task (`created: false`).
   * RESOURCE_NOT_FOUND when the brain has neither an active source nor a pending ingestion of that id.
   */
  forget(
    brainId: string,
    sourceId: string,
    options?: ForgetRequest,
  ): Promise<{ task: Task; created: boolean }>
  /**
   * Deletes an entity, the events it takes part in, their relationships, observations and vectors, and redacts
   * the changelog entries that quote it; RESOURCE_NOT_FOUND for an unknown uuid. Passages that
   * mention it stay (forget their source to remove text).
   */
  deleteEntity(brainId: string, uuid: string): Promise<GraphDeletion>
  /** Deletes one relationship (and redacts the changelog entries that quote it); RESOURCE_NOT_FOUND otherwise. */
  deleteRelationship(brainId: string, uuid: string): Promise<GraphDeletion>
  /** Deletes one observation; RESOURCE_NOT_FOUND otherwise. */
  deleteObservation(brainId: string, id: string): Promise<GraphDeletion>
}

export {
  EXPIRY_META,
  MAX_TTL_SECONDS,
  REST_EXPIRY_FIELDS,
  resolveExpiry,
  withExpiry,
  type ExpiryFields,
  type ExpiryInput,
} from './source-expiry.js'
export {
  EXPIRY_SWEEP_LOCK,
  type ExpirySweep,
  type ExpirySweeper,
  type ExpirySweeperOptions,
} from './expiry-sweeper.js'
