import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  createEngine,
  INGEST_TEXT,
  normalizeEntityName,
  type EngineOptions,
  type Engram,
  type ExtractedGraph,
  type IngestionComponents,
  type TextIngestPayload,
} from '@engram/core'
import { testDatabases } from '../test/support/ensure-postgres.js'
import { postgresAdapter } from './postgres-adapter.js'

/**
 * Several engines on one database, in one test process: each has its own adapter (its own pool,
 * origin and LISTEN connection), as separate server processes have. `test/reliability` runs the same
 * with real processes and SIGKILL.
 */

const databases = testDatabases()
const running: Engram[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.stop({ graceMs: 0 })))
})
afterAll(() => databases.dropAll())

/** Capitalised words become PERSON entities: enough graph to see duplicates. */
function extractNames(passages: { id: string; text: string }[]): ExtractedGraph {
  const entities: ExtractedGraph['entities'] = []
  for (const p of passages)
    for (const name of new Set(p.text.match(/\b[A-Z][a-z]+\b/g) ?? []))
      entities.push({ key: name, name, labels: ['PERSON'], passageIds: [p.id] })
  return { entities, relationships: [], observations: [] }
}

function components(hold?: () => Promise<void>): IngestionComponents {
  return {
    parseFile: async () => {
      throw new Error('not used')
    },
    jsonToText: (json) => JSON.stringify(json),
    chunk: (text) => [{ index: 0, text, start: 0, end: text.length }],
    extract: async (input) => {
      await hold?.()
      return extractNames(input.passages)
    },
    embed: null,
    embedderInfo: null,
  }
}

async function engine(url: string, options: Partial<EngineOptions> = {}): Promise<Engram> {
  const engram = createEngine({
    storage: postgresAdapter({ connectionString: url }),
    version: 'test',
    workers: 2,
    ingestion: components(),
    followPollMs: 200,
    ...options,
  })
  await engram.start()
  running.push(engram)
  return engram
}

const payload = (text: string): TextIngestPayload => ({
  text,
  json: null,
  metaKeys: {},
  observateFor: [],
  sourceTimestamp: '2026-01-01T00:00:00.000Z',
  skipEnrichment: false,
})

const submit = async (engram: Engram, text: string, taskId?: string) =>
  (
    await engram.tasks.submit({
      brainId: 'default',
      kind: INGEST_TEXT,
      payload: payload(text),
      ...(taskId === undefined ? {} : { taskId }),
    })
  ).task.id

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

const search = (engram: Engram, query: string) =>
  engram.search.search('default', {
    query,
    k: 10,
    channels: ['passages'],
    expand: 'none',
    fusion: 'rrf',
    rerank: 'none',
    profileStages: false,
  })

async function terminal(engram: Engram, taskIds: string[]) {
  return until(async () => {
    const tasks = await Promise.all(taskIds.map((id) => engram.tasks.get('default', id)))
    return tasks.every((t) => t !== null && ['completed', 'failed'].includes(t.status))
      ? tasks
      : undefined
  }, 30_000)
}

