import { describe, expect, it } from 'vitest'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { BatchBuilder } from '../contracts/commit-hooks.js'
import { StorageUnavailableError } from '../errors.js'
import type { Logger } from '../logger.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { fixtures } from '../../testing/fixtures.js'
import type { TaskHandler } from './task-handler.js'
import { createTaskQueue } from './task-queue.js'

/**
 * The queue against storage that drops its connection now and then (`StorageUnavailableError`, as
 * the postgres adapter throws for a terminated session): a task is tried again, never failed for it,
 * its attempt counted once and its batch committed once; nothing rejects unhandled.
 */

/** Storage calls a plan can fail: `committed` fails after the batch was applied (the answer lost). */
type Op = 'store' | 'tasks.get' | 'tasks.put' | 'commit' | 'committed'

/** Fails the listed calls (1-based, per operation) with StorageUnavailableError. */
function faults(plan: Partial<Record<Op, number[] | 'always'>>) {
  const calls = new Map<Op, number>()
  return {
    calls,
    check(op: Op) {
      const n = (calls.get(op) ?? 0) + 1
      calls.set(op, n)
      const failing = plan[op]
      if (failing === 'always' || failing?.includes(n))
        throw new StorageUnavailableError(new Error(`${op} #${n}: connection terminated`))
    },
  }
}

function logs() {
  const lines: { level: string; msg: string | undefined }[] = []
  const at =
    (level: string) =>
    (_obj: object, msg?: string): void => {
      lines.push({ level, msg })
    }
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
  return { logger, messages: () => lines.map((l) => `${l.level}: ${l.msg}`) }
}

/** A queue over a memory brain `b` whose store and commit go through `fault`. */
async function setup(handler: TaskHandler, fault: ReturnType<typeof faults>) {
  const storage = memoryAdapter()
  await storage.open()
  await storage.catalog.create(fixtures.brain('b'))
  const base = await storage.brain('b')
  const tasks: BrainStore['tasks'] = {
    ...base.tasks,
    get: async (id) => {
      fault.check('tasks.get')
      return base.tasks.get(id)
    },
    put: async (task) => {
      fault.check('tasks.put')
      return base.tasks.put(task)
    },
  }
  const store: BrainStore = { ...base, tasks }
  let applied = 0
  const log = logs()
  const queue = createTaskQueue({
    async store() {
      fault.check('store')
      return store
    },
    async commit(_brainId, batch: WriteBatch | BatchBuilder, onApplied) {
      const built = typeof batch === 'function' ? await batch() : batch
      fault.check('commit')
      await base.apply(built)
      applied++
      fault.check('committed')
      onApplied?.()
    },
    listBrains: async () => ['b'],
    logger: log.logger,
    workers: 1,
    workersPerBrain: 1,
    maxPending: 100,
    retentionDays: 7,
    maxAttempts: 3,
    storageRetry: { baseMs: 1, maxMs: 2, jitter: 'full' },
  })
  queue.registerHandler('note', handler)
  return { queue, base, log, applied: () => applied }
}

/** A handler writing one passage; counts its runs. */
function notes() {
  let runs = 0
  const handler: TaskHandler = async (ctx) => {
    runs++
    return {
      status: 'completed',
      result: { passages: 1 },
      batch: {
        passages: [
          fixtures.passage({
            id: `p-${ctx.task.id}`,
            text: 'A note.',
            source: ctx.task.id,
            end: 7,
          }),
        ],
      },
    }
  }
  return { handler, runs: () => runs }
}

describe('task queue: storage that drops its connection', () => {
  it('retries a task through drops at its start, its start record and its commit: completed, one attempt, one commit', async () => {
    const note = notes()
    // store #1 is submit's; the run's first two fail, then its read, its start record and its commit.
    const fault = faults({ store: [2, 3], 'tasks.get': [1], 'tasks.put': [1], commit: [1] })
    const { queue, base, log, applied } = await setup(note.handler, fault)
    const { task } = await queue.submit({ brainId: 'b', kind: 'note', payload: {} })
    await queue.idle()
    expect(await base.tasks.get(task.id)).toMatchObject({ status: 'completed', attempts: 1 })
    // The commit that failed ran the handler's work again from its reads; one batch was applied.
    expect(note.runs()).toBe(2)
    expect(applied()).toBe(1)
    expect((await base.passages.list({ limit: 10, skip: 0 })).items).toHaveLength(1)
    expect(log.messages()).toContain('warn: storage unavailable; task retried')
    expect(log.messages().filter((m) => m.includes('task failed'))).toEqual([])
  })

  it('does not run a task again whose commit landed though its answer was lost', async () => {
    const note = notes()
    const { queue, base, applied } = await setup(note.handler, faults({ committed: [1] }))
    const { task } = await queue.submit({ brainId: 'b', kind: 'note', payload: {} })
    await queue.idle()
    expect(await base.tasks.get(task.id)).toMatchObject({ status: 'completed', attempts: 1 })
    expect(note.runs()).toBe(1)
    expect(applied()).toBe(1)
  })

  it("records a handler's failure through drops of the failure's write", async () => {
    // tasks.put #1 is the start record; #2 and #3, the failure's, fail.
    const { queue, base } = await setup(
      async () => {
        throw new Error('The payload is unreadable.')
      },
      faults({ 'tasks.put': [2, 3] }),
    )
    const { task } = await queue.submit({ brainId: 'b', kind: 'note', payload: {} })
    await queue.idle()
    expect(await base.tasks.get(task.id)).toMatchObject({
      status: 'failed',
      error: 'The payload is unreadable.',
      attempts: 1,
    })
  })

  it('stops at once while storage stays away, leaving the task to run later', async () => {
    const note = notes()
    const fault = faults({ 'tasks.get': 'always' })
    const { queue, base, log } = await setup(note.handler, fault)
    const { task } = await queue.submit({ brainId: 'b', kind: 'note', payload: {} })
    // Wait for the queue's own report of the outage, then stop with no grace.
    while (!log.messages().includes('warn: storage unavailable; task retried'))
      await new Promise((resolve) => setImmediate(resolve))
    await queue.stop(0)
    expect(await base.tasks.get(task.id)).toMatchObject({ status: 'queued', attempts: 0 })
    expect(note.runs()).toBe(0)
  })

  it('goes on after an error that is no storage outage escapes a run (logged, not unhandled)', async () => {
    const note = notes()
    // tasks.get #1 throws a plain error (a bug, say): not retried, not failing the queue.
    const storage = faults({})
    const { queue, base, log } = await setup(note.handler, storage)
    const original = storage.check
    storage.check = (op) => {
      if (op === 'tasks.get' && (storage.calls.get(op) ?? 0) === 0) {
        storage.calls.set(op, 1)
        throw new Error('unexpected')
      }
      original(op)
    }
    await queue.submit({ brainId: 'b', kind: 'note', payload: {} })
    await queue.idle()
    expect(log.messages()).toContain('error: task run failed unexpectedly')
    const { task } = await queue.submit({ brainId: 'b', kind: 'note', payload: {} })
    await queue.idle()
    expect(await base.tasks.get(task.id)).toMatchObject({ status: 'completed' })
  })
})
