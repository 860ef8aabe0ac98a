import { describe, expect, it } from 'vitest'
import { EngramError } from '../errors.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { createEngineCore } from '../engine/engine-core.js'
import type { EngineCore } from '../engine/engine-core.js'
import type { TaskHandler } from './task-handler.js'
import type { StorageAdapter } from '../contracts/storage-adapter.js'
import { nowIso } from '../model/common.js'
import type { Foreground } from '../foreground.js'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

async function engine(
  handler: TaskHandler,
  options: {
    workers?: number
    workersPerBrain?: number
    maxPendingTasks?: number
    foreground?: Foreground
  } = {},
  storage?: StorageAdapter,
) {
  const engram = createEngineCore({
    storage: storage ?? memoryAdapter(),
    version: 'test',
    ...options,
  })
  engram.tasks.registerHandler('echo', handler)
  await engram.start()
  return engram
}

async function waitFor(condition: () => Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve))
}

async function waitTerminal(engram: EngineCore, taskId: string) {
  await engram.tasks.idle()
  return (await engram.tasks.get('default', taskId))!
}

describe('task queue', () => {
  it('runs a task to completion, recording stages, counts and the result', async () => {
    const stages: string[] = []
    const engram = await engine(async (ctx) => {
      stages.push(ctx.task.stage)
      await ctx.progress('chunking', { passages: 2 })
      stages.push(ctx.task.stage)
      return { status: 'completed', result: { passages: 2 } }
    })
    const { task, created } = await engram.tasks.submit({
      brainId: 'default',
      kind: 'echo',
      payload: { x: 1 },
    })
    expect(created).toBe(true)
    expect(task.status).toBe('queued')
    const done = await waitTerminal(engram, task.id)
    expect(stages).toEqual(['source', 'chunking'])
    expect(done).toMatchObject({
      status: 'completed',
      stage: 'completed',
      result: { passages: 2 },
      counts: { passages: 2 },
      attempts: 1,
    })
    expect(done.endedAt).not.toBeNull()
  })

  it('asks the foreground for a turn before its start, each stage and its commit', async () => {
    const asked: string[] = []
    let granted = deferred()
    const foreground: Foreground = {
      touch() {},
      turn() {
        asked.push(at)
        return granted.promise
      },
    }
    let at = 'start'
    const engram = await engine(
      async (ctx) => {
        at = 'stage'
        await ctx.progress('extracting')
        at = 'commit'
        return { status: 'completed', result: {} }
      },
      { foreground },
    )
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    // Each step waits until the foreground grants its turn.
    for (const step of ['start', 'stage', 'commit']) {
      await waitFor(async () => asked.length === ['start', 'stage', 'commit'].indexOf(step) + 1)
      expect(asked.at(-1)).toBe(step)
      expect((await engram.tasks.get('default', task.id))!.status).not.toBe('completed')
      const turn = granted
      granted = deferred()
      turn.resolve()
    }
    expect((await waitTerminal(engram, task.id)).status).toBe('completed')
    expect(asked).toEqual(['start', 'stage', 'commit'])
  })

  it('shows every stage through the queue while the store gets only the start and the finish', async () => {
    const storage = memoryAdapter()
    const gate = deferred()
    const seen: string[] = []
    const engram = await engine(
      async (ctx) => {
        await ctx.progress('extracting', { passages: 3 })
        await gate.promise
        return { status: 'completed', result: { passages: 3 } }
      },
      {},
      storage,
    )
    // The finished record travels in the batch of the persisting commit; 'indexing' is visible meanwhile.
    engram.onCommit(async (brainId, batch) => {
      seen.push(`${batch.task?.status}/${batch.task?.stage}`)
      seen.push((await engram.tasks.get(brainId, batch.task!.id))!.stage)
    })
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: 1 })
    while ((await engram.tasks.get('default', task.id))?.stage !== 'extracting')
      await new Promise((resolve) => setImmediate(resolve))
    const store = await engram.store('default')
    expect(await engram.tasks.get('default', task.id)).toMatchObject({
      status: 'started',
      stage: 'extracting',
      counts: { passages: 3 },
    })
    expect((await engram.tasks.list('default', { limit: 10, skip: 0 }))[0]?.stage).toBe(
      'extracting',
    )
    // Durable: started, attempt counted (a crash now re-runs it); the stage in between is not written.
    expect(await store.tasks.get(task.id)).toMatchObject({
      status: 'started',
      stage: 'source',
      attempts: 1,
    })
    gate.resolve()
    await engram.tasks.idle()
    expect(seen).toEqual(['completed/completed', 'indexing'])
    expect(await store.tasks.get(task.id)).toMatchObject({
      status: 'completed',
      stage: 'completed',
      counts: { passages: 3 },
      result: { passages: 3 },
    })
  })

  it('writes the stage to the store once progressWriteMs have passed since the last write', async () => {
    const gate = deferred()
    const engram = createEngineCore({
      storage: memoryAdapter(),
      version: 'test',
      taskProgressWriteMs: 0,
    })
    engram.tasks.registerHandler('echo', async (ctx) => {
      await ctx.progress('resolving', { entities: 2 })
      await gate.promise
      return { status: 'completed', result: {} }
    })
    await engram.start()
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: 1 })
    const store = await engram.store('default')
    while ((await engram.tasks.get('default', task.id))?.stage !== 'resolving')
      await new Promise((resolve) => setImmediate(resolve))
    expect(await store.tasks.get(task.id)).toMatchObject({
      stage: 'resolving',
      counts: { entities: 2 },
    })
    gate.resolve()
    await engram.tasks.idle()
  })

  it('lets the stores of brains with no task here release what the start-up scan opened', async () => {
    const inner = memoryAdapter()
    const released: string[] = []
    const storage: StorageAdapter = {
      ...inner,
      async brain(brainId) {
        return { ...(await inner.brain(brainId)), release: () => released.push(brainId) }
      },
    }
    // A first life leaves a task unfinished in 'default', none in 'idle'.
    const first = await engine(() => new Promise(() => {}), {}, storage)
    await first.brains.create('idle')
    await first.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    await first.stop({ graceMs: 0 })
    released.length = 0
    const gate = deferred()
    const second = await engine(
      async () => {
        await gate.promise
        return { status: 'completed', result: {} }
      },
      {},
      storage,
    )
    // One pass at start (retention sweep and resume per brain): 'default' holds its resumed task.
    expect(released).toEqual(['idle'])
    gate.resolve()
    await second.stop()
  })

  it('returns the same task for the same client task id', async () => {
    const engram = await engine(async () => ({ status: 'completed', result: {} }))
    const a = await engram.tasks.submit({
      brainId: 'default',
      kind: 'echo',
      payload: 1,
      taskId: 'client-1',
    })
    const b = await engram.tasks.submit({
      brainId: 'default',
      kind: 'echo',
      payload: 2,
      taskId: 'client-1',
    })
    expect(b.created).toBe(false)
    expect(b.task.id).toBe(a.task.id)
    await engram.tasks.idle()
    expect(await engram.tasks.list('default', { limit: 10, skip: 0 })).toHaveLength(1)
  })

  it('marks a throwing task failed with its message', async () => {
    const engram = await engine(async () => {
      throw new Error('parser exploded')
    })
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: null })
    const done = await waitTerminal(engram, task.id)
    expect(done).toMatchObject({ status: 'failed', stage: 'failed', error: 'parser exploded' })
  })

  it('answers 503 with Retry-After when saturated, never losing accepted tasks', async () => {
    const gate = deferred()
    const engram = await engine(
      async () => {
        await gate.promise
        return { status: 'completed', result: {} }
      },
      { workers: 1, maxPendingTasks: 2 },
    )
    await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: 1 })
    await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: 2 })
    const error = await engram.tasks
      .submit({ brainId: 'default', kind: 'echo', payload: 3 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EngramError)
    expect((error as EngramError).status).toBe(503)
    expect((error as EngramError).retryAfter).toBeGreaterThan(0)
    gate.resolve()
    await engram.tasks.idle()
    const tasks = await engram.tasks.list('default', { limit: 10, skip: 0 })
    expect(tasks.map((t) => t.status)).toEqual(['completed', 'completed'])
  })

  it('gives each brain its share of a saturated queue: a flood refuses only the flooding brain', async () => {
    const gate = deferred()
    const engram = await engine(
      async () => {
        await gate.promise
        return { status: 'completed', result: {} }
      },
      { workers: 1, maxPendingTasks: 4 },
    )
    await engram.brains.create('quiet')
    const submit = (brainId: string) =>
      engram.tasks.submit({ brainId, kind: 'echo', payload: brainId }).then(
        () => 'accepted',
        (error: EngramError) => `${error.status} ${error.retryAfter! > 0}`,
      )
    const flood = []
    for (let i = 0; i < 5; i++) flood.push(await submit('default'))
    expect(flood).toEqual(['accepted', 'accepted', 'accepted', 'accepted', '503 true'])
    // Two brains with tasks: a share is 2. The quiet brain is accepted up to it, the flood still not.
    expect([await submit('quiet'), await submit('quiet'), await submit('quiet')]).toEqual([
      'accepted',
      'accepted',
      '503 true',
    ])
    expect(await submit('default')).toBe('503 true')
    gate.resolve()
    await engram.tasks.idle()
    const done = async (brainId: string) =>
      (await engram.tasks.list(brainId, { limit: 10, skip: 0 })).map((t) => t.status)
    expect(await done('default')).toEqual(Array(4).fill('completed'))
    expect(await done('quiet')).toEqual(Array(2).fill('completed'))
  })

  it('starts brains in turn and leaves a worker free of any one brain', async () => {
    const gates = new Map<string, ReturnType<typeof deferred>>()
    const started: string[] = []
    const engram = await engine(
      async (ctx) => {
        const name = String(ctx.task.payload)
        started.push(name)
        await gates.get(name)!.promise
        return { status: 'completed', result: {} }
      },
      { workers: 3 },
    )
    await engram.brains.create('y')
    await engram.brains.create('z')
    const submit = async (brainId: string, name: string) => {
      gates.set(name, deferred())
      await engram.tasks.submit({ brainId, kind: 'echo', payload: name })
    }
    for (let i = 0; i < 6; i++) await submit('default', `x${i}`)
    await waitFor(async () => started.length === 2)
    // Two of three workers: the default brain holds no more (workersPerBrain = workers - 1).
    expect(started).toEqual(['x0', 'x1'])
    await submit('y', 'y0')
    await waitFor(async () => started.length === 3)
    expect(started[2]).toBe('y0')
    await submit('z', 'z0')
    await submit('y', 'y1')
    // Workers free up one at a time: x's backlog, y and z are served in turn.
    for (const [i, name] of ['x0', 'y0', 'x1'].entries()) {
      gates.get(name)!.resolve()
      await waitFor(async () => started.length === 4 + i)
    }
    expect(started.slice(3, 6)).toEqual(['x2', 'z0', 'y1'])
    for (const gate of gates.values()) gate.resolve()
    await engram.tasks.idle()
    expect(started).toHaveLength(9)
  })

  it('applies the outcome batch with the task in one commit', async () => {
    const engram = await engine(async (ctx) => ({
      status: 'completed',
      result: { observations: 1 },
      batch: {
        observations: [
          {
            id: `obs-${ctx.task.id}`,
            resourceId: 'r',
            text: 'note',
            metadata: {},
            insertedAt: nowIso(),
          },
        ],
      },
    }))
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: null })
    await waitTerminal(engram, task.id)
    const store = await engram.store('default')
    expect((await store.observations.get(`obs-${task.id}`))?.text).toBe('note')
  })

  it("runs the locked part of a brain's tasks one at a time, each committed before the next", async () => {
    const gates = new Map<unknown, ReturnType<typeof deferred>>()
    const log: string[] = []
    const engram = await engine(
      async (ctx) => {
        const name = String(ctx.task.payload)
        log.push(`prepare ${name}`)
        return async () => {
          const committed = (
            await (await engram.store(ctx.task.brainId)).tasks.list({ limit: 9, skip: 0 })
          )
            .filter((t) => t.status === 'completed')
            .map((t) => String(t.payload))
          log.push(`lock ${name} after [${committed.join(' ')}]`)
          await gates.get(ctx.task.payload)!.promise
          return { status: 'completed', result: {} }
        }
      },
      { workers: 3 },
    )
    await engram.brains.create('other')
    for (const name of ['a', 'b', 'c']) gates.set(name, deferred())
    await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: 'a' })
    await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: 'b' })
    const other = await engram.tasks.submit({ brainId: 'other', kind: 'echo', payload: 'c' })
    // c, in another brain, commits while a holds the default brain.
    gates.get('c')!.resolve()
    await waitFor(
      async () => (await engram.tasks.get('other', other.task.id))?.status === 'completed',
    )
    // b did its unlocked part meanwhile, and waits for a's commit to do the rest.
    expect(log).toContain('prepare b')
    expect(log.filter((l) => l.startsWith('lock'))).toEqual(['lock a after []', 'lock c after []'])
    gates.get('b')!.resolve()
    gates.get('a')!.resolve()
    await engram.tasks.idle()
    expect(log.filter((l) => l.startsWith('lock'))).toEqual([
      'lock a after []',
      'lock c after []',
      'lock b after [a]',
    ])
  })

  it('resumes tasks that were queued or running when the process stopped', async () => {
    const storage = memoryAdapter()
    const gate = deferred()
    const first = await engine(
      async () => {
        await gate.promise
        return { status: 'completed', result: {} }
      },
      { workers: 1 },
      storage,
    )
    const a = await first.tasks.submit({ brainId: 'default', kind: 'echo', payload: 1 })
    const b = await first.tasks.submit({ brainId: 'default', kind: 'echo', payload: 2 })
    // Simulate a crash: abandon the engine without stopping it, keep the storage (memory adapter stays open).
    const runs: string[] = []
    const second = createEngineCore({ storage, version: 'test' })
    second.tasks.registerHandler('echo', async (ctx) => {
      runs.push(ctx.task.id)
      return { status: 'completed', result: {} }
    })
    await second.start()
    await second.tasks.idle()
    expect(runs.sort()).toEqual([a.task.id, b.task.id].sort())
    expect((await second.tasks.get('default', a.task.id))?.status).toBe('completed')
    // The first engine stands for a dead process: its gate is never opened.
  })

  it('gives up on a task that keeps being interrupted', async () => {
    const storage = memoryAdapter()
    const seed = createEngineCore({ storage, version: 'test' })
    await seed.start()
    const store = await seed.store('default')
    const now = nowIso()
    await store.tasks.create({
      id: 'poison',
      brainId: 'default',
      kind: 'echo',
      status: 'started',
      stage: 'extracting',
      counts: {},
      result: null,
      error: null,
      payload: null,
      attempts: 3,
      createdAt: now,
      updatedAt: now,
      endedAt: null,
    })
    const engram = await engine(async () => ({ status: 'completed', result: {} }), {}, storage)
    await engram.tasks.idle()
    expect(await engram.tasks.get('default', 'poison')).toMatchObject({
      status: 'failed',
      stage: 'failed',
    })
  })

  it('sweeps terminal tasks past retention', async () => {
    const engram = await engine(async () => ({ status: 'completed', result: {} }))
    const store = await engram.store('default')
    const old = new Date(Date.now() - 8 * 86_400_000).toISOString()
    await store.tasks.create({
      id: 'old',
      brainId: 'default',
      kind: 'echo',
      status: 'completed',
      stage: 'completed',
      counts: {},
      result: {},
      error: null,
      payload: null,
      attempts: 1,
      createdAt: old,
      updatedAt: old,
      endedAt: old,
    })
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: null })
    await engram.tasks.idle()
    // sweep runs at start; exercise it through a restart of the engine on the same storage
    const again = createEngineCore({ storage: engram.storage, version: 'test' })
    again.tasks.registerHandler('echo', async () => ({ status: 'completed', result: {} }))
    await again.start()
    expect(await again.tasks.get('default', 'old')).toBeNull()
    expect(await again.tasks.get('default', task.id)).not.toBeNull()
  })
})

describe('task queue: what a handler holds until its write', () => {
  it('disposes a locked outcome after its commit, and after a commit that failed', async () => {
    const events: string[] = []
    let refuse = false
    const engram = await engine(async () => {
      const locked = async () => {
        events.push('computed')
        return { status: 'completed' as const, result: {} }
      }
      return Object.assign(locked, { dispose: () => events.push('disposed') })
    })
    engram.beforeCommit(async () => {
      if (refuse) throw new Error('write refused')
    })
    const first = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    expect((await waitTerminal(engram, first.task.id)).status).toBe('completed')
    expect(events).toEqual(['computed', 'disposed'])
    refuse = true
    const second = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    expect((await waitTerminal(engram, second.task.id)).status).toBe('failed')
    expect(events).toEqual(['computed', 'disposed', 'computed', 'disposed'])
    await engram.stop()
  })
})
