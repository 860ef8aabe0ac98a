import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createEngine, hashToken, type Engram } from '@engram/core'
import { postgresAdapter } from '@engram/adapter-postgres'
import { buildApp } from '@engram/server'
import { createEngramClient, type ChangelogEvent } from '@engram/client'
import { testDatabases } from '../../adapters/postgres/test/support/ensure-postgres.js'

/**
 * The change stream across processes (issue 26, item 4): two API processes on one PostgreSQL
 * database, each an engine with its own adapter (pool, origin, LISTEN connection) and its own app on a
 * socket, as in adapters/postgres/src/postgres-scale-out.test.ts. A write through one reaches a
 * subscriber of the other within 1 s, whether or not the write is announced (NOTIFY).
 */

const SYSTEM_TOKEN = 'spat_changelog-stream-postgres-0123'
const databases = testDatabases()
const running: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close()
})
afterAll(() => databases.dropAll())

async function apiProcess(url: string) {
  const engram: Engram = createEngine({
    storage: postgresAdapter({ connectionString: url }),
    version: 'test',
    systemTokenHash: hashToken(SYSTEM_TOKEN),
    runTasks: false,
  })
  await engram.start()
  const app = await buildApp({ engram })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  running.push({
    async close() {
      await app.close()
      await engram.stop({ graceMs: 0 })
    },
  })
  return { engram, client: createEngramClient({ baseUrl: base, token: SYSTEM_TOKEN }) }
}

/** Reads `stream` in the background; `next()` resolves with the next event and when it came. */
function reader(stream: AsyncGenerator<ChangelogEvent>) {
  const waiting: ((e: { event: ChangelogEvent; at: number }) => void)[] = []
  const queued: { event: ChangelogEvent; at: number }[] = []
  void (async () => {
    for await (const event of stream) {
      const item = { event, at: performance.now() }
      const wake = waiting.shift()
      if (wake) wake(item)
      else queued.push(item)
    }
  })()
  return {
    next: () =>
      new Promise<{ event: ChangelogEvent; at: number }>((resolve) => {
        const item = queued.shift()
        if (item) resolve(item)
        else waiting.push(resolve)
      }),
  }
}

describe('GET /retrieve/changelogs/stream on PostgreSQL, two API processes', () => {
  it('a write through one process reaches a subscriber of the other within 1 s, and resumes there', async () => {
    const url = await databases.create()
    const a = await apiProcess(url)
    const b = await apiProcess(url)
    const stop = new AbortController()
    const sub = reader(b.client.changelogStream({ after: 0, signal: stop.signal }))

    // An announced write (the entity is indexed: the write feed NOTIFYs the other process).
    const sent = performance.now()
    const [ada] = await a.client.POST('/model/entity', {
      body: { name: 'Ada', labels: ['PERSON'] },
    })
    const first = await sub.next()
    expect(first.event).toMatchObject({ seq: 1, type: 'node_created' })
    expect(JSON.stringify(first.event.entry)).toContain(ada!.uuid)
    expect(first.at - sent).toBeLessThan(1000)

    // A changelog-only write is not in the write feed: the poll of lastSeq finds it.
    const quiet = performance.now()
    await a.engram.commit('default', {
      changelog: [
        {
          id: 'manual-1',
          timestamp: new Date().toISOString(),
          type: 'redacted',
          change: { type: 'redacted' },
        },
      ],
    })
    const second = await sub.next()
    expect(second.event).toMatchObject({ seq: 2, type: 'redacted' })
    expect(second.at - quiet).toBeLessThan(1000)
    stop.abort()

    // Written while nobody listens; read back through the first process from the last seq seen.
    await a.client.POST('/model/entity', { body: { name: 'Bob', labels: ['PERSON'] } })
    await b.client.POST('/model/entity', { body: { name: 'Cy', labels: ['PERSON'] } })
    const resumed: ChangelogEvent[] = []
    for await (const event of a.client.changelogStream({ after: second.event.seq })) {
      resumed.push(event)
      if (resumed.length === 2) break
    }
    expect(resumed.map((e) => [e.seq, e.entry.change.node?.name])).toEqual([
      [3, 'Bob'],
      [4, 'Cy'],
    ])
  })
})
