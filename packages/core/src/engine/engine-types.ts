import type { GraphWalkSettings } from '../builtins/stages/graph-walk.js'
import type { BrainSettingsService } from '../brain/brain-settings.js'
import type { Embedder } from '../contracts/embedder.js'
import type { Extractor } from '../contracts/extractor.js'
import type { SearchPlugin } from '../contracts/search-plugins.js'
import type { Bm25Settings } from '../indexes/bm25/bm25-index.js'
import type { IndexManager } from '../indexes/index-manager.js'
import type { VectorSnapshotOptions } from '../indexes/index-snapshots.js'
import type { IngestionComponents } from '../ingest/pipeline/ingestion-components.js'
import type { Records } from '../records/records.js'
import type { SearchService } from '../search/search-service.js'
import type { ExpirySweeper } from '../sources/expiry-sweeper.js'
import type { SourcesService } from '../sources/sources-api.js'
import type { GraphChannels } from '../search/graph-channels.js'
import type { EngineCore, EngineCoreOptions } from './engine-core.js'

// The engine's parts are typed where they live (lower layers never import this file); re-exported
// here so that the engine's whole type surface is importable from one module.
export type { BrainService, CreatedBrain, Principal } from '../brain/brain-service.js'
export type {
  BrainSettings,
  BrainSettingsService,
  BrainSettingsUpdate,
} from '../brain/brain-settings.js'
export type { BatchBuilder, BeforeCommitHook, CommitListener } from '../contracts/commit-hooks.js'
export type { GraphWriter } from '../model-writes/graph-writer.js'
export type {
  CreateEntityInput,
  CreateRelationshipInput,
  UpdateEntityInput,
  UpdateRelationshipInput,
} from '../model-writes/write-inputs.js'
export type { LockedOutcome, TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-handler.js'
export type { SubmitTaskInput, TaskQueue } from '../tasks/task-queue.js'
export type { EngineCore, EngineCoreOptions }

export interface EngineOptions extends EngineCoreOptions {
  /**
   * End facts that newer single-valued facts contradict at ingestion (docs/time.md); default true.
   * False records validity windows but ends nothing: the benchmarks' "without" condition.
   */
  contradictions?: boolean
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
  /** Settings of the graph walk of `expand=neighbors` and the context pack (default `GRAPH_WALK_DEFAULTS`). */
  graphWalk?: Partial<GraphWalkSettings>
  /**
   * Fusion of a search that names none (`/retrieve/search` and graph operations; default `cc` with
   * the brain's calibrated weights, docs/search-fusion.md). An unknown name fails `createEngine`.
   */
  defaultFusion?: string
  /** Index snapshots, vector and lexical (see `IndexManagerOptions.snapshots`). Default: on. */
  snapshots?: VectorSnapshotOptions | false
  /**
   * Memory budget of the in-memory indexes, in MiB (2^20 bytes; fractions allowed): the least recently
   * requested brains' indexes are evicted beyond it and rebuilt (from snapshots where valid) on their
   * next request (see `IndexManagerOptions.memoryBudgetBytes`). Default: unlimited.
   */
  indexMemoryMb?: number
  /**
   * BM25 scoring of every brain's lexical indexes (variant, k1, b, delta) unless the brain overrides
   * it (`brainSettings.update`); fields left out take the built-in defaults (`DEFAULT_BM25`). Bad
   * values fail `createEngine`.
   */
  bm25?: Bm25Settings
  /**
   * Seconds between sweeps that forget expired sources (docs/time.md, Expiry); 0 disables the timer
   * (`expiry.sweep()` still runs one). Default 60.
   */
  expirySweepSeconds?: number
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
  /** Per-brain settings (BM25 scoring) over the engine's defaults. */
  readonly brainSettings: BrainSettingsService
  /** Sources, forgetting and graph deletes (docs/forgetting.md). */
  readonly sources: SourcesService
  /** The sweep that forgets expired sources (docs/time.md, Expiry), started and stopped with the engine. */
  readonly expiry: ExpirySweeper
}
