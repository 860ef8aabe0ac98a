import { describe, expect, it } from 'vitest'
import { createEngineCore } from '../engine/engine-core.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { TaskHandler } from './task-handler.js'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

async function engine(handler: TaskHandler) {
  const engram = createEngineCore({ storage: memoryAdapter(), version: 'test' })
  engram.tasks.registerHandler('echo', handler)
  await engram.start()
  return engram
}

describe('task queue settled()', () => {
  it('resolves once the task completes, woken by its run', async () => {
    const gate = deferred()
    const engram = await engine(async () => {
      await gate.promise
      return { status: 'completed', result: { n: 1 } }
    })
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    let settled = false
    const waiting = engram.tasks.settled('default', task.id).then((t) => {
      settled = true
      return t
    })
    // The task is held at the gate: nothing may settle before it is opened.
    await engram.tasks.get('default', task.id)
    expect(settled).toBe(false)
    gate.resolve()
    await expect(waiting).resolves.toMatchObject({ status: 'completed', result: { n: 1 } })
    await engram.stop()
  })

  it('resolves at once for a task that ended already, and with the failure of a failed task', async () => {
    const engram = await engine(async (ctx) => {
      if ((ctx.task.payload as { fail?: boolean }).fail) throw new Error('broken input')
      return { status: 'completed', result: {} }
    })
    const ok = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    await engram.tasks.idle()
    await expect(engram.tasks.settled('default', ok.task.id)).resolves.toMatchObject({
      status: 'completed',
    })
    const bad = await engram.tasks.submit({
      brainId: 'default',
      kind: 'echo',
      payload: { fail: true },
    })
    await expect(engram.tasks.settled('default', bad.task.id)).resolves.toMatchObject({
      status: 'failed',
      error: 'broken input',
    })
    await engram.stop()
  })

  it('rejects for an unknown task, on abort, and when the queue stops first', async () => {
    const gate = deferred()
    const engram = await engine(async () => {
      await gate.promise
      return { status: 'completed', result: {} }
    })
    await expect(engram.tasks.settled('default', 'nope')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    const { task } = await engram.tasks.submit({ brainId: 'default', kind: 'echo', payload: {} })
    const controller = new AbortController()
    const aborted = engram.tasks.settled('default', task.id, controller.signal)
    controller.abort(new Error('gave up'))
    await expect(aborted).rejects.toThrow('gave up')
    const cut = engram.tasks.settled('default', task.id)
    const stopping = engram.stop({ graceMs: 0 })
    await expect(cut).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    gate.resolve()
    await stopping
  })
})
