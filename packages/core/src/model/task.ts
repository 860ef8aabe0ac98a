import { z } from 'zod'
import { isoDate, jsonObject } from './common.js'

export const TASK_STATUSES = ['queued', 'started', 'completed', 'partial_failed', 'failed'] as const
export const taskStatus = z.enum(TASK_STATUSES)
export type TaskStatus = z.infer<typeof taskStatus>

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set([
  'completed',
  'partial_failed',
  'failed',
])

export const TASK_STAGES = [
  'queued',
  'source',
  'chunking',
  'extracting',
  'resolving',
  'embedding',
  'persisting',
  'indexing',
  'completed',
  'failed',
] as const
export const taskStage = z.enum(TASK_STAGES)
export type TaskStage = z.infer<typeof taskStage>

/**
 * An asynchronous unit of work (spec section 2.7, CONTRACT.md section 4). `kind` names the handler and
 * `payload` is what it needs to run again after a crash.
 */
export const taskSchema = z.object({
  id: z.string(),
  brainId: z.string(),
  kind: z.string(),
  status: taskStatus,
  stage: taskStage,
  counts: z.record(z.string(), z.number()),
  result: jsonObject.nullable(),
  error: z.string().nullable(),
  payload: z.unknown(),
  attempts: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
  endedAt: isoDate.nullable(),
})
export type Task = z.infer<typeof taskSchema>

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status)
}

const STATUS_RANK: Record<TaskStatus, number> = {
  queued: 0,
  started: 1,
  completed: 2,
  partial_failed: 2,
  failed: 2,
}

/** Status never moves backwards and terminal states are final (CONTRACT.md section 4). */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  if (isTerminal(from)) return false
  return STATUS_RANK[to] >= STATUS_RANK[from]
}
