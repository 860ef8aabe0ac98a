import { describe, expect, it } from 'vitest'
import { EmbedFlights, type EmbedTexts } from './embed-flights.js'

function gated() {
  let open = () => {}
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

/** An embedder that records its calls and answers when `open()` is called (all waiting calls). */
function gatedEmbedder(fail = false) {
  const calls: string[][] = []
  let gate = gated()
  const embed: EmbedTexts = async (texts, signal) => {
    calls.push(texts)
    await gate.promise
    signal.throwIfAborted()
    if (fail) throw new Error('embedder down')
    return texts.map((text) => Float32Array.of(text.length, calls.length))
  }
  return {
    calls,
    embed,
    open() {
      gate.open()
      gate = gated()
    },
  }
}

const signal = () => new AbortController().signal

describe('EmbedFlights', () => {
  it('sends a text two running tasks of a brain ask for once, in flight or already answered', async () => {
    const embedder = gatedEmbedder()
    const flights = new EmbedFlights()
    const a = flights.task('b1', embedder.embed)
    const b = flights.task('b1', embedder.embed)
    const fromA = a.embed(['Caroline', 'Melanie'], signal())
    const fromB = b.embed(['Caroline', 'support group'], signal())
    embedder.open()
    const [va, vb] = await Promise.all([fromA, fromB])
    expect(embedder.calls).toEqual([['Caroline', 'Melanie'], ['support group']])
    expect(vb[0]).toBe(va[0])
    // Answered already, and A has not released: still A's.
    const c = flights.task('b1', embedder.embed)
    expect((await c.embed(['Melanie'], signal()))[0]).toBe(va[1])
    expect([a.sent(), b.sent(), c.sent()]).toEqual([2, 1, 0])
    expect(embedder.calls).toHaveLength(2)
  })

  it('keeps brains apart and holds nothing once the tasks are released', async () => {
    const embedder = gatedEmbedder()
    const flights = new EmbedFlights()
    const a = flights.task('b1', embedder.embed)
    const other = flights.task('b2', embedder.embed)
    const both = Promise.all([a.embed(['Caroline'], signal()), other.embed(['Caroline'], signal())])
    embedder.open()
    await both
    expect(embedder.calls).toEqual([['Caroline'], ['Caroline']])
    expect(flights.size).toBe(2)
    a.release()
    other.release()
    expect(flights.size).toBe(0)
    const later = flights.task('b1', embedder.embed)
    const again = later.embed(['Caroline'], signal())
    embedder.open()
    await again
    expect(later.sent()).toBe(1)
  })

  it('answers repeated texts of one call once and in the order asked', async () => {
    const embedder = gatedEmbedder()
    const task = new EmbedFlights().task('b1', embedder.embed)
    const asked = task.embed(['ab', 'abc', 'ab'], signal())
    embedder.open()
    const vectors = await asked
    expect(embedder.calls).toEqual([['ab', 'abc']])
    expect(vectors.map((v) => v[0])).toEqual([2, 3, 2])
  })

  it('embeds a text itself when the task it waited on failed, and reports its own failure', async () => {
    const failing = gatedEmbedder(true)
    const working = gatedEmbedder()
    const flights = new EmbedFlights()
    const a = flights.task('b1', failing.embed)
    const b = flights.task('b1', working.embed)
    const fromA = a.embed(['Caroline'], signal())
    const fromB = b.embed(['Caroline'], signal())
    failing.open()
    await expect(fromA).rejects.toThrow('embedder down')
    await Promise.resolve()
    working.open()
    expect((await fromB)[0]![0]).toBe(8)
    expect(working.calls).toEqual([['Caroline']])
    // The failed flight is no longer offered, and B did not offer its own retry: nothing is held.
    expect(flights.size).toBe(0)
  })

  it('stops waiting on another task when its own signal aborts', async () => {
    const embedder = gatedEmbedder()
    const flights = new EmbedFlights()
    const a = flights.task('b1', embedder.embed)
    const b = flights.task('b1', embedder.embed)
    const fromA = a.embed(['Caroline'], signal())
    const stop = new AbortController()
    const fromB = b.embed(['Caroline'], stop.signal)
    stop.abort(new Error('stopped'))
    await expect(fromB).rejects.toThrow('stopped')
    embedder.open()
    await fromA
    expect(b.sent()).toBe(0)
  })
})
