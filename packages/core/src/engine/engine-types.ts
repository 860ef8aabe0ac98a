import type {
  BrainStats,
  BrainStore,
  Page,
  StorageAdapter,
  WriteBatch,
} from '../contracts/storage-adapter.js'
import type { BrainRecord } from '../model/brain-record.js'
import type { Polarity, Direction, JsonObject } from '../model/common.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import type { Task, TaskStage } from '../model/task.js'
import type { Logger } from '../logger.js'
import type { Embedder } from '../contracts/embedder.js'
import type { Extractor } from '../contracts/extractor.js'
import type { SearchPlugin } from '../contracts/search-plugins.js'
import type { IndexManager } from '../indexes/index-manager.js'
import type { VectorSnapshotOptions } from '../indexes/vector-snapshots.js'
import type { IngestionComponents } from '../ingest/pipeline/ingestion-components.js'
import type { Records } from '../records/records.js'
import type { SearchService } from '../search/search-service.js'
import type { GraphChannels } from '../search/graph-channels.js'

/** Who a token belongs to. */
export type Principal = { kind: 'system' } | { kind: 'brain'; brainId: string }

export interface EngineCoreOptions {
  storage: StorageAdapter
  /** Written as `brain_version` on passages and structured records (the server's package version). */
  version: string
  /** SHA-256 hex of the system token; without it no token is a system token. */
  systemTokenHash?: string
  /** Brain created at start and used when the system token selects none; null disables both. Default `default`. */
  defaultBrain?: string | null
  /** Tasks run at once (default 2). */
  workers?: number
  /**
   * Tasks of one brain run at once (default `workers - 1`, at least 1): a brain with a backlog leaves a
   * worker for the others, so their tasks start at once.
   */
  workersPerBrain?: number
  /**
   * Tasks waiting or running in this process past which a brain that holds its share (this over the
   * brains with tasks) gets 503 on `submit` (default 1000). Brains under their share are accepted.
   */
  maxPendingTasks?: number
  /** Days a terminal task record is kept (default 7). */
  taskRetentionDays?: number
  /** Attempts before a task that keeps crashing the process is marked failed (default 3). */
  maxTaskAttempts?: number
  /**
   * Least time between two writes of a running task's stage to storage (default 1000 ms). `tasks.get`
   * and `tasks.list` show every stage at once; storage gets the start, the finish, and the stage of a
   * task running longer than this.
   */
  taskProgressWriteMs?: number
  logger?: Logger
}

export interface CreatedBrain {
  record: BrainRecord
  /** The clear token: returned once, never stored. */
  token: string
}

export interface BrainService {
  /** 201 path: throws BRAIN_EXISTS (409) or VALIDATION_ERROR (422) for a bad id. */
  create(brainId: string): Promise<CreatedBrain>
  list(): Promise<BrainRecord[]>
  get(brainId: string): Promise<BrainRecord | null>
  /** Throws BRAIN_NOT_FOUND (404) when missing. */
  require(brainId: string): Promise<BrainRecord>
  /** Deletes every record, index and vector of the brain; returns what was removed. */
  delete(brainId: string): Promise<BrainStats>
  rotateToken(brainId: string): Promise<CreatedBrain>
  /** Constant-time comparison of hashes; null for an unknown token. */
  authenticate(token: string): Promise<Principal | null>
}

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
}

export interface UpdateRelationshipInput {
  uuid: string
  newProperties?: JsonObject
  propertiesToRemove?: string[]
  newDescription?: string | null
}

/** Synchronous graph writes (`/model/*`); each writes its changelog entry in the same transaction. */
export interface GraphWriter {
  createEntity(
    brainId: string,
    input: CreateEntityInput,
  ): Promise<{ entity: Entity; created: boolean }>
  updateEntity(brainId: string, input: UpdateEntityInput): Promise<Entity>
  createRelationship(brainId: string, input: CreateRelationshipInput): Promise<Relationship>
  updateRelationship(brainId: string, input: UpdateRelationshipInput): Promise<Relationship>
}

/** What a task handler reports back; `batch` is applied with the task's progress in one transaction. */
export interface TaskOutcome {
  status: 'completed' | 'partial_failed'
  result: JsonObject
  batch?: WriteBatch
}

/**
 * A task's outcome computed under its brain's write lock (see `Engram.commit`): the queue calls it once
 * no other write of the brain is in progress and commits what it returns before the next one starts.
 * A handler whose batch updates records it read (entity resolution) reads them here; the slow work that
 * does not depend on them (extraction, embedding) belongs before, outside the lock.
 */
export type LockedOutcome = () => Promise<TaskOutcome>

export interface TaskContext {
  readonly task: Task
  readonly store: BrainStore
  readonly signal: AbortSignal
  readonly logger: Logger
  /**
   * Records the stage (and counts) on the task: `tasks.get` shows it at once; storage gets it with the
   * finished record, or sooner on a task running longer than `taskProgressWriteMs`.
   */
  progress(stage: TaskStage, counts?: Record<string, number>): Promise<void>
}

/** Runs one kind of task. Must be idempotent: a task may run again after a crash. Throw to fail it. */
export type TaskHandler = (ctx: TaskContext) => Promise<TaskOutcome | LockedOutcome>

