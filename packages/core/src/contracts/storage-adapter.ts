import type { Logger } from '../logger.js'
import type { BrainRecord } from '../model/brain-record.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'
import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import type { StructuredRecord } from '../model/structured-record.js'
import type { Task } from '../model/task.js'
import type { JsonObject } from '../model/common.js'
import type { Source, EvidenceLink } from '../model/source.js'
import type { ChangelogRepository } from './changelog-repository.js'
import type { EvidenceRepository } from './evidence-repository.js'
import type { Coordination } from './coordination.js'
import type { EntityRepository } from './entity-repository.js'
import type { MetaRepository } from './meta-repository.js'
import type { ObservationRepository } from './observation-repository.js'
import type { PassageRepository } from './passage-repository.js'
import type { RelationshipRepository } from './relationship-repository.js'
import type { SourceRepository } from './source-repository.js'
import type { StructuredRepository } from './structured-repository.js'
import type { TaskRepository } from './task-repository.js'
import type { VectorRecord, VectorRepository } from './vector-repository.js'

// The repositories and their query types, so that the port is importable from one module.
export type * from './changelog-repository.js'
export type * from './coordination.js'
export type * from './evidence-repository.js'
export type * from './source-repository.js'
export type * from './entity-repository.js'
export type * from './meta-repository.js'
export type * from './observation-repository.js'
export type * from './passage-repository.js'
export type * from './relationship-repository.js'
export type * from './storage-page.js'
export type * from './structured-repository.js'
export type * from './task-repository.js'
export type * from './vector-repository.js'

/**
 * The storage port. An adapter holds the brain catalog and one isolated store per brain; it holds no
 * ranking logic. Every adapter passes the conformance suite exported from `@engram/core/testing`.
 * Read `docs/writing-an-adapter.md` before writing one.
 */
export interface StorageAdapter {
  /** Short name for logs and errors, e.g. `sqlite`. */
  readonly name: string
  /**
   * Opens connections and runs migrations. Called before any other member; the engine passes its
   * `runtime`. A second call only takes a runtime it brings (the server opens the adapter before the
   * engine does).
   */
  open(runtime?: StorageRuntime): Promise<void>
  /** Flushes and releases everything. Idempotent. */
  close(): Promise<void>
  /** The brain catalog (ids and token hashes). */
  readonly catalog: BrainCatalog
  /** The store of one brain. The brain must exist in the catalog; stores are opened lazily and cached. */
  brain(brainId: string): Promise<BrainStore>
  /**
   * Present when several processes may share the adapter's database (postgres): a cross-process write
   * lock, the write feed processes follow, and the shared task queue's leases. Absent, the engine
   * assumes it is the only process using the storage.
   */
  readonly coordination?: Coordination
}

/** What the engine hands an adapter at `open()`. */
export interface StorageRuntime {
  /** The engine's logger: what an adapter does on its own (reconnecting) is logged here. */
  logger: Logger
  /**
   * Reports a condition the adapter cannot recover from: the storage is unusable to this process for
   * good (the database refuses its credentials, or no longer exists). The engine tells its `onFatal`
   * listeners (`engram serve` exits non-zero). A dropped connection is not fatal: the adapter
   * reconnects, and meanwhile throws `StorageUnavailableError` (see `docs/writing-an-adapter.md`).
   */
  fatal(error: Error): void
}

/** Brain registry. Tokens are never stored in clear: only `tokenHash` (SHA-256 hex) and `tokenLast4`. */
export interface BrainCatalog {
  /** Inserts a brain; returns false (and writes nothing) when the id exists. */
  create(record: BrainRecord): Promise<boolean>
  /** One brain, or null when the id is unknown. */
  get(brainId: string): Promise<BrainRecord | null>
  /** All brains, oldest first. */
  list(): Promise<BrainRecord[]>
  /** Looks a brain up by the hash of its token. */
  findByTokenHash(tokenHash: string): Promise<BrainRecord | null>
  /** Replaces the token hash; returns false when the brain does not exist. */
  updateToken(brainId: string, tokenHash: string, tokenLast4: string): Promise<boolean>
  /** Removes the brain and every record of it. Returns what was removed (null when it did not exist). */
  delete(brainId: string): Promise<BrainStats | null>
}

/** Record counts of one brain. */
export interface BrainStats {
  passages: number
  entities: number
  relationships: number
  observations: number
  structured: number
  changelog: number
  tasks: number
  vectors: number
  /** Active sources (tombstones not counted). */
  sources: number
}

