export * from './library/index.js'
export * from './model/index.js'
export * from './errors.js'
export * from './ids.js'
export * from './logger.js'
export { loopYielder } from './loop-yielder.js'
export {
  createForeground,
  NO_FOREGROUND,
  type Foreground,
  type ForegroundOptions,
} from './foreground.js'
export {
  backoffMs,
  parseRetryAfter,
  retryAfterMs,
  retryDelay,
  sleep,
  type BackoffJitter,
  type BackoffOptions,
} from './retry-delay.js'
export type * from './contracts/storage-adapter.js'
export type * from './engine/engine-types.js'
export { createEngine } from './engine/create-engine.js'
export { batchFromSummary, summarizeBatch } from './engine/write-summary.js'
export { FairQueue } from './fair-queue.js'
export * from './brain/tokens.js'
export { normalizeEntityName, otherNames } from './model-writes/normalize-entity-name.js'
export { fencedCode, gapsOutsideCode } from './ingest/fenced-code.js'
export {
  changelogEntry,
  nodeCreated,
  relationshipChange,
  partialNode,
  partialPredicate,
} from './model-writes/changelog.js'
export { memoryAdapter } from './memory-adapter/index.js'
export * from './analysis/analyze.js'
export { ENGLISH_STOPWORDS, NLTK_ENGLISH_STOPWORDS } from './analysis/english-stopwords.js'
export { cosine, cosineOrNull } from './vectors/cosine.js'
export { vectorFromBytes, vectorToBytes } from './vectors/vector-bytes.js'
export {
  Bm25Index,
  BM25_VARIANTS,
  DEFAULT_BM25,
  resolveBm25Settings,
  type Bm25Options,
  type Bm25Settings,
  type Bm25Variant,
  type ResolvedBm25Settings,
  type ScoredId,
  type Explanation,
} from './indexes/bm25/bm25-index.js'
export type * from './contracts/search-plugins.js'
export {
  PluginRegistry,
  BUILTIN_NAMES,
  requestName,
  type PluginKind,
} from './registry/plugin-registry.js'
export {
  PluginRegistryError,
  type PluginRegistryErrorCode,
} from './registry/plugin-registry-error.js'
export {
  loadPluginModules,
  pluginsOf,
  type LoadPluginModulesOptions,
  type PluginFactory,
  type PluginModuleExport,
} from './registry/load-plugin-modules.js'
export {
  BrainCommunities,
  type BrainCommunitiesOptions,
} from './indexes/communities/brain-communities.js'
export {
  CommunityIndex,
  type CommunityMatch,
  type CommunityStats,
} from './indexes/communities/community-index.js'
export { graphologyView, type KnowledgeMultiGraph } from './indexes/communities/graphology-view.js'
export { louvainPartition, type Partition } from './indexes/communities/louvain-communities.js'
export { rrf, fuseByReciprocalRank } from './builtins/fusions/reciprocal-rank.js'
export {
  convexCombination,
  fuseByConvexCombination,
  NEUTRAL_FUSION,
} from './builtins/fusions/convex-combination.js'
export { normalizeScores } from './builtins/fusions/score-normalization.js'
export { fusionCalibrationFor, type FusionCalibrationRecord } from './search/fusion-calibration.js'
export { FUSION_CALIBRATIONS } from './search/fusion-calibration-table.js'
export { DEFAULT_FUSION } from './search/graph-channels.js'
export { noFusion } from './builtins/fusions/no-fusion.js'
export type { SearchService, SearchServiceOptions } from './search/search-service.js'
export { createSearchService } from './search/search-service.js'
export type {
  IndexManager,
  IndexManagerOptions,
  IndexManagerStats,
} from './indexes/index-manager.js'
export type { IndexComponent } from './indexes/index-component.js'
export type { SearchInput, SearchRequest } from './search/search-request.js'
export { resolveSearchRequest } from './search/resolve-search-request.js'
export { DEFAULT_GRAPH_CHANNELS, type GraphChannels } from './search/graph-channels.js'
export {
  builtinCandidateSource,
  type CandidatesRequest,
  type CandidatesResult,
} from './search/search-candidates.js'
export type { ChannelRef } from './search/pipeline/retrieve-step.js'
export type { DenseReaders } from './search/search-service.js'
export { builtinPlugins } from './builtins/builtin-plugins.js'
export {
  entitiesChannel,
  type EntitiesChannelOptions,
} from './builtins/channels/entities-channel.js'
export { neighbourExpansion } from './builtins/stages/neighbour-expansion.js'
export {
  graphWalk,
  GRAPH_WALK_DEFAULTS,
  type GraphWalkSettings,
} from './builtins/stages/graph-walk.js'
export {
  walkPassages,
  walkFromSeeds,
  DEFAULT_WALK,
  type WalkOptions,
} from './indexes/graph/passage-walk.js'
export { personalization } from './builtins/stages/personalization.js'
export {
  BrainIndexes,
  VECTOR_SPACES,
  type VectorSpace,
  type VectorIndexOrigin,
} from './indexes/brain-indexes.js'
export {
  VectorIndex,
  VECTOR_INDEX_DEFAULTS,
  type VectorIndexOptions,
  type ScoredVector,
} from './indexes/vectors/vector-index.js'
export {
  saveVectorIndex,
  loadVectorIndex,
  syncVectorSnapshot,
} from './indexes/vectors/vector-snapshot.js'
export type { VectorSnapshotOptions } from './indexes/index-snapshots.js'
export {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  createPrivateFile,
  makePrivateDir,
  tightenModes,
} from './private-files.js'
export { denseRerank } from './builtins/stages/dense-rerank.js'
export {
  coverQuery,
  heldInText,
  hopCoverage,
  HOP_COVERAGE_DEFAULTS,
  queryCoverage,
  QUERY_COVERAGE_DEFAULTS,
  type QueryCoverageSettings,
} from './builtins/stages/query-coverage.js'
export { MAX_SNIPPET } from './search/snippet.js'
export * from './ingest/ingest-payloads.js'
export * from './ingest/build-ingest-payloads.js'
export { MAP_LIMITS, mapProblem, type MapLimits, type MapProblem } from './map-limits.js'
export { invalidInput, parseInput } from './invalid-input.js'
export type * from './ingest/pipeline/ingestion-components.js'
export {
  defaultIngestionComponents,
  type DefaultComponentsOptions,
} from './ingest/default-components.js'
export type { LocalExtractorOptions } from './ingest/extract/local-extractor.js'
// The NLP libraries load on the first extraction, not with this module.
export { onDemandLocalExtractor as localExtractor } from './ingest/extract/on-demand-local-extractor.js'
export {
  localExtractorPool,
  mergeExtractedGraphs,
  type LocalExtractorPoolOptions,
} from './ingest/extract/local-extractor-pool.js'
export type * from './contracts/extractor.js'
export type * from './contracts/embedder.js'
export { chunkText, type ChunkOptions } from './ingest/chunk/chunk-text.js'
export {
  parseFile,
  checkFile,
  detectFileType,
  jsonToText,
  SUPPORTED_TYPES,
  type FileType,
  type Upload,
} from './ingest/parse/parse-file.js'
export {
  createRetrieveDeps,
  type RetrieveDeps,
  type RetrieveDepsOptions,
} from './retrieve/retrieve-deps.js'
export {
  resolveTarget,
  termCoverage,
  TARGET_MATCH_THRESHOLD,
  type ResolveTargetOptions,
} from './retrieve/resolve-target.js'
export { NeighborsOf, type NeighborEdge } from './retrieve/neighbors-of.js'
export {
  traverse,
  type TraverseOptions,
  type Traversal,
  type TraversedNode,
} from './retrieve/traverse.js'
export type { Records } from './records/records.js'
export { createRecords, type RecordsSource } from './records/create-records.js'
export {
  entityObservations,
  observationsOf,
  OBSERVATIONS_PER_ENTITY,
  type EntityWithObservations,
} from './records/entity-observations.js'
export {
  rankNeighbors,
  neighborsByUuid,
  type NeighborResult,
  type NeighborsResult,
  type RankNeighborsOptions,
} from './retrieve/neighbors.js'
export { identifyEntity, neighborsByIdentification } from './retrieve/neighbors-identify.js'
export { neighborsAiMode } from './retrieve/neighbors-ai-mode.js'
export {
  entityContext,
  CONTEXT_FAN_OUT,
  CONTEXT_MAX_NODES,
  type ContextBranch,
  type EntityContext,
  type WebEntry,
} from './retrieve/entity-context.js'
export {
  entityInfo,
  type EntityInfo,
  type MatchPath,
  type PathStep,
} from './retrieve/entity-info.js'
export { entityStatus, type EntityStatus } from './retrieve/entity-status.js'
export { hops, HOP_FAN_OUT, HOP_SEEDS, type Hop, type HopTree } from './retrieve/hops.js'
export { retrieveRoot, type RetrieveRootResult } from './retrieve/retrieve-root.js'
export { GraphIndex } from './indexes/graph/graph-index.js'
export { LazyGraphIndex } from './indexes/graph/lazy-graph-index.js'
export {
  contextPack,
  isHistoryQuestion,
  type ContextPack,
  type ContextPackOptions,
  type ContextPath,
  type ContextTopic,
  type ContextTriple,
  type TemporalConflict,
} from './retrieve/context-pack.js'
export {
  synergies,
  type Synergy,
  type SynergiesOptions,
  type SynergiesResult,
} from './retrieve/synergies.js'
export {
  rankRecommendations,
  recommend,
  recommendNodes,
  type Recommendation,
  type RecommendOptions,
  type RecommendResult,
} from './retrieve/recommend/recommend.js'
export {
  recommendChannels,
  type RecommendChannels,
} from './retrieve/recommend/recommend-channels.js'
export { CHANNEL_WEIGHTS } from './retrieve/recommend/merge-channels.js'
export { MMR_LAMBDA } from './retrieve/recommend/diversify.js'
export { HISTORY_HALF_LIFE } from './retrieve/recommend/history-weights.js'
export type { RecommendChannel, RecommendTuning } from './retrieve/recommend/recommend-types.js'
export {
  DEFAULT_BEHAVIOR_WEIGHTS,
  normalizeBehavior,
} from './retrieve/recommend/behavior-weights.js'
export {
  useLiteEmbedder,
  type UseLiteEmbedder,
  type UseLiteEmbedderOptions,
} from './embedders/use-lite/use-lite-embedder.js'
export type { UseLitePrecision } from './embedders/use-lite/use-lite-onnx-graph.js'
export {
  openaiEmbedder,
  embeddingsUrl,
  type OpenAIEmbedderOptions,
} from './embedders/openai/openai-embedder.js'
export { VectorCache } from './embedders/vector-cache.js'
export { scheduledEmbedder, type ScheduledEmbedderOptions } from './embedders/scheduled-embedder.js'
export { l2Normalize } from './embedders/l2-normalize.js'
export * from './sources/sources-api.js'
// Time (docs/time.md): validity windows, contradictions, the brain at a time.
export {
  DEFAULT_SINGLE_VALUED,
  SingleValuedSlots,
  brainSingleValued,
  type SingleValuedTable,
} from './time/single-valued.js'
export { MONTH_NAMES, statedTime, type StatedTime } from './time/stated-time.js'
export { supersede, type SlotFact, type Ending } from './time/supersede.js'
export {
  isNow,
  timeFilter,
  toInstant,
  visible,
  windowOf,
  type TimeFilter,
  type Timed,
  type Window,
} from './time/validity.js'
export { sliceBrain } from './time/time-slice.js'
