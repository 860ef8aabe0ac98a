// The library API (docs/library.md): one entry point, createEngram, and the types of its methods.
export { createEngram, type EngramLibrary } from './create-engram.js'
export { DEFAULT_MAX_FILE_BYTES, type EngramOptions } from './engram-options.js'
export type { EngramBrain } from './engram-brain.js'
export { memoryStorage } from './memory-storage.js'
export type { TaskHandle } from './task-handle.js'
export type {
  EngramIngest,
  FileIngestOptions,
  StructuredIngestOptions,
  StructuredItemInput,
  TextIngestOptions,
} from './library-ingest.js'
export type { SearchOptions } from './library-search.js'
export type {
  EngramSources,
  ForgetOptions,
  SourceOptions,
  SourcesOptions,
} from './library-sources.js'
export type {
  ContextOptions,
  EngramGraph,
  EntityContextOptions,
  EntityInfoOptions,
  EntityRef,
  EntityStatusOptions,
  HopsOptions,
  NeighborsOptions,
  RecommendLibraryOptions,
  RetrieveOptions,
  SynergiesLibraryOptions,
} from './library-graph.js'
export type {
  EngramRecords,
  EntitiesOptions,
  ObservationsOptions,
  PassagesOptions,
  RelationshipsOptions,
  TasksOptions,
  TypedListOptions,
} from './library-records.js'
export type {
  CreateEntityOptions,
  CreateRelationshipOptions,
  EngramModel,
  UpdateEntityOptions,
  UpdateRelationshipOptions,
} from './library-model.js'
export type { BrainInfo, EngramBrains, EngramSettings, SettingsUpdate } from './library-brains.js'
export { storageOption } from './storage-option.js'