describe('several engines on one postgres database', () => {
  it('a write through one engine is searchable through another', async () => {
    const url = await databases.create()
    const a = await engine(url)
    const b = await engine(url, { runTasks: false })
    // B has loaded the brain's indexes before the write (it follows the brain from then on).
    expect((await search(b, 'zebra')).hits).toHaveLength(0)
    const id = await submit(a, 'Zebra crossings in Paris.')
    await terminal(a, [id])
    const hits = await until(async () => {
      const { hits } = await search(b, 'zebra')
      return hits.length > 0 ? hits : undefined
    }, 2_000)
    expect(hits[0]!.snippet).toContain('Zebra')
  })

  it('runs every task once across engines, with no duplicate entity', async () => {
    const url = await databases.create()
    const api = await engine(url, { runTasks: false })
    const workers = [await engine(url), await engine(url)]
    const ids: string[] = []
    for (let i = 0; i < 30; i++)
      ids.push(await submit(i % 2 === 0 ? api : workers[0]!, `Alice and Bob, note ${i}.`))
    const tasks = await terminal(api, ids)
    expect(tasks.map((t) => t!.status)).toEqual(ids.map(() => 'completed'))
    expect(tasks.map((t) => t!.attempts)).toEqual(ids.map(() => 1))
    const store = await api.store('default')
    expect((await store.stats()).passages).toBe(30)
    // Resolution ran under the shared brain lock: one Alice, citing all 30 passages.
    const alice = await store.entities.findByName(normalizeEntityName('Alice'))
    expect(alice).toHaveLength(1)
    expect(alice[0]!.sourcePassageIds).toHaveLength(30)
  })

  it('two engines resolving the same new entity at once create it once (the shared brain lock)', async () => {
    const url = await databases.create()
    const [a, b] = [await engine(url, { workers: 1 }), await engine(url, { workers: 1 })]
    // Each write, once built (its reads made) and before it is applied, waits for the other to get
    // there too, up to 400 ms: without a lock shared by the engines both would read "no Frank" and
    // the later write would drop the earlier one's passage; with it, the second waits for the first.
    let arrived = 0
    let meet!: () => void
    const met = new Promise<void>((r) => (meet = r))
    for (const e of [a, b])
      e.beforeCommit(async (_brainId, batch) => {
        if (!(batch.entities ?? []).some((x) => x.name === 'Frank')) return
        if (++arrived === 2) meet()
        await Promise.race([met, new Promise((r) => setTimeout(r, 400))])
      })
    const ids = [await submit(a, 'Frank paints.'), await submit(b, 'Frank sings.')]
    const tasks = await terminal(a, ids)
    expect(tasks.map((t) => t!.status)).toEqual(['completed', 'completed'])
    const frank = await (await a.store('default')).entities.findByName(normalizeEntityName('Frank'))
    expect(frank).toHaveLength(1)
    expect(frank[0]!.sourcePassageIds).toHaveLength(2)
  })

  it('an API-only engine stores tasks and leaves them to the engines that run tasks', async () => {
    const url = await databases.create()
    const api = await engine(url, { runTasks: false })
    const id = await submit(api, 'Carol waits.')
    await new Promise((r) => setTimeout(r, 500))
    expect((await api.tasks.get('default', id))!.status).toBe('queued')
    await engine(url)
    const [task] = await terminal(api, [id])
    expect(task!.status).toBe('completed')
  })

  it('finishes a task whose process died mid-run, once its lease runs out', async () => {
    const url = await databases.create()
    const api = await engine(url, { runTasks: false })
    const id = await submit(api, 'Dave was interrupted.')
    // A process claims the task, records its start, and dies: no heartbeat, no release.
    const dead = postgresAdapter({ connectionString: url })
    await dead.open()
    expect(await dead.coordination!.tasks.claim(5, 800, [])).toEqual([
      { brainId: 'default', taskId: id },
    ])
    const store = await api.store('default')
    const task = (await store.tasks.get(id))!
    await store.tasks.put({ ...task, status: 'started', stage: 'extracting', attempts: 1 })
    await dead.close()
    const heir = await engine(url, { taskLeaseMs: 800 })
    const started = Date.now()
    const [done] = await terminal(heir, [id])
    expect(done!.status).toBe('completed')
    expect(done!.attempts).toBe(2)
    expect(Date.now() - started).toBeGreaterThan(300)
    expect((await store.stats()).passages).toBe(1)
  })

  it('gives up a task that was started too many times, as failed with its error', async () => {
    const url = await databases.create()
    const a = await engine(url, { runTasks: false, maxTaskAttempts: 2 })
    const id = await submit(a, 'Eve crashes every worker.')
    const store = await a.store('default')
    const task = (await store.tasks.get(id))!
    await store.tasks.put({ ...task, status: 'started', stage: 'extracting', attempts: 2 })
    await engine(url, { maxTaskAttempts: 2 })
    const [done] = await terminal(a, [id])
    expect(done!.status).toBe('failed')
    expect(done!.error).toMatch(/Interrupted 2 times/)
  })
})
