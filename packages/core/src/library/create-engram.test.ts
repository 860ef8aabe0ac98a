import { afterEach, describe, expect, it } from 'vitest'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import { createEngram, type EngramLibrary } from './create-engram.js'
import type { EngramOptions } from './engram-options.js'
import { memoryStorage } from './memory-storage.js'

const opened: EngramLibrary[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()))
})

async function engram(options: Partial<EngramOptions> = {}) {
  const e = await testEngram(options)
  opened.push(e)
  return e
}

describe('createEngram options', () => {
  it('starts with only storage given and acts on the default brain', async () => {
    const e = await engram()
    expect(e.id).toBe('default')
    expect(await e.brains.list()).toEqual([{ id: 'default', createdAt: expect.any(String) }])
    expect(e.engine.defaultBrain).toBe('default')
  })

  it.each([
    [{ storage: memoryStorage(), embeder: 'none' }, 'embeder'],
    [{ storage: memoryStorage(), workers: 0 }, 'workers'],
    [{ storage: memoryStorage(), workers: '2' }, 'workers'],
    [{ storage: memoryStorage(), embedder: 'openai' }, 'embedder'],
    [{ storage: memoryStorage(), extractor: 'llm' }, 'extractor'],
    [{ storage: memoryStorage(), defaultBrain: 'no spaces' }, 'defaultBrain'],
    [{ storage: memoryStorage(), bm25: { k: 1 } }, 'bm25'],
    [{ storage: memoryStorage(), maxFileBytes: 10 }, 'maxFileBytes'],
    [{ storage: memoryStorage(), logger: console.log }, 'logger'],
    [{ storage: memoryStorage(), plugins: [{ kind: 'thing', name: 'x' }] }, 'plugins'],
    [{ storage: { dir: './data' } }, 'storage'],
    [{}, 'storage'],
  ])('refuses %j with a VALIDATION_ERROR naming %s', async (options, field) => {
    const error = await engramFailure(() => createEngram(options as unknown as EngramOptions))
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 })
    expect(error.message).toContain(field)
    expect(JSON.stringify(error.detail)).toContain(field)
  })

  it('refuses options that are not an object, and settings the engine rejects', async () => {
    expect(await engramFailure(() => createEngram(undefined as never))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    const bm25 = await engramFailure(() => engram({ bm25: { b: 7 } }))
    expect(bm25).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(bm25.message).toContain('b must be in [0, 1]')
    const fusion = await engramFailure(() => engram({ defaultFusion: 'nope' }))
    expect(fusion).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(fusion.message).toContain('nope')
  })

  it('creates the configured default brain', async () => {
    const e = await engram({ defaultBrain: 'notes' })
    expect(e.id).toBe('notes')
    expect(await e.brains.get('notes')).toMatchObject({ id: 'notes' })
  })
})

describe('brains and settings', () => {
  it('creates, lists, gets and deletes brains, and binds the methods to one', async () => {
    const e = await engram()
    const created = await e.brains.create('notes')
    expect(created).toEqual({
      id: 'notes',
      createdAt: expect.any(String),
      token: expect.any(String),
    })
    expect((await e.brains.list()).map((b) => b.id)).toEqual(['default', 'notes'])
    const notes = e.brain('notes')
    await (await notes.ingest.text('Zebras graze in Kenya.')).done()
    expect((await notes.search('zebras')).hits).toHaveLength(1)
    expect((await e.search('zebras')).hits).toHaveLength(0)
    expect(await e.brains.delete('notes')).toMatchObject({ passages: 1 })
    expect(await e.brains.get('notes')).toBeNull()
    expect(await engramFailure(() => notes.search('zebras'))).toMatchObject({
      code: 'BRAIN_NOT_FOUND',
    })
  })

  it('refuses bad and taken ids, the default brain, and unknown brains with catalogue codes', async () => {
    const e = await engram()
    expect(await engramFailure(() => e.brains.create('default'))).toMatchObject({
      code: 'BRAIN_EXISTS',
    })
    expect(await engramFailure(() => e.brains.create('1abc'))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(await engramFailure(() => e.brains.create(7 as never))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(await engramFailure(() => e.brains.delete('default'))).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
    })
    expect(await engramFailure(() => e.brains.delete('ghost'))).toMatchObject({
      code: 'BRAIN_NOT_FOUND',
    })
    expect(await engramFailure(() => e.brain('bad id'))).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(await engramFailure(() => e.brain('ghost').records.entities())).toMatchObject({
      code: 'BRAIN_NOT_FOUND',
    })
  })

  it('reads and updates the BM25 settings of a brain', async () => {
    const e = await engram({ bm25: { k1: 1.2 } })
    expect((await e.settings.get()).bm25).toMatchObject({ k1: 1.2 })
    const updated = await e.settings.update({ bm25: { variant: 'lucene', b: 0.75 } })
    expect(updated.overrides.bm25).toEqual({ variant: 'lucene', b: 0.75 })
    expect(updated.bm25).toMatchObject({ variant: 'lucene', k1: 1.2, b: 0.75 })
    expect((await e.settings.update({ bm25: null })).overrides.bm25).toEqual({})
    expect(await engramFailure(() => e.settings.update({ bm25: { b: 3 } }))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(await engramFailure(() => e.settings.update({ bm52: {} } as never))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
  })
})

describe('close', () => {
  it('is idempotent, and every later call is SERVICE_UNAVAILABLE', async () => {
    const e = await engram()
    const task = await e.ingest.text('Ada met Babbage.')
    await Promise.all([e.close(), e.close()])
    expect(await engramFailure(() => e.search('Ada'))).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    })
    expect(await engramFailure(() => e.brains.list())).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    })
    expect(await engramFailure(() => task.status())).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    expect(await engramFailure(() => e.close({ grace: 1 } as never))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
  })

  it('rejects the done() of a task still running with SERVICE_UNAVAILABLE', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const e = await engram({
      extractor: {
        kind: 'extractor',
        name: 'held',
        async extract() {
          await held
          return { entities: [], relationships: [], observations: [] }
        },
      },
    })
    const task = await e.ingest.text('Ada met Babbage.')
    const done = task.done()
    const closing = e.close({ graceMs: 0 })
    expect(await engramFailure(() => done)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    release()
    await closing
  })
})
