import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { minimalPdf } from '../../testing/index.js'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

let engram: EngramLibrary
let dir: string

beforeAll(async () => {
  engram = await testEngram({ maxFileBytes: 2048 })
  dir = await mkdtemp(join(tmpdir(), 'engram-library-'))
})
afterAll(async () => {
  await engram.close()
  await rm(dir, { recursive: true, force: true })
})

describe('ingest', () => {
  it('ingests text with every option and resolves done() with the completed task', async () => {
    const task = await engram.ingest.text('Emily organized the AI Ethics Meetup in London.', {
      metaKeys: { 'Session Id': 's1', turn: 3 },
      observateFor: ['Emily'],
      sourceTimestamp: new Date('2024-03-08T10:00:00Z'),
      skipEnrichment: false,
    })
    expect(task).toMatchObject({ id: expect.any(String), brain: 'default' })
    const done = await task.done()
    expect(done).toMatchObject({ status: 'completed', result: { passages: 1 } })
    expect(done.payload).toMatchObject({
      metaKeys: { session_id: 's1', turn: 3 },
      sourceTimestamp: '2024-03-08T10:00:00.000Z',
    })
    expect(await task.status()).toMatchObject({ status: 'completed' })
    const passages = await engram.records.passages({ taskId: task.id })
    expect(passages.items[0]!.metadata).toMatchObject({ session_id: 's1' })
  })

  it('ingests a JSON object as text', async () => {
    const done = await (
      await engram.ingest.json({ product: { name: 'Kettle', colour: 'teal' } })
    ).done()
    expect(done.status).toBe('completed')
    expect((await engram.search('kettle teal')).hits.length).toBeGreaterThan(0)
  })

  it('ingests a file by path and by bytes (PDF included), detecting the type', async () => {
    const path = join(dir, 'notes.md')
    await writeFile(path, '# Notes\n\nThe lighthouse keeper paints the stairs.')
    const byPath = await (await engram.ingest.file(path)).done()
    expect(byPath.payload).toMatchObject({ filename: 'notes.md' })
    const bytes = Buffer.from('{"city": "Lisbon", "tram": 28}')
    const byBytes = await (await engram.ingest.file(bytes, { filename: 'city.json' })).done()
    expect(byBytes.status).toBe('completed')
    const pdf = await (
      await engram.ingest.file(minimalPdf(['Quokkas live on Rottnest.']), {
        mimeType: 'application/pdf',
      })
    ).done()
    expect(pdf.status).toBe('completed')
    expect((await engram.search('quokkas')).hits.length).toBeGreaterThan(0)
  })

  it('ingests structured items, with anchors and text', async () => {
    const done = await (
      await engram.ingest.structured(
        [
          {
            subject: { name: 'Bob', type: 'PERSON' },
            subjEvent: { name: 'MADE' },
            event: { name: 'purchase', type: 'EVENT', happenedAt: '2024-05-01' },
            eventObj: { name: 'TARGETED', amount: 2 },
            object: { name: 'Bicycle', type: 'PRODUCT', properties: { colour: 'green' } },
          },
          { subjEvent: { name: 'LIKES' }, object: { name: 'Mountains', type: 'PLACE' } },
        ],
        { anchor: { name: 'Bob', type: 'PERSON' }, text: 'Bob bought two green bicycles.' },
      )
    ).done()
    expect(done.status).toBe('completed')
    expect(done.payload).toMatchObject({ mode: 'hybrid' })
    const bob = await engram.graph.entityStatus('Bob')
    expect(bob.exists).toBe(true)
  })

  it("keeps an abbreviation a text defines as its name's alias, which a later text and a search find", async () => {
    const brain = engram.brain('abbreviations')
    await engram.brains.create('abbreviations')
    const texts = [
      'The Escuela Latinoamericana de Medicina (ELAM) is a medical school in Havana.',
      'ELAM trains doctors from Africa.',
    ]
    for (const text of texts) await (await brain.ingest.text(text)).done()
    // The second text's "ELAM" is the school (name lookup through the alias), not a node of its own.
    const names = (await brain.records.entities({ limit: 100 })).items.map((e) => e.entity.name)
    expect(names).toContain('Escuela Latinoamericana de Medicina')
    expect(names).not.toContain('ELAM')
    const hits = (await brain.search('ELAM', { channels: ['entities'], expand: 'none' })).hits
    expect(hits[0]?.extras).toMatchObject({ name: 'Escuela Latinoamericana de Medicina' })
  })

  it('returns the same task for the same taskId', async () => {
    const first = await engram.ingest.text('Herons stand still.', { taskId: 'heron-1' })
    const again = await engram.ingest.text('Herons stand still.', { taskId: 'heron-1' })
    expect(again.id).toBe('heron-1')
    expect(first.id).toBe('heron-1')
    await again.done()
    expect((await engram.task('heron-1').status()).status).toBe('completed')
  })

  it('rejects done() with an EngramError when the task fails', async () => {
    const failing = await testEngram({
      extractor: {
        kind: 'extractor',
        name: 'broken',
        extract: async () => {
          throw new Error('extractor down')
        },
      },
    })
    try {
      const task = await failing.ingest.text('Anything at all.')
      const error = await engramFailure(() => task.done())
      expect(error).toMatchObject({ code: 'INTERNAL_ERROR', detail: { status: 'failed' } })
      expect(error.message).toContain('extractor down')
    } finally {
      await failing.close()
    }
  })

  it('rejects done() with the signal reason when aborted, and an unknown task', async () => {
    const task = await engram.ingest.text('Owls hunt at night.')
    await expect(
      task.done({ signal: AbortSignal.abort(new Error('stop waiting')) }),
    ).rejects.toThrow('stop waiting')
    await task.done()
    expect(await engramFailure(() => engram.task('missing').done())).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    expect(await engramFailure(() => engram.task('missing').status())).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    expect(await engramFailure(() => task.done({ sigal: 1 } as never))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
  })

  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  it.each([
    ['text: empty', () => engram.ingest.text(''), 'text'],
    ['text: a number', () => engram.ingest.text(42 as never), 'text'],
    ['text: an option typo', () => engram.ingest.text('x', { metakeys: {} } as never), 'metakeys'],
    [
      'text: a bad timestamp',
      () => engram.ingest.text('x', { sourceTimestamp: 'someday' }),
      'sourceTimestamp',
    ],
    [
      'text: an invalid Date',
      () => engram.ingest.text('x', { sourceTimestamp: new Date('x') }),
      'sourceTimestamp',
    ],
    ['text: a bad taskId', () => engram.ingest.text('x', { taskId: 'has space' }), 'taskId'],
    [
      'text: observateFor not a list',
      () => engram.ingest.text('x', { observateFor: 'Emily' as never }),
      'observateFor',
    ],
    [
      'text: metaKeys with a bigint',
      () => engram.ingest.text('x', { metaKeys: { n: 1n } }),
      'metaKeys',
    ],
    ['json: an array', () => engram.ingest.json([1, 2] as never), 'json'],
    ['json: a cycle', () => engram.ingest.json(cyclic), 'json'],
    ['json: a Date inside', () => engram.ingest.json({ at: new Date() }), 'json'],
    ['file: a number', () => engram.ingest.file(7 as never), 'file'],
    ['structured: none', () => engram.ingest.structured([]), 'items'],
    [
      'structured: no object',
      () => engram.ingest.structured([{ subject: { name: 'a', type: 'T' } }] as never),
      'items',
    ],
    [
      'structured: half an event',
      () =>
        engram.ingest.structured([
          { event: { name: 'e', type: 'EVENT' }, object: { name: 'o', type: 'T' } },
        ]),
      'items',
    ],
    [
      'structured: a bad mode',
      () =>
        engram.ingest.structured([{ object: { name: 'o', type: 'T' } }], { mode: 'fast' as never }),
      'mode',
    ],
  ])('refuses %s with a VALIDATION_ERROR naming it', async (_case, call, field) => {
    const error = await engramFailure(call)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(JSON.stringify(error.detail)).toContain(field)
  })

  it('refuses files by their REST codes: too large, unsupported, missing, broken', async () => {
    expect(
      await engramFailure(() => engram.ingest.file(Buffer.alloc(4096, 'a'), { filename: 'a.txt' })),
    ).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 })
    const big = join(dir, 'big.txt')
    await writeFile(big, 'b'.repeat(4096))
    expect(await engramFailure(() => engram.ingest.file(big))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
    expect(
      await engramFailure(() => engram.ingest.file(Buffer.from('MZ\0\0'), { filename: 'a.exe' })),
    ).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 })
    expect(await engramFailure(() => engram.ingest.file(Buffer.from('hello')))).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
    })
    expect(await engramFailure(() => engram.ingest.file(join(dir, 'nope.txt')))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    expect(await engramFailure(() => engram.ingest.file(dir))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(
      await engramFailure(() => engram.ingest.file(Buffer.from('{"a":'), { filename: 'a.json' })),
    ).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 })
  })
})
