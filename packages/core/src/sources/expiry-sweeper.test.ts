import { afterEach, describe, expect, it } from 'vitest'
import { createEngine } from '../engine/create-engine.js'
import type { EngineOptions, Engram } from '../engine/engine-types.js'
import { buildTextPayload } from '../ingest/build-ingest-payloads.js'
import { INGEST_TEXT } from '../ingest/ingest-payloads.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Task } from '../model/task.js'
import { FORGET_SOURCE } from './sources-api.js'
import { withExpiry } from './source-expiry.js'

const BRAIN = 'default'
const HOUR = 3_600_000

let engram: Engram | null = null
afterEach(async () => {
  await engram?.stop()
  engram = null
})

/** An engine whose sweep timer never fires: the tests sweep by hand, at the times they choose. */
async function started(options: Partial<EngineOptions> = {}): Promise<Engram> {
  engram = createEngine({
    storage: memoryAdapter(),
    version: 't',
    expirySweepSeconds: 0,
    ...options,
  })
  await engram.start()
  return engram
}

async function ingest(e: Engram, text: string, sourceId: string, expiresAt?: string) {
  const payload = withExpiry(buildTextPayload({ text, sourceId }), expiresAt)
  const { task } = await e.tasks.submit({ brainId: BRAIN, kind: INGEST_TEXT, payload })
  const done = await e.tasks.settled(BRAIN, task.id)
  expect(done.status).toBe('completed')
}

const source = async (e: Engram, id: string) => (await e.store(BRAIN)).sources.get(id)

async function forgetTasks(e: Engram): Promise<Task[]> {
  const tasks = await (await e.store(BRAIN)).tasks.list({ limit: 100, skip: 0 })
  return tasks.filter((t) => t.kind === FORGET_SOURCE)
}