export interface SubmitTaskInput {
  brainId: string
  kind: string
  payload: unknown
  /** Client-chosen id (`Task-Identifier`); the same id again returns the same task. */
  taskId?: string
}

export interface TaskQueue {
  registerHandler(kind: string, handler: TaskHandler): void
  /** Stores the task durably, then schedules it. Throws SERVICE_UNAVAILABLE (503) when saturated or stopping. */
  submit(input: SubmitTaskInput): Promise<{ task: Task; created: boolean }>
  get(brainId: string, taskId: string): Promise<Task | null>
  list(brainId: string, page: Page): Promise<Task[]>
  /** Resolves when no task is queued or running in this process (tests, shutdown). */
  idle(): Promise<void>
  stats(): { running: number; pending: number; capacity: number }
}

/** Builds a batch from reads made under the brain's write lock (see `Engram.commit`). */
export type BatchBuilder = () => Promise<WriteBatch>

/**
 * Called after a batch is committed, so in-memory indexes can follow (retrieval plugs in here). Runs
 * under the brain's write lock (batches arrive in commit order): it must not commit to that brain.
 */
export type CommitListener = (brainId: string, batch: WriteBatch) => void | Promise<void>

/**
 * Called before a batch is applied, under the brain's write lock; may add to it (e.g. vectors for new
 * entities). Throwing aborts the write. Slow work here holds up every other write of the brain, so
 * `/model/*` writes call their hooks twice: first on a forecast, the batch built before taking the lock
 * (with `forecast` undefined), then on the batch built under the lock with that forecast, as the hooks
 * left it (its vectors), to reuse what still applies.
 */
export type BeforeCommitHook = (
  brainId: string,
  batch: WriteBatch,
  forecast?: WriteBatch,
) => Promise<void>

/**
 * The engine's core: storage, brains, graph writes, the task queue and the commit path. The index
 * manager, search and ingestion are built on it by the composition root (`createEngine`).
 */
export interface EngineCore {
  readonly version: string
  readonly logger: Logger
  readonly storage: StorageAdapter
  readonly brains: BrainService
  readonly graph: GraphWriter
  readonly tasks: TaskQueue
  /** The default brain id, or null when a brain must always be selected. */
  readonly defaultBrain: string | null
  /** A brain's store; throws BRAIN_NOT_FOUND for an unknown brain. */
  store(brainId: string): Promise<BrainStore>
  /**
   * Applies a batch and notifies commit listeners, holding the brain's write lock from before `batch` is
   * built (when it is a function) until the listeners are done, so writes of one brain never interleave.
   * A write that updates records it read (merges into an entity, edits a property) must read them inside
   * the builder: read before, it would overwrite what a write committed in between added (a lost update).
   * Not reentrant: a builder must not commit to its own brain.
   */
  commit(brainId: string, batch: WriteBatch | BatchBuilder): Promise<void>
  onCommit(listener: CommitListener): void
  beforeCommit(hook: BeforeCommitHook): void
  /**
   * Runs `hook` in `stop()` once tasks have drained and before storage closes (e.g. saving index
   * snapshots). Hooks run in registration order; a failing hook is logged and the stop goes on.
   */
  onStop(hook: () => Promise<void>): void
  /** Opens storage, ensures the default brain, resumes unfinished tasks. */
  start(): Promise<void>
  /** Stops accepting tasks, lets running ones finish (up to `graceMs`), leaves the rest queued, closes storage. */
  stop(options?: { graceMs?: number }): Promise<void>
}

export interface EngineOptions extends EngineCoreOptions {
  /**
   * Embeds passages and entities at ingestion and queries at search: one model for both. Without it,
   * search is lexical and graph only. The caller owns it (the engine does not close it).
   */
  embedder?: Embedder | null
  /** Extraction for text ingestion; default: the local extractor in-process. The caller owns it. */
  extractor?: Extractor | null
  /**
   * The ingestion stages, for callers that replace some (tests, benchmarks); default:
   * `defaultIngestionComponents({ embedder, extractor })`.
   */
  ingestion?: IngestionComponents
  /** Extra channel, fusion and stage plugins, registered after the built-ins (names must not clash). */
  plugins?: SearchPlugin[]
  /**
   * Channels (request names, `plugin:<name>` included) and fusion that `/retrieve/`, hop seeds and
   * context-pack seeds take their candidates from; an empty or absent list keeps the default
   * (`DEFAULT_GRAPH_CHANNELS`). An unknown name fails `createEngine`.
   */
  graphChannels?: Partial<GraphChannels>
  /** Vector index snapshots (see `IndexManagerOptions.snapshots`). Default: on. */
  snapshots?: VectorSnapshotOptions | false
}

/**
 * The engine: what the server, the documentation brain, benchmarks and library users drive. Built by
 * `createEngine`, the one composition root; started and stopped as one.
 */
export interface Engram extends EngineCore {
  /** Every brain's in-memory indexes. */
  readonly indexes: IndexManager
  /** The search pipeline and its plugin registry. */
  readonly search: SearchService
  /** Record lists and lookups with their query semantics (what `/retrieve/*` lists and `/meta/*` read). */
  readonly records: Records
}
