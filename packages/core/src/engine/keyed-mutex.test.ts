import { describe, expect, it } from 'vitest'
import { keyedMutex } from './keyed-mutex.js'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('keyedMutex', () => {
  it('runs one function at a time per key, in the order asked', async () => {
    const mutex = keyedMutex()
    const log: string[] = []
    const gates = [deferred(), deferred(), deferred()]
    const runs = gates.map((gate, i) =>
      mutex.run('brain', async () => {
        log.push(`start ${i}`)
        await gate.promise
        log.push(`end ${i}`)
        return i
      }),
    )
    await turns()
    expect(log).toEqual(['start 0'])
    // Released out of order: the later runs still wait for the earlier ones.
    gates[2]!.resolve()
    gates[1]!.resolve()
    await turns()
    expect(log).toEqual(['start 0'])
    gates[0]!.resolve()
    expect(await Promise.all(runs)).toEqual([0, 1, 2])
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2'])
  })

  it('does not hold up other keys', async () => {
    const mutex = keyedMutex()
    const gate = deferred()
    const held = mutex.run('a', () => gate.promise)
    expect(await mutex.run('b', async () => 'b ran')).toBe('b ran')
    gate.resolve()
    await held
  })

  it('releases the key when the function throws', async () => {
    const mutex = keyedMutex()
    const failed = mutex.run('brain', async () => {
      throw new Error('boom')
    })
    const next = mutex.run('brain', async () => 'next ran')
    await expect(failed).rejects.toThrow('boom')
    expect(await next).toBe('next ran')
  })
})
