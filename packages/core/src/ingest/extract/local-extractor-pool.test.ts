import { getEventListeners } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { localExtractor } from './local-extractor.js'
import { localExtractorPool } from './local-extractor-pool.js'

const pool = localExtractorPool({ workers: 2 })
afterAll(() => pool.close())

const input = (text: string, id = 'p1') => ({
  passages: [{ id, text }],
  sourceTimestamp: '2024-04-10T09:00:00.000Z',
  observateFor: [],
})
const signal = () => new AbortController().signal

describe('local extractor on worker threads', () => {
  it('gives exactly what the in-thread extractor gives, for requests in flight at once', async () => {
    const texts = [
      'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
      'Yesterday Bob bought a new bike from Acme Corp for $450. He loved it.',
      'The weather was cold. Caroline joined a support group.',
    ]
    const inThread = localExtractor()
    const expected = await Promise.all(
      texts.map((t, i) => inThread.extract(input(t, `p${i}`), { signal: signal() })),
    )
    const fromPool = await Promise.all(
      texts.map((t, i) => pool.extract(input(t, `p${i}`), { signal: signal() })),
    )
    expect(fromPool).toEqual(expected)
  }, 30_000)

  it('splits a large input across workers and merges it into the in-thread result', async () => {
    const passages = Array.from({ length: 9 }, (_, i) => ({
      id: `p${i}`,
      text: `Dana met Omar in Lisbon on May ${i + 1}, 2024. She thanked him for report ${i}.`,
    }))
    const whole = { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] }
    const split = localExtractorPool({ workers: 2, passagesPerRequest: 2 })
    try {
      const merged = await split.extract(whole, { signal: signal() })
      expect(merged).toEqual(await localExtractor().extract(whole, { signal: signal() }))
      expect(merged.entities.find((e) => e.name === 'Dana')?.passageIds).toHaveLength(9)
    } finally {
      await split.close()
    }
  }, 30_000)

  it('keeps the aliases a later part gives an entity an earlier part named', async () => {
    const passages = [
      'The Escuela Latinoamericana de Medicina is a medical school.',
      'The Escuela Latinoamericana de Medicina (ELAM) opened an office in Paris.',
      'The Escuela Latinoamericana de Medicina (ELAM) hired a director.',
    ].map((text, i) => ({ id: `p${i}`, text }))
    const whole = { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] }
    const split = localExtractorPool({ workers: 2, passagesPerRequest: 1 })
    try {
      const merged = await split.extract(whole, { signal: signal() })
      const school = merged.entities.find((e) => e.name === 'Escuela Latinoamericana de Medicina')
      expect(school).toMatchObject({ aliases: ['ELAM'], passageIds: ['p0', 'p1', 'p2'] })
    } finally {
      await split.close()
    }
  }, 30_000)

  it('extracts a text of several passages whole, as the in-thread extractor does', async () => {
    // 11 KB: cut into parts of 8,000 characters (the default until 2026-12-04), the second part's "she"
    // went to Mary Somerville and its "Lovelace" stayed apart from Ada Lovelace.
    const filler = 'The committee met in the hall and discussed the budget for the year in detail. '
    const passages = Array.from({ length: 12 }, (_, i) => ({
      id: `p${i}`,
      text:
        i === 0
          ? 'Ada Lovelace was an English mathematician who worked with Charles Babbage in London.'
          : `${filler.repeat(10)}In ${1830 + i}, she wrote letter ${i} to Mary Somerville. Lovelace kept a copy.`,
    }))
    const whole = { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] }
    const fromPool = await pool.extract(whole, { signal: signal() })
    expect(fromPool).toEqual(await localExtractor().extract(whole, { signal: signal() }))
    expect(fromPool.entities.map((e) => e.name)).not.toContain('Lovelace')
  }, 30_000)

  it('joins a surname one part names alone to the full name another part gives', async () => {
    const passages = [
      'John Smith founded Acme Corp in Boston in 1990.',
      `${'The committee met in the hall and discussed the budget in detail. '.repeat(4)}`,
      'Smith moved to Paris in 1995. Later, Smith sold the company.',
    ].map((text, i) => ({ id: `p${i}`, text }))
    const whole = { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] }
    const inThread = await localExtractor().extract(whole, { signal: signal() })
    const split = localExtractorPool({ workers: 2, charsPerRequest: 100 })
    try {
      const fromParts = await split.extract(whole, { signal: signal() })
      const people = (g: typeof inThread) =>
        g.entities.filter((e) => e.labels.includes('PERSON')).map((e) => [e.name, e.passageIds])
      expect(people(fromParts)).toEqual(people(inThread))
      expect(people(fromParts)).toEqual([['John Smith', ['p0', 'p2']]])
      const keys = new Set(fromParts.entities.map((e) => e.key))
      for (const r of fromParts.relationships) {
        expect(keys.has(r.subjectKey)).toBe(true)
        expect(keys.has(r.objectKey)).toBe(true)
      }
      for (const o of fromParts.observations) expect(keys.has(o.aboutKey)).toBe(true)
    } finally {
      await split.close()
    }
  }, 30_000)

  it('reads a passage cut inside a code block as the in-thread extractor does with the whole text', async () => {
    const text =
      'Start it.\n\n```sh\nexport TOKEN=secret\n\nROLE=api PORT=8000 npm start\n```\n\nAda Lovelace met Charles Babbage.\n'
    const cut = text.indexOf('ROLE')
    const whole = {
      passages: [
        {
          id: 'p1',
          text: text.slice(0, cut).trimEnd(),
          start: 0,
          end: text.slice(0, cut).trimEnd().length,
        },
        { id: 'p2', text: text.slice(cut), start: cut, end: text.length },
      ],
      text,
      sourceTimestamp: '2024-06-01T00:00:00Z',
      observateFor: [],
    }
    const split = localExtractorPool({ workers: 2, passagesPerRequest: 1 })
    try {
      const fromPool = await split.extract(whole, { signal: signal() })
      expect(fromPool).toEqual(await localExtractor().extract(whole, { signal: signal() }))
      expect(fromPool.entities.map((e) => e.name)).toContain('Ada Lovelace')
    } finally {
      await split.close()
    }
  }, 30_000)

  it('starts every worker on warmUp, and listens for an abort once per call however many slices', async () => {
    const split = localExtractorPool({ workers: 2, passagesPerRequest: 1 })
    try {
      const started = await split.warmUp()
      expect(started).toHaveLength(2)
      const controller = new AbortController()
      const passages = Array.from({ length: 24 }, (_, i) => ({
        id: `p${i}`,
        text: `Ada met Alan ${i}.`,
      }))
      const running = split.extract(
        { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] },
        { signal: controller.signal },
      )
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
      expect((await running).entities.find((e) => e.name === 'Ada')?.passageIds).toHaveLength(24)
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    } finally {
      await split.close()
    }
  }, 30_000)

  it.runIf(process.platform === 'linux')(
    'runs its threads at the niceness asked, and the event loop at the process priority',
    async () => {
      /** Nice value of each thread of this process (field 19 of /proc/<pid>/task/<tid>/stat). */
      const niceValues = () =>
        readdirSync('/proc/self/task').map((tid) => {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
          return { tid, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) }
        })
      const passages = ['Ada met Alan.', 'Bob met Carol.'].map((text, i) => ({ id: `p${i}`, text }))
      const main = () => niceValues().find((t) => t.tid === String(process.pid))!.nice
      const before = main()
      const niced = localExtractorPool({ workers: 2, passagesPerRequest: 1, niceness: 19 })
      try {
        await niced.extract(
          { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] },
          { signal: signal() },
        )
        const threads = niceValues()
        expect(threads.filter((t) => t.nice === 19).length).toBeGreaterThanOrEqual(2)
        expect(main()).toBe(before)
      } finally {
        await niced.close()
      }
    },
    30_000,
  )

  it('rejects an aborted request without waiting for the worker', async () => {
    const controller = new AbortController()
    const pending = pool.extract(input('Dana met Omar in Lisbon.'), { signal: controller.signal })
    controller.abort(new Error('task cancelled'))
    await expect(pending).rejects.toThrow('task cancelled')
  })

  it('refuses work after close', async () => {
    const closed = localExtractorPool({ workers: 1 })
    await closed.close()
    await expect(closed.extract(input('Ada met Alan.'), { signal: signal() })).rejects.toThrow(
      'Extractor closed',
    )
  })
})

