import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { chunkText } from '@engram/core'
import { killHard, spawnServer } from '../support/spawn-server.js'

const TOKEN = 'spat_reliability-system-token-000'
const dirs: string[] = []
/** Sentences in each of the two long notes: a few seconds of extraction. */
const LONG = 1500

/** A note of `sentences` sentences; the first two are long enough to keep both workers busy. */
const note = (n: number, sentences = 4) =>
  Array.from(
    { length: sentences },
    (_, s) =>
      `In note ${n}, Dana met Omar in Lisbon on March ${(s % 28) + 1}, 2024 to discuss project ${n}-${s}.`,
  ).join(' ')
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('ingestion under a crash', () => {
  it('200 accepted ingestions survive SIGKILL mid-way: all terminal after restart, no passage lost or duplicated', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-crash-'))
    dirs.push(dataDir)
    const env = { ENGRAM_DATA_DIR: dataDir, SERVICEPAT_TOKEN: TOKEN, WORKERS: '2' }
    const first = await spawnServer(env)
    const accepted: string[] = []
    // Two long notes first occupy both workers for seconds, so the crash deterministically lands
    // while most of the burst that follows is still queued, whatever the machine's speed.
    for (const n of [0, 1]) {
      const res = await fetch(`${first.url}/ingest/`, {
        method: 'POST',
        headers: { ServicePAT: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ text: note(n, LONG) }),
      })
      expect(res.status).toBe(202)
      accepted.push(((await res.json()) as { task_id: string }).task_id)
    }
    // Then one burst: all are accepted (stored durably) long before the workers can finish them.
    const responses = await Promise.all(
      Array.from({ length: 198 }, (_, i) => i + 2).map((n) =>
        fetch(`${first.url}/ingest/`, {
          method: 'POST',
          headers: { ServicePAT: TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ text: note(n) }),
        }),
      ),
    )
    for (const res of responses) {
      expect(res.status).toBe(202)
      accepted.push(((await res.json()) as { task_id: string }).task_id)
    }
    const before = (
      (await (
        await fetch(`${first.url}/tasks/?limit=1000`, { headers: { ServicePAT: TOKEN } })
      ).json()) as { tasks: { status: string }[] }
    ).tasks
    // The crash must land mid-way: some accepted tasks are still queued or running.
    expect(
      before.filter((t) => t.status === 'queued' || t.status === 'started').length,
    ).toBeGreaterThan(0)
    await killHard(first)

    const second = await spawnServer(env)
    const deadline = Date.now() + 120_000
    let statuses: string[] = []
    while (Date.now() < deadline) {
      const tasks = (
        (await (
          await fetch(`${second.url}/tasks/?limit=1000`, { headers: { ServicePAT: TOKEN } })
        ).json()) as { tasks: { task_id: string; status: string }[] }
      ).tasks
      statuses = tasks.map((t) => t.status)
      if (
        tasks.length === accepted.length &&
        statuses.every((s) => s === 'completed' || s === 'failed' || s === 'partial_failed')
      )
        break
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(statuses).toHaveLength(200)
    expect(statuses.every((s) => s === 'completed')).toBe(true)
    await killHard(second)

    const storage = sqliteAdapter({ dataDir })
    await storage.open()
    const stats = await (await storage.brain('default')).stats()
    const expected = Array.from(
      { length: 200 },
      (_, n) => chunkText(note(n, n < 2 ? LONG : 4)).length,
    ).reduce((a, b) => a + b, 0)
    expect(stats.passages).toBe(expected)
    expect(stats.tasks).toBe(200)
    await storage.close()
  }, 180_000)
})