/**
 * Everything one logical write changes, applied atomically by `BrainStore.apply`. Puts are upserts by
 * id, so applying the same batch twice leaves the store as applying it once (crash-safe re-runs).
 */
export interface WriteBatch {
  passages?: Passage[]
  entities?: Entity[]
  relationships?: Relationship[]
  observations?: Observation[]
  structured?: StructuredRecord[]
  /** Appended with a fresh `seq`; an entry whose id already exists is skipped. */
  changelog?: Omit<ChangelogEntry, 'seq'>[]
  vectors?: VectorRecord[]
  /** Upserts by id (a forget writes the tombstone here). */
  sources?: Source[]
  /** Provenance links to add (a link that exists is kept once). */
  evidence?: EvidenceLink[]
  /**
   * Deletes. Every delete also removes the evidence links naming the deleted id on either side (a
   * passage's or structured record's as evidence, an entity's, relationship's or observation's as
   * record), so that no link outlives what it links.
   */
  deleteEntities?: string[]
  deleteRelationships?: string[]
  deleteVectors?: { space: string; id: string }[]
  deletePassages?: string[]
  deleteObservations?: string[]
  deleteStructured?: string[]
  /** Removes the source rows, tombstones included. */
  deleteSources?: string[]
  /**
   * Replaces the `change` of existing changelog entries (by id; unknown ids are skipped), keeping
   * their `seq`, `timestamp` and `type`: how forgetting removes quoted content from history.
   */
  redactChangelog?: { id: string; change: JsonObject }[]
  /** Replaces the stored payload of these tasks with `{ forgotten: true }` (unknown ids skipped). */
  erasePayloads?: string[]
  /** Task state written in the same transaction (e.g. completion of the task that produced the batch). */
  task?: Task
}

/**
 * One brain's records: a read repository per kind of record, one transactional write (`apply`) for
 * all of them. Everything is brain-scoped: a store never sees another brain's data.
 */
export interface BrainStore {
  readonly brainId: string
  /**
   * A directory private to this brain where the engine keeps snapshot files of its in-memory indexes
   * (hundreds of MB for a large brain). The adapter only names it and removes it, with everything in
   * it, when the brain is deleted; the engine creates it. Undefined or null: the adapter keeps no files
   * (e.g. `memory`), and indexes are rebuilt from records on start. With `coordination` (several
   * processes), a directory of this process alone: snapshots are then validated by the write feed
   * rather than by `meta`, which every process shares (`feed-snapshot-manifest.ts`).
   */
  readonly snapshotDir?: string | null

  /** Applies a batch in one transaction: all of it or nothing. The only way records are written. */
  apply(batch: WriteBatch): Promise<void>
  /** Record counts of the brain. */
  stats(): Promise<BrainStats>

  /** Chunks of ingested text. */
  readonly passages: PassageRepository
  /** Graph nodes, with name lookup and the label and property-key facets. */
  readonly entities: EntityRepository
  /** Graph edges, with the edges of one node and the name facet. */
  readonly relationships: RelationshipRepository
  /** Texts about an entity or a passage. */
  readonly observations: ObservationRepository
  /** Structured-data records. */
  readonly structured: StructuredRepository
  /** The log of graph writes. */
  readonly changelog: ChangelogRepository
  /** Task records (the only repository with writes outside `apply`: the queue's bookkeeping). */
  readonly tasks: TaskRepository
  /** Stored embeddings. */
  readonly vectors: VectorRepository
  /** Per-brain settings. */
  readonly meta: MetaRepository
  /** Sources: what was ingested under which id (docs/forgetting.md). */
  readonly sources: SourceRepository
  /** Provenance: which passage supports which record. */
  readonly evidence: EvidenceRepository
  /**
   * Makes bytes of deleted records unrecoverable from this brain's storage as far as the adapter can,
   * after a forget (docs/forgetting.md): SQLite overwrites freed pages (`secure_delete`) and truncates
   * the WAL; PostgreSQL vacuums the brain's tables. Slow is fine: it runs after the forget committed.
   * Returns what it could not guarantee, or null.
   */
  purge(): Promise<string | null>
  /**
   * Optional. The engine does not expect to use this brain soon (its indexes were evicted under the
   * memory budget, `INDEX_MEMORY_MB`, or a scan of every brain's tasks read it): free what the store
   * caches for the brain. The store stays usable, and the next call may be slower (the SQLite adapter
   * closes the brain's connection and opens it again on that call). Must not disturb a write in
   * progress. Absent: nothing to free.
   */
  release?(): void
}
