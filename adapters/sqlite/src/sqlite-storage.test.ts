import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngram, EngramError, localExtractor } from '@engram/core'
import { sqliteStorage } from './sqlite-storage.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-sqlite-storage-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const open = (data: string) =>
  createEngram({
    storage: sqliteStorage({ dir: data }),
    embedder: 'none',
    extractor: localExtractor(),
  })

describe('sqliteStorage', () => {
  it('keeps brains, records and tasks across a close and a new createEngram', async () => {
    const data = join(dir, 'data')
    const first = await open(data)
    await first.brains.create('notes')
    const task = await first.brain('notes').ingest.text('Lighthouses guide ships at night.')
    await task.done()
    await first.close()

    const again = await open(data)
    try {
      expect((await again.brains.list()).map((b) => b.id)).toEqual(['default', 'notes'])
      const notes = again.brain('notes')
      expect((await notes.search('lighthouses')).hits).toHaveLength(1)
      expect(await notes.task(task.id).status()).toMatchObject({ status: 'completed' })
      expect(await notes.task(task.id).done()).toMatchObject({ status: 'completed' })
    } finally {
      await again.close()
    }
  })

  it.each([
    [undefined, 'dir'],
    [{}, 'dir'],
    [{ dir: '' }, 'dir'],
    [{ dir: 7 }, 'dir'],
    [{ dataDir: './x' }, 'dataDir'],
    [{ dir: './x', mode: 'wal' }, 'mode'],
  ])('refuses %j with a VALIDATION_ERROR naming %s', (options, field) => {
    let error: unknown
    try {
      sqliteStorage(options as never)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', detail: [{ loc: ['options', field] }] })
  })

  it('reports a data directory that cannot be created as SERVICE_UNAVAILABLE', async () => {
    const file = join(dir, 'a-file')
    await writeFile(file, 'not a directory')
    await expect(open(join(file, 'data'))).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('storage could not be opened'),
    })
  })
})
