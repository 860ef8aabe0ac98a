export {
  createEngramClient,
  type Changelog,
  type EngramClient,
  type EngramClientOptions,
  type EngramMethod,
  type Entity,
  type FileUpload,
  type Observation,
  type Relationship,
  type SearchHit,
  type SearchPlugins,
  type SearchResponse,
} from './engram-client.js'
export {
  changelogStream,
  type ChangelogEvent,
  type ChangelogStreamConnect,
  type ChangelogStreamOptions,
} from './changelog-stream.js'
export { readEventStream, type EventStreamBlock } from './event-stream.js'
export {
  EngramError,
  retryAfterSeconds,
  type ClientErrorCode,
  type ServerErrorCode,
} from './engram-error.js'
export type {
  Accepted,
  CallOptions,
  DeleteCalls,
  Deletion,
  GetSourceOptions,
  ListSourcesOptions,
  Passage,
  Source,
  SourceList,
  SourcesClient,
  SourceWithPassages,
} from './sources-client.js'
export { RETRYABLE_STATUSES, retryingFetch, type RetryOptions } from './retrying-fetch.js'
export {
  TERMINAL_TASK_STATUSES,
  waitForTask,
  type Task,
  type WaitForTaskOptions,
} from './wait-for-task.js'
export type { components, operations, paths } from './generated/engram-api.js'
