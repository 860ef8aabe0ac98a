import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEngine,
  hashToken,
  localExtractor,
  memoryAdapter,
  type Engram,
  type Extractor,
} from '@engram/core'
import { buildApp } from '@engram/server'

/*
 * Issue 11 point 6: the task queue's cap was shared by all brains, so flooding brain x made brain y's
 * ingests 503. CONTRACT.md section 1 (fairness): each brain has its own share. Here the cap is 8 and
 * extraction waits on a gate, so accepted tasks stay in the queue while the flood goes on.
 */

const TOKEN = 'spat_queue-fairness-token-0123456789'
const CAP = 8

/** The local extractor, held until `open()`: tasks stay queued or running meanwhile. */
function gatedExtractor(): Extractor & { open(): void } {
  const inner = localExtractor()
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  return {
    kind: 'extractor',
    name: 'gated',
    async extract(input, ctx) {
      await gate
      return inner.extract(input, ctx)
    },
    open,
  }
}

let engram: Engram
let app: Awaited<ReturnType<typeof buildApp>>
const extractor = gatedExtractor()

beforeAll(async () => {
  engram = createEngine({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(TOKEN),
    workers: 2,
    maxPendingTasks: CAP,
    extractor,
  })
  await engram.start()
  app = await buildApp({ engram })
  for (const brain_id of ['flood', 'quiet'])
    await app.inject({
      method: 'POST',
      url: '/system/brains',
      headers: { ServicePAT: TOKEN },
      payload: { brain_id },
    })
})
afterAll(async () => {
  await app.close()
  await engram.stop({ graceMs: 100 })
})

const ingest = (brain: string, i: number) =>
  app.inject({
    method: 'POST',
    url: '/ingest/',
    headers: { ServicePAT: TOKEN, 'X-Brain-ID': brain },
    payload: { text: `Dana met Omar in Lisbon, meeting ${i}.` },
  })

describe('task queue shares (issue 11 point 6)', () => {
  it("refuses a flooding brain past its share and still accepts another brain's tasks", async () => {
    const flood: number[] = []
    for (let i = 0; i < CAP + 3; i++) flood.push((await ingest('flood', i)).statusCode)
    expect(flood.slice(0, CAP)).toEqual(Array(CAP).fill(202))
    expect(flood.slice(CAP)).toEqual([503, 503, 503])

    const refused = await ingest('flood', 99)
    expect(refused.statusCode).toBe(503)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })

    // Two brains with tasks: the quiet brain's share is CAP / 2.
    const quiet: number[] = []
    for (let i = 0; i < CAP / 2 + 1; i++) quiet.push((await ingest('quiet', i)).statusCode)
    expect(quiet).toEqual([...Array(CAP / 2).fill(202), 503])

    extractor.open()
    await engram.tasks.idle()
    for (const [brain, count] of [
      ['flood', CAP],
      ['quiet', CAP / 2],
    ] as const) {
      const listed = await app.inject({
        method: 'GET',
        url: '/tasks/?limit=100',
        headers: { ServicePAT: TOKEN, 'X-Brain-ID': brain },
      })
      const statuses = listed.json().tasks.map((t: { status: string }) => t.status)
      expect(statuses).toEqual(Array(count).fill('completed'))
    }
  })
})