describe('expiry sweeper', () => {
  it('forgets a source once its expiry has passed, and only then', async () => {
    const e = await started()
    const at = new Date(Date.now() + HOUR).toISOString()
    await ingest(e, 'The quokka census counted 412 animals.', 'census', at)
    await ingest(e, 'Rottnest Island lies off Perth.', 'island')
    expect((await source(e, 'census'))?.expiresAt).toBe(at)
    expect((await source(e, 'island'))?.expiresAt).toBeNull()

    const early = await e.expiry.sweep(new Date(Date.parse(at) - 1000))
    expect(early).toEqual({ ran: true, brains: 1, expired: 0, submitted: 0, forgets: [] })
    expect(await forgetTasks(e)).toEqual([])

    const late = await e.expiry.sweep(new Date(at))
    expect(late).toMatchObject({ ran: true, brains: 1, expired: 1, submitted: 1 })
    const [forget] = await forgetTasks(e)
    expect(late.forgets).toEqual([{ brainId: BRAIN, sourceId: 'census', taskId: forget!.id }])
    expect((await e.tasks.settled(BRAIN, forget!.id)).status).toBe('completed')
    expect((await source(e, 'census'))?.status).toBe('forgotten')
    expect((await source(e, 'island'))?.status).toBe('active')
    const passages = await (await e.store(BRAIN)).passages.list({ limit: 10, skip: 0 })
    expect(passages.items.map((p) => p.text).join(' ')).not.toContain('quokka')

    // A tombstone is not expired again.
    expect(await e.expiry.sweep(new Date(Date.parse(at) + HOUR))).toMatchObject({ expired: 0 })
  })

  it('looks at a brain again only when its next expiry is due or its sources were written', async () => {
    const e = await started()
    const later = new Date(Date.now() + 2 * HOUR).toISOString()
    await ingest(e, 'The quokka census counted 412 animals.', 'census', later)
    const now = new Date()
    expect(await e.expiry.sweep(now)).toMatchObject({ brains: 1, expired: 0 })
    // Nothing written since, and the next expiry is two hours away: the brain is not opened.
    expect(await e.expiry.sweep(now)).toMatchObject({ brains: 0, expired: 0 })
    // A source that expires sooner: its commit makes the next round look again.
    const sooner = new Date(Date.now() + HOUR).toISOString()
    await ingest(e, 'Rottnest Island lies off Perth.', 'island', sooner)
    expect(await e.expiry.sweep(now)).toMatchObject({ brains: 1, expired: 0 })
    expect(await e.expiry.sweep(now)).toMatchObject({ brains: 0 })
    // Once the soonest is due, the round looks and forgets it.
    expect(await e.expiry.sweep(new Date(sooner))).toMatchObject({
      brains: 1,
      expired: 1,
      forgets: [{ brainId: BRAIN, sourceId: 'island' }],
    })
  })

  it('does not keep a next expiry it read while a commit wrote sources', async () => {
    const inner = memoryAdapter()
    let during: (() => Promise<void>) | null = null
    const e = await started({
      storage: {
        ...inner,
        async brain(brainId) {
          const store = await inner.brain(brainId)
          const sources = {
            ...store.sources,
            // The round's second read ("when is the next expiry?") answers from before a commit.
            async expired(now: string, limit: number) {
              const found = await store.sources.expired(now, limit)
              if (now.startsWith('9999') && during !== null) {
                const write = during
                during = null
                await write()
              }
              return found
            },
          }
          return { ...store, sources }
        },
      },
    })
    const now = new Date()
    const due = new Date(now.getTime() + HOUR)
    during = () => ingest(e, 'The quokka census counted 412 animals.', 'census', due.toISOString())
    expect(await e.expiry.sweep(now)).toMatchObject({ brains: 1, expired: 0 })
    // That round read "nothing expires" before the census was committed: the next one looks again.
    expect(await e.expiry.sweep(due)).toMatchObject({ brains: 1, expired: 1 })
  })

  it('submits one forget for a source found by two sweeps before it runs', async () => {
    const e = await started()
    await ingest(e, 'Old news about the regatta.', 'news', '2001-01-01T00:00:00.000Z')
    const [first, second] = await Promise.all([e.expiry.sweep(), e.expiry.sweep()])
    expect(first!.submitted + second!.submitted).toBe(1)
    expect(first!.forgets[0]!.taskId).toBe(second!.forgets[0]!.taskId)
    expect(await forgetTasks(e)).toHaveLength(1)
  })

  it('keeps a source whose expiry moved on between the sweep and its forget', async () => {
    // One worker and an extractor that waits for `release` on the text "hold": the queue is held
    // while the re-ingestion and then the sweep's forget are queued behind, in that order.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const e = await started({
      workers: 1,
      workersPerBrain: 1,
      ingestion: {
        parseFile: async () => {
          throw new Error('not used')
        },
        jsonToText: (json) => JSON.stringify(json),
        chunk: (text) => [{ index: 0, text, start: 0, end: text.length }],
        extract: async (input) => {
          if (input.passages.some((p) => p.text === 'hold')) await held
          return { entities: [], relationships: [], observations: [] }
        },
        embed: null,
        embedderInfo: null,
      },
    })
    const at = new Date(Date.now() + HOUR).toISOString()
    await ingest(e, 'The ferry timetable for May.', 'ferry', at)
    const holding = await e.tasks.submit({
      brainId: BRAIN,
      kind: INGEST_TEXT,
      payload: buildTextPayload({ text: 'hold', sourceId: 'hold' }),
    })
    const later = new Date(Date.now() + 5 * HOUR).toISOString()
    const payload = withExpiry(
      buildTextPayload({ text: 'The ferry timetable for May.', sourceId: 'ferry' }),
      later,
    )
    const again = await e.tasks.submit({ brainId: BRAIN, kind: INGEST_TEXT, payload })
    const swept = await e.expiry.sweep(new Date(Date.parse(at) + 1000))
    const [forget] = swept.forgets
    release()
    await e.tasks.settled(BRAIN, holding.task.id)
    expect((await e.tasks.settled(BRAIN, again.task.id)).status).toBe('completed')
    const done = await e.tasks.settled(BRAIN, forget!.taskId)
    expect(done.result).toEqual({ source_id: 'ferry', no_longer_expired: true })
    expect(await source(e, 'ferry')).toMatchObject({ status: 'active', expiresAt: later })

    // Once the new expiry is past too, the next sweep's forget is a new task, and it forgets.
    const next = await e.expiry.sweep(new Date(Date.parse(later) + 1000))
    expect(next.forgets[0]!.taskId).not.toBe(forget!.taskId)
    await e.tasks.settled(BRAIN, next.forgets[0]!.taskId)
    expect((await source(e, 'ferry'))?.status).toBe('forgotten')
  })

  it('a DELETE is not answered with the sweep’s forget, which may keep the source', async () => {
    const e = await started()
    await ingest(e, 'Minutes of the harbour board.', 'minutes', '2001-01-01T00:00:00.000Z')
    const swept = await e.expiry.sweep()
    const deleted = await e.sources.forget(BRAIN, 'minutes')
    expect(deleted.created).toBe(true)
    expect(deleted.task.id).not.toBe(swept.forgets[0]!.taskId)
    await e.tasks.settled(BRAIN, deleted.task.id)
    await e.tasks.settled(BRAIN, swept.forgets[0]!.taskId)
    expect((await source(e, 'minutes'))?.status).toBe('forgotten')
  })

  it('applies the brain default to ingestions without expiry; a re-ingestion sets it anew', async () => {
    const e = await started()
    await ingest(e, 'Kept forever.', 'before')
    await e.brainSettings.update(BRAIN, { expiry: { defaultTtl: 60 } })
    expect((await e.brainSettings.get(BRAIN)).expiry).toEqual({ defaultTtl: 60 })
    const sent = Date.now()
    await ingest(e, 'Gone in a minute.', 'after')
    const expiresAt = Date.parse((await source(e, 'after'))!.expiresAt!)
    expect(expiresAt).toBeGreaterThanOrEqual(sent + 60_000 - 1000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 60_000)
    expect((await source(e, 'before'))?.expiresAt ?? null).toBeNull()

    // An explicit expiry wins over the default, also on unchanged content.
    const later = new Date(Date.now() + 5 * HOUR).toISOString()
    await ingest(e, 'Gone in a minute.', 'after', later)
    expect((await source(e, 'after'))?.expiresAt).toBe(later)

    // Without expiry and without a default, a re-ingestion clears it.
    await e.brainSettings.update(BRAIN, { expiry: { defaultTtl: null } })
    await ingest(e, 'Gone in a minute, or never.', 'after')
    expect((await source(e, 'after'))?.expiresAt).toBeNull()
    expect((await e.brainSettings.get(BRAIN)).expiry).toEqual({ defaultTtl: null })
  })

  it('refuses a default_ttl out of range, naming the field', async () => {
    const e = await started()
    for (const defaultTtl of [0, 1.5, 4e9]) {
      await expect(e.brainSettings.update(BRAIN, { expiry: { defaultTtl } })).rejects.toMatchObject(
        {
          code: 'VALIDATION_ERROR',
          status: 400,
          detail: [expect.objectContaining({ loc: ['body', 'expiry', 'default_ttl'] })],
        },
      )
    }
  })

  it('lets the stores of brains the engine holds nothing of release what the round opened', async () => {
    const inner = memoryAdapter()
    const released: string[] = []
    const e = await started({
      storage: {
        ...inner,
        async brain(brainId) {
          return { ...(await inner.brain(brainId)), release: () => released.push(brainId) }
        },
      },
    })
    await e.brains.create('cold')
    await e.brains.create('searched')
    await e.search.search('searched', { query: 'anything' })
    released.length = 0
    await e.expiry.sweep()
    // 'searched' has its indexes loaded; 'default' and 'cold' have nothing loaded and no task here.
    expect(released.sort()).toEqual(['cold', 'default'])
  })

  it('sweeps every brain', async () => {
    const e = await started()
    await e.brains.create('other')
    const payload = withExpiry(
      buildTextPayload({ text: 'x', sourceId: 's' }),
      '2001-01-01T00:00:00Z',
    )
    const { task } = await e.tasks.submit({ brainId: 'other', kind: INGEST_TEXT, payload })
    await e.tasks.settled('other', task.id)
    await ingest(e, 'y', 's', '2001-01-01T00:00:00.000Z')
    const swept = await e.expiry.sweep()
    expect(swept).toMatchObject({ ran: true, brains: 2, expired: 2, submitted: 2 })
    expect(swept.forgets.map((f) => f.brainId).sort()).toEqual(['default', 'other'])
  })
})