describe('local extractor pool fairness', () => {
  it("serves brains in turn: a brain's one passage does not wait behind another's backlog", async () => {
    const one = localExtractorPool({ workers: 1, passagesPerRequest: 1 })
    try {
      await one.warmUp()
      const done: string[] = []
      const passages = Array.from({ length: 40 }, (_, i) => ({
        id: `x${i}`,
        text: `Dana met Omar in Lisbon on May ${(i % 28) + 1}, 2024, about report ${i}.`,
      }))
      const big = one
        .extract(
          { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] },
          { signal: signal(), brainId: 'x' },
        )
        .then(() => done.push('x'))
      const small = one
        .extract(input('Ada met Alan in Paris.', 'y0'), { signal: signal(), brainId: 'y' })
        .then((graph) => {
          done.push('y')
          return graph
        })
      expect((await small).entities.map((e) => e.name)).toContain('Ada')
      await big
      expect(done).toEqual(['y', 'x'])
    } finally {
      await one.close()
    }
  }, 30_000)

  it('cuts requests at charsPerRequest as well as passagesPerRequest, merging to the same result', async () => {
    const passages = Array.from({ length: 6 }, (_, i) => ({
      id: `p${i}`,
      text: `Dana met Omar in Lisbon on May ${i + 1}, 2024. ${'filler words here '.repeat(20)}`,
    }))
    const whole = { passages, sourceTimestamp: '2024-06-01T00:00:00Z', observateFor: [] }
    const small = localExtractorPool({ workers: 2, charsPerRequest: 500 })
    try {
      expect(await small.extract(whole, { signal: signal() })).toEqual(
        await localExtractor().extract(whole, { signal: signal() }),
      )
    } finally {
      await small.close()
    }
  }, 30_000)
})
