import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { chunkText } from '@engram/core'
import { killHard, spawnServer } from '../support/spawn-server.js'

const TOKEN = 'spat_reliability-system-token-000'
const TERMINAL = new Set(['completed', 'failed', 'partial_failed'])
const dirs: string[] = []
/** Sentences in each of the long notes: several seconds of extraction even on a fast machine. */
const LONG = 4000
/** Short notes that complete before the crash: the re-run must not duplicate them. */
const DONE_FIRST = 5
/** Long notes submitted next; with WORKERS=2 they occupy both task workers. */
const LONG_NOTES = 2

/** A note of `sentences` sentences. */
const note = (n: number, sentences = 4) =>
  Array.from(
    { length: sentences },
    (_, s) =>
      `In note ${n}, Dana met Omar in Lisbon on March ${(s % 28) + 1}, 2024 to discuss project ${n}-${s}.`,
  ).join(' ')
const sentencesOf = (n: number) => (n >= DONE_FIRST && n < DONE_FIRST + LONG_NOTES ? LONG : 4)

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Task statuses and passage count as the data directory holds them (the server must not be running). */
async function durableState(dataDir: string) {
  const storage = sqliteAdapter({ dataDir })
  await storage.open()
  try {
    const store = await storage.brain('default')
    const tasks = await store.tasks.list({ limit: 1000, skip: 0 })
    return { statuses: tasks.map((t) => t.status), stats: await store.stats() }
  } finally {
    await storage.close()
  }
}

describe('ingestion under a crash', () => {
  it('200 accepted ingestions survive SIGKILL mid-way: all terminal after restart, no passage lost or duplicated', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-crash-'))
    dirs.push(dataDir)
    const env = { ENGRAM_DATA_DIR: dataDir, SERVICEPAT_TOKEN: TOKEN, WORKERS: '2' }
    const first = await spawnServer(env)
    const post = (n: number) =>
      fetch(`${first.url}/ingest/`, {
        method: 'POST',
        headers: { ServicePAT: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ text: note(n, sentencesOf(n)) }),
      })
    const listTasks = async () =>
      (
        (await (
          await fetch(`${first.url}/tasks/?limit=1000`, { headers: { ServicePAT: TOKEN } })
        ).json()) as { tasks: { status: string }[] }
      ).tasks
    // A few tasks complete before the crash...
    const responses = await Promise.all(Array.from({ length: DONE_FIRST }, (_, n) => post(n)))
    while ((await listTasks()).some((t) => !TERMINAL.has(t.status)))
      await new Promise((r) => setTimeout(r, 50))
    // ...then the long notes keep both workers busy, so most of the burst that follows is still
    // queued when the process dies, whatever the machine's speed.
    for (let n = DONE_FIRST; n < DONE_FIRST + LONG_NOTES; n++) responses.push(await post(n))
    const rest = 200 - responses.length
    responses.push(
      ...(await Promise.all(
        Array.from({ length: rest }, (_, i) => post(DONE_FIRST + LONG_NOTES + i)),
      )),
    )
    for (const res of responses) expect(res.status).toBe(202)
    // Killed as soon as the last 202 is in: every task was accepted, so every one must survive.
    await killHard(first)

    // The crash landed mid-way: the data directory holds all 200 tasks, some completed, some not.
    const atCrash = await durableState(dataDir)
    expect(atCrash.statuses).toHaveLength(200)
    expect(atCrash.statuses.filter((s) => s === 'completed').length).toBeGreaterThanOrEqual(
      DONE_FIRST,
    )
    expect(atCrash.statuses.filter((s) => !TERMINAL.has(s)).length).toBeGreaterThan(0)

    const second = await spawnServer(env)
    const deadline = Date.now() + 150_000
    let statuses: string[] = []
    while (Date.now() < deadline) {
      const tasks = (
        (await (
          await fetch(`${second.url}/tasks/?limit=1000`, { headers: { ServicePAT: TOKEN } })
        ).json()) as { tasks: { status: string }[] }
      ).tasks
      statuses = tasks.map((t) => t.status)
      if (tasks.length === 200 && statuses.every((s) => TERMINAL.has(s))) break
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(statuses).toHaveLength(200)
    expect(statuses.every((s) => s === 'completed')).toBe(true)
    await killHard(second)

    const after = await durableState(dataDir)
    const expected = Array.from(
      { length: 200 },
      (_, n) => chunkText(note(n, sentencesOf(n))).length,
    ).reduce((a, b) => a + b, 0)
    expect(after.stats.passages).toBe(expected)
    expect(after.stats.tasks).toBe(200)
  }, 240_000)
})
