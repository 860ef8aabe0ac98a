import type { BrainRecord } from '../model/brain-record.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'
import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import type { StructuredRecord } from '../model/structured-record.js'
import type { Task, TaskStatus } from '../model/task.js'

/**
 * The storage port. An adapter holds the brain catalog and one isolated store per brain; it holds no
 * ranking logic. Every adapter passes the conformance suite exported from `@engram/core/testing`.
 * Read `docs/writing-an-adapter.md` before writing one.
 */
export interface StorageAdapter {
  /** Short name for logs and errors, e.g. `sqlite`. */
  readonly name: string
  /** Opens connections and runs migrations. Called once before any other member. */
  open(): Promise<void>
  /** Flushes and releases everything. Idempotent. */
  close(): Promise<void>
  /** The brain catalog (ids and token hashes). */
  readonly catalog: BrainCatalog
  /** The store of one brain. The brain must exist in the catalog; stores are opened lazily and cached. */
  brain(brainId: string): Promise<BrainStore>
}

/** Brain registry. Tokens are never stored in clear: only `tokenHash` (SHA-256 hex) and `tokenLast4`. */
export interface BrainCatalog {
  /** Inserts a brain; returns false (and writes nothing) when the id exists. */
  create(record: BrainRecord): Promise<boolean>
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
}

export interface Page {
  /** 1..1000 (validated by callers). */
  limit: number
  /** >= 0. */
  skip: number
}

export interface Paged<T> {
  items: T[]
  /** Matching records before `limit`/`skip`. */
  total: number
}

export interface EntityQuery extends Page {
  /** Any-match label filter. */
  labels?: string[]
  /** Case-insensitive substring of the name. */
  queryText?: string
}

export interface RelationshipQuery extends Page {
  types?: string[]
  fromLabels?: string[]
  toLabels?: string[]
  /** Case-insensitive substring of subject name, object name or description (per `target`). */
  queryText?: string
  target?: 'all' | 'source' | 'target'
}

/** A relationship with both endpoints, as lists return it. */
export interface Triple {
  subject: Entity
  predicate: Relationship
  object: Entity
}

export interface ObservationQuery extends Page {
  resourceId?: string
  /** Any-match against `metadata.labels`. */
  labels?: string[]
  queryText?: string
}

export interface StructuredQuery extends Page {
  types?: string[]
  /** Case-insensitive substring of the JSON of data, types and metadata. */
  queryText?: string
}

export interface ChangelogQuery extends Page {
  types?: string[]
  /** Case-insensitive substring of the JSON of the change. */
  queryText?: string
}

export interface PassageQuery extends Page {
  /** Passages written by this task. */
  source?: string
}

/** A stored embedding. `space` groups vectors of one kind: `passages`, `entities`, `observations`, ... */
export interface VectorRecord {
  space: string
  id: string
  vector: Float32Array
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
  deleteEntities?: string[]
  deleteRelationships?: string[]
  deleteVectors?: { space: string; id: string }[]
  /** Task state written in the same transaction (e.g. completion of the task that produced the batch). */
  task?: Task
}

/** One brain's records. All methods are brain-scoped: a store never sees another brain's data. */
export interface BrainStore {
  readonly brainId: string
  /**
   * A directory private to this brain where the engine keeps snapshot files of its in-memory indexes
   * (hundreds of MB for a large brain: files, not `putSnapshot` blobs). The adapter only names it and
   * removes it, with everything in it, when the brain is deleted; the engine creates it. Undefined or
   * null: the adapter keeps no files (e.g. `memory`), and indexes are rebuilt from records on start.
   */
  readonly snapshotDir?: string | null

  /** Applies a batch in one transaction: all of it or nothing. */
  apply(batch: WriteBatch): Promise<void>

  getPassages(ids: string[]): Promise<Passage[]>
  listPassages(query: PassageQuery): Promise<Paged<Passage>>
  /** All passages in insertion order, in pages (for index rebuilds). `after` is the last id of the previous page. */
  scanPassages(after: string | null, limit: number): Promise<Passage[]>

  getEntities(uuids: string[]): Promise<Entity[]>
  /** Entities whose normalised name or alias equals `normalizedName` (lower-case, collapsed spaces). */
  findEntitiesByName(normalizedName: string): Promise<Entity[]>
  listEntities(query: EntityQuery): Promise<Paged<Entity>>
  scanEntities(after: string | null, limit: number): Promise<Entity[]>

  getRelationships(uuids: string[]): Promise<Relationship[]>
  /** Relationships touching an entity, as subject or object. */
  relationshipsOf(uuid: string): Promise<Relationship[]>
  listRelationships(query: RelationshipQuery): Promise<Paged<Triple>>
  scanRelationships(after: string | null, limit: number): Promise<Relationship[]>

  getObservation(id: string): Promise<Observation | null>
  listObservations(query: ObservationQuery): Promise<Paged<Observation>>
  observationLabels(): Promise<string[]>

  getStructured(id: string): Promise<StructuredRecord | null>
  listStructured(query: StructuredQuery): Promise<Paged<StructuredRecord>>
  structuredTypes(): Promise<string[]>

  getChangelog(id: string): Promise<ChangelogEntry | null>
  listChangelog(query: ChangelogQuery): Promise<Paged<ChangelogEntry>>
  changelogTypes(): Promise<string[]>
  /** Entries with `seq` greater than `afterSeq`, ascending (for followers that tail the log). */
  changelogSince(afterSeq: number, limit: number): Promise<ChangelogEntry[]>

  /** Inserts a task unless one with the same id exists; returns the stored task and whether it was created. */
  createTask(task: Task): Promise<{ task: Task; created: boolean }>
  getTask(id: string): Promise<Task | null>
  /** Overwrites a task record (the queue enforces the status rules). */
  putTask(task: Task): Promise<void>
  /** Newest first. */
  listTasks(page: Page): Promise<Task[]>
  /** Tasks in the given statuses, oldest first (used to resume after a restart). */
  tasksInStatus(statuses: TaskStatus[]): Promise<Task[]>
  /** Deletes terminal tasks that ended before `endedBefore`; returns how many. */
  deleteTasksEndedBefore(endedBefore: string): Promise<number>

  getVectors(space: string, ids: string[]): Promise<VectorRecord[]>
  scanVectors(space: string, after: string | null, limit: number): Promise<VectorRecord[]>

  /** Small per-brain settings (embedder name and dimension, index versions, ...). */
  getMeta(key: string): Promise<string | null>
  setMeta(key: string, value: string): Promise<void>

  /** Opaque snapshots of derived indexes, keyed by name. */
  getSnapshot(name: string): Promise<Uint8Array | null>
  putSnapshot(name: string, data: Uint8Array): Promise<void>

  /** Distinct labels, entity property keys and relationship names (for `/meta/*`), sorted. */
  entityLabels(): Promise<string[]>
  entityPropertyKeys(): Promise<string[]>
  relationshipNames(): Promise<string[]>

  stats(): Promise<BrainStats>
}
