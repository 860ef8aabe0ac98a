import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { Logger } from '../logger.js'
import type { JsonObject } from '../model/common.js'
import type { Task, TaskStage } from '../model/task.js'

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
export type LockedOutcome = (() => Promise<TaskOutcome>) & {
  /**
   * Called once the queue is done with the outcome, whether it was committed, refused, or never
   * computed (the task was stopped, or finished by another process): releases what the handler holds
   * until its write (`sources/source-ingestion.ts` holds its source).
   */
  dispose?: () => void
}

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
