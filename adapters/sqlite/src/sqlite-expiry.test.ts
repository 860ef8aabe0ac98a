import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine, INGEST_TEXT } from '@engram/core'
import { sqliteAdapter } from './sqlite-adapter.js'

/**
 * `sources.expired` on SQLite (docs/time.md, Expiry): soonest first, active sources only, and answered
 * from the index `sources_expiry` (its migration), not by reading every active source.
 */
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('sqlite sources.expired', () => {
  it('lists expired active sources soonest first, through the expiry index', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-sqlite-expiry-'))
    dirs.push(dataDir)
    const engram = createEngine({
      storage: sqliteAdapter({ dataDir }),
      version: 't',
      embedder: null,
      expirySweepSeconds: 0,
    })
    await engram.start()
    try {
      const times: [string, string | undefined][] = [
        ['b', '2001-01-02T00:00:00.000Z'],
        ['a', '2001-01-03T00:00:00.000Z'],
        ['c', '2001-01-01T00:00:00.000Z'],
        ['future', '2999-01-01T00:00:00.000Z'],
        ['never', undefined],
      ]
      for (const [sourceId, expiresAt] of times) {
        const payload = {
          sourceId,
          text: `Text ${sourceId}.`,
          json: null,
          metaKeys: {},
          observateFor: [],
          sourceTimestamp: '2026-01-01T00:00:00.000Z',
          skipEnrichment: true,
          ...(expiresAt === undefined ? {} : { expiresAt }),
        }
        const { task } = await engram.tasks.submit({
          brainId: 'default',
          kind: INGEST_TEXT,
          payload,
        })
        expect((await engram.tasks.settled('default', task.id)).status).toBe('completed')
      }
      const store = await engram.store('default')
      const now = '2026-01-01T00:00:00.000Z'
      expect((await store.sources.expired(now, 10)).map((s) => s.id)).toEqual(['c', 'b', 'a'])
      expect((await store.sources.expired(now, 2)).map((s) => s.id)).toEqual(['c', 'b'])
      expect(await store.sources.expired('2000-01-01T00:00:00.000Z', 10)).toEqual([])

      const forget = await engram.sources.forget('default', 'c')
      await engram.tasks.settled('default', forget.task.id)
      expect((await store.sources.expired(now, 10)).map((s) => s.id)).toEqual(['b', 'a'])
    } finally {
      await engram.stop()
    }

    const db = new Database(join(dataDir, 'brains', 'default.sqlite'), { readonly: true })
    try {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT data FROM sources WHERE status = 'active'
             AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at, id LIMIT ?`,
        )
        .all('2026-01-01T00:00:00.000Z', 10) as { detail: string }[]
      expect(plan.map((p) => p.detail).join('\n')).toContain('USING INDEX sources_expiry')
    } finally {
      db.close()
    }
  })
})
