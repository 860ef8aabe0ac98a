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
  type SearchResponse,
} from './engram-client.js'
export {
  EngramError,
  retryAfterSeconds,
  type ClientErrorCode,
  type ServerErrorCode,
} from './engram-error.js'
export { RETRYABLE_STATUSES, retryingFetch, type RetryOptions } from './retrying-fetch.js'
export {
  TERMINAL_TASK_STATUSES,
  waitForTask,
  type Task,
  type WaitForTaskOptions,
} from './wait-for-task.js'
export type { components, operations, paths } from './generated/engram-api.js'
