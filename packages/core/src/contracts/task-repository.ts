import type { Task, TaskStatus } from '../model/task.js'
import type { Page } from './storage-page.js'

/**
 * A brain's task records (ingestion jobs and their durable payloads). The task queue enforces the
 * status rules; the repository only stores. A task may also be written by `BrainStore.apply`
 * (`WriteBatch.task`), in the transaction of the records it produced.
 */
export interface TaskRepository {
  /** Inserts a task unless one with the same id exists; returns the stored task and whether it was created. */
  create(task: Task): Promise<{ task: Task; created: boolean }>
  /** One task, or null when the id is unknown. */
  get(id: string): Promise<Task | null>
  /** Overwrites (or inserts) a task record. */
  put(task: Task): Promise<void>
  /**
   * Newest first (`createdAt`, then id, descending); with `statuses`, only tasks in one of them (the
   * page counts those only). An adapter must filter itself: paging over an unfiltered list cannot.
   */
  list(page: Page, statuses?: readonly TaskStatus[]): Promise<Task[]>
  /** Tasks in the given statuses, oldest first (used to resume after a restart). */
  inStatus(statuses: TaskStatus[]): Promise<Task[]>
  /** Deletes terminal tasks that ended before `endedBefore` (ISO time); returns how many. */
  deleteEndedBefore(endedBefore: string): Promise<number>
}
