import { describe, expect, it } from 'vitest'
import type { EmbedOptions, Embedder } from '../contracts/embedder.js'
import { scheduledEmbedder } from './scheduled-embedder.js'

const never = new AbortController().signal

/** An embedder whose calls wait until the test releases them; records what each call held. */
function gatedEmbedder() {
  const calls: {
    texts: string[]
    how: EmbedOptions | undefined
    release(): void
    fail(error: unknown): void
  }[] = []
  const inner: Embedder = {
    kind: 'embedder',
    name: 'gated',
    dimension: 1,
    embed(texts, signal, how) {
      return new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true })
        calls.push({
          texts,
          how,
          release: () => resolve(texts.map((t) => Float32Array.of(t.length))),
          fail: reject,
        })
      })
    },
  }
  return { inner, calls }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))
const texts = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

describe('scheduledEmbedder', () => {
  it('cuts calls into slices of maxTexts texts and maxChars characters, results in order', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 8, maxTexts: 3, maxChars: 10 })
    const input = ['aaaa', 'bbbb', 'cccccccccccccccc', 'd', 'e', 'f', 'g']
    const done = embedder.embed(input, never)
    await tick()
    expect(calls.map((c) => c.texts)).toEqual([
      ['aaaa', 'bbbb'],
      ['cccccccccccccccc'], // longer than maxChars: alone
      ['d', 'e', 'f'],
      ['g'],
    ])
    calls.reverse().forEach((c) => c.release())
    expect((await done).map((v) => v[0])).toEqual(input.map((t) => t.length))
  })

  it('tells the wrapped embedder which calls are bulk (it may batch those) and which interactive', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 2 })
    const bulk = embedder.embed(['passage'], never, { brainId: 'x', priority: 'bulk' })
    const query = embedder.embed(['query'], never, { brainId: 'x', priority: 'interactive' })
    await tick()
    expect(calls.map((c) => [c.texts, c.how?.priority])).toEqual([
      [['passage'], 'bulk'],
      [['query'], 'interactive'],
    ])
    calls.forEach((c) => c.release())
    await Promise.all([bulk, query])
  })

  it('serves an interactive call before queued bulk work, waiting for one slice only', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 1, maxTexts: 2 })
    const bulk = embedder.embed(texts('x', 100), never, { brainId: 'x', priority: 'bulk' })
    await tick()
    expect(calls).toHaveLength(1)
    const query = embedder.embed(['q'], never, { brainId: 'y', priority: 'interactive' })
    calls[0]!.release()
    await tick()
    expect(calls[1]!.texts).toEqual(['q'])
    calls[1]!.release()
    expect(await query).toHaveLength(1)
    for (let i = 2; i < 51; i++) {
      await tick()
      calls[i]!.release()
    }
    expect(await bulk).toHaveLength(100)
  })

  it('takes bulk slices of different brains in turn', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 1, maxTexts: 1 })
    const bulk = (brainId: string): EmbedOptions => ({ brainId, priority: 'bulk' })
    const x = embedder.embed(texts('x', 6), never, bulk('x'))
    const z = embedder.embed(texts('z', 2), never, bulk('z'))
    const order: string[] = []
    for (let i = 0; i < 8; i++) {
      await tick()
      order.push(calls[i]!.texts[0]!)
      calls[i]!.release()
    }
    await Promise.all([x, z])
    // x0 was in the embedder before z's call arrived; from then on, in turn.
    expect(order).toEqual(['x0', 'x1', 'z0', 'x2', 'z1', 'x3', 'x4', 'x5'])
  })

  it('fails an interactive call that waits past its deadline with 503 and drops its slices', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 1, interactiveDeadlineMs: 50 })
    const bulk = embedder.embed(['held'], never, { brainId: 'x' })
    const query = embedder.embed(['q'], never, { brainId: 'y', priority: 'interactive' })
    await expect(query).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 5 })
    calls[0]!.release()
    await bulk
    await tick()
    expect(calls).toHaveLength(1) // the timed-out query never reached the embedder
  })

  it('rejects an aborted call with its reason and a failed slice fails its call only', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 2, maxTexts: 1 })
    const controller = new AbortController()
    const aborted = embedder.embed(texts('a', 5), controller.signal, { brainId: 'a' })
    const failing = embedder.embed(['f'], never, { brainId: 'f' })
    const fine = embedder.embed(['ok'], never, { brainId: 'o' })
    await tick()
    controller.abort(new Error('stop'))
    await expect(aborted).rejects.toThrow('stop')
    await tick()
    calls.find((c) => c.texts[0] === 'f')!.fail(new Error('boom'))
    await expect(failing).rejects.toThrow('boom')
    await tick()
    calls.find((c) => c.texts[0] === 'ok')!.release()
    expect(await fine).toHaveLength(1)
    expect(calls.filter((c) => c.texts[0]!.startsWith('a')).length).toBeLessThanOrEqual(2)
  })

  it('merges queued calls into one embedder call while they fit; one caller aborting cancels only its own', async () => {
    const { inner, calls } = gatedEmbedder()
    const embedder = scheduledEmbedder(inner, { concurrency: 1, maxTexts: 5, maxChars: 100 })
    const held = embedder.embed(['held'], never, { brainId: 'x' })
    await tick()
    const controller = new AbortController()
    const a = embedder.embed(['a0', 'a1'], controller.signal, { brainId: 'a' })
    const b = embedder.embed(['b0', 'b1'], never, { brainId: 'b' })
    const c = embedder.embed(['c00', 'c11'], never, { brainId: 'c' })
    calls[0]!.release()
    await held
    await tick()
    // a and b fit in 5 texts; c would make 6, so it waits for the next call.
    expect(calls.map((call) => call.texts)).toEqual([['held'], ['a0', 'a1', 'b0', 'b1']])
    controller.abort(new Error('gone'))
    await expect(a).rejects.toThrow('gone')
    calls[1]!.release() // not aborted: b still wanted it
    expect((await b).map((v) => v[0])).toEqual([2, 2])
    await tick()
    expect(calls[2]!.texts).toEqual(['c00', 'c11'])
    calls[2]!.release()
    expect((await c).map((v) => v[0])).toEqual([3, 3])
  })
})
