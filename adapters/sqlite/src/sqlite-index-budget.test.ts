import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type SearchRequest } from '@engram/core'
import {
  fixtures,
  hashingTestEmbedder,
  searchCorpus,
  searchCorpusBatch,
} from '@engram/core/testing'
import { sqliteAdapter } from './sqlite-adapter.js'
import type { SqliteDatabaseLike } from './sqlite-database-like.js'

const embedder = hashingTestEmbedder()

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const request = (query: string): SearchRequest => ({
  query,
  k: 10,
  channels: ['passages', 'entities'],
  expand: 'none',
  fusion: 'rrf',
  rerank: 'none',
  profileStages: false,
})

/** Connections open per brain file (better-sqlite3, counted as they open and close). */
function countingDriver() {
  const open = new Map<string, number>()
  const brainOf = (path: string) => path.split('/').at(-1)!.replace('.sqlite', '')
  const database = (path: string) => {
    const db = new Database(path)
    open.set(brainOf(path), (open.get(brainOf(path)) ?? 0) + 1)
    const close = db.close.bind(db)
    db.close = () => {
      open.set(brainOf(path), open.get(brainOf(path))! - 1)
      return close()
    }
    return db as unknown as SqliteDatabaseLike
  }
  return { database, open }
}

/** An engine on a fresh SQLite data dir with one search-corpus brain per id. */
async function engine(budgetBytes: number | undefined, brains: string[], dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'engram-sqlite-budget-'))
  if (dataDir === undefined) cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const driver = countingDriver()
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir: dir, database: driver.database }),
    version: 't',
    defaultBrain: null,
    embedder,
    // Background saves stay out of the way: only evictions and `stop` save snapshots here.
    snapshots: { idleMs: 3_600_000 },
    ...(budgetBytes === undefined ? {} : { indexMemoryMb: budgetBytes / 2 ** 20 }),
  })
  await engram.start()
  for (const id of brains) {
    if ((await engram.brains.get(id)) !== null) continue
    await engram.brains.create(id)
    await engram.commit(id, await searchCorpusBatch(searchCorpus(`${id}-`), embedder))
  }
  return { engram, dir, open: driver.open }
}

async function corpusBrainBytes(): Promise<number> {
  const { engram } = await engine(undefined, ['x'])
  const bytes = (await engram.indexes.get('x')).estimatedBytes()
  await engram.stop()
  return bytes
}

describe('index memory budget on SQLite', () => {
  it('saves an evicted brain’s vector snapshots, closes its connection, and reloads from them', async () => {
    const one = await corpusBrainBytes()
    const { engram, open } = await engine(1.5 * one, ['a', 'b'])
    const first = await engram.indexes.get('a')
    expect(Object.fromEntries(first.vectorOrigin)).toEqual({
      passages: 'storage',
      entities: 'storage',
    })
    const queries = searchCorpus('a-').queries
    const before = []
    for (const q of queries) before.push((await engram.search.search('a', request(q))).hits)

    await engram.indexes.get('b')
    // The eviction 'b' set off runs in the background (it writes snapshot files): it ends here.
    await engram.indexes.settled()
    expect(engram.indexes.peek('a')).toBeUndefined()
    expect(open.get('a')).toBe(0)
    expect(open.get('b')).toBe(1)

    const reloaded = await engram.indexes.get('a')
    expect(Object.fromEntries(reloaded.vectorOrigin)).toEqual({
      passages: 'snapshot',
      entities: 'snapshot',
    })
    for (const [i, q] of queries.entries())
      expect((await engram.search.search('a', request(q))).hits).toEqual(before[i])
    await engram.indexes.settled()
    expect(engram.indexes.stats()).toMatchObject({ loadedBrains: 1, evictions: 2 })
    await engram.stop()
  })

  it('rebuilds from storage what was written while the brain was evicted', async () => {
    const one = await corpusBrainBytes()
    const { engram } = await engine(1.5 * one, ['a', 'b'])
    await engram.indexes.get('a')
    await engram.indexes.get('b')
    await engram.indexes.settled()
    expect(engram.indexes.peek('a')).toBeUndefined()
    await engram.commit('a', {
      passages: [fixtures.passage({ id: 'a-late', text: 'a late note about okapis' })],
    })
    const reloaded = await engram.indexes.get('a')
    // The write invalidated the passages snapshot only.
    expect(Object.fromEntries(reloaded.vectorOrigin)).toEqual({
      passages: 'storage',
      entities: 'snapshot',
    })
    expect(reloaded.vectors.get('passages')!.size).toBe(7)
    const { hits } = await engram.search.search('a', request('okapis'))
    expect(hits[0]?.id).toBe('a-late')
    await engram.stop()
  })

  it('stays consistent under concurrent requests and writes, and across a restart', async () => {
    const one = await corpusBrainBytes()
    const ids = ['a', 'b', 'c']
    const { engram, dir } = await engine(1.5 * one, ids)
    const work = []
    for (let round = 0; round < 8; round++)
      for (const id of ids) {
        work.push(engram.search.search(id, request('pasta')))
        work.push(
          engram.commit(id, {
            passages: [
              fixtures.passage({ id: `${id}-r${round}`, text: `round ${round} about walruses` }),
            ],
          }),
        )
      }
    await Promise.all(work)
    const expected = new Map<string, unknown>()
    for (const id of ids) {
      const indexes = await engram.indexes.get(id)
      expect(indexes.passages.size).toBe(6 + 8)
      expect(indexes.vectors.get('passages')!.size).toBe(6 + 8)
      expected.set(id, (await engram.search.search(id, request('walruses pasta'))).hits)
    }
    await engram.indexes.settled()
    expect(engram.indexes.stats().evictions).toBeGreaterThan(0)
    await engram.stop()

    const again = await engine(1.5 * one, ids, dir)
    for (const id of ids)
      expect((await again.engram.search.search(id, request('walruses pasta'))).hits).toEqual(
        expected.get(id),
      )
    await again.engram.stop()
  })

  it('forgets a deleted brain and serves one created again under its id from scratch', async () => {
    const one = await corpusBrainBytes()
    const { engram } = await engine(1.5 * one, ['a', 'b'])
    await engram.indexes.get('a')
    await engram.brains.delete('a')
    expect(engram.indexes.stats().loadedBrains).toBe(0)
    await engram.indexes.get('b')
    await engram.brains.create('a')
    const fresh = await engram.indexes.get('a')
    expect(fresh.passages.size).toBe(0)
    expect(fresh.vectors.size).toBe(0)
    await engram.stop()
  })
})
