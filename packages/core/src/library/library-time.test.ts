import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

/** docs/time.md through the library: ended facts, `asOf` on search and graph operations. */
let engram: EngramLibrary

beforeAll(async () => {
  engram = await testEngram({})
  for (const [text, at] of [
    ['Alice lives in Paris.', '2020-03-01T00:00:00Z'],
    ['Alice moved to Berlin in 2023.', '2023-06-01T00:00:00Z'],
  ] as const)
    await (await engram.ingest.text(text, { sourceTimestamp: new Date(at) })).done()
})
afterAll(() => engram.close())

describe('time in the library', () => {
  it('asOf on search and on the graph operations', async () => {
    const snippets = async (asOf?: Date) =>
      (
        await engram.search('Where does Alice live?', {
          channels: ['events'],
          ...(asOf ? { asOf } : {}),
        })
      ).hits.map((h) => h.snippet)
    expect((await snippets(new Date('2021-06-01'))).join(' ')).toContain('Paris')
    expect((await snippets(new Date('2021-06-01'))).join(' ')).not.toContain('Berlin')
    expect((await snippets()).join(' ')).toContain('Berlin')
    expect((await snippets()).join(' ')).not.toContain('Paris')
    const status = async (asOf?: string) =>
      (await engram.graph.entityStatus('Alice', asOf ? { asOf } : {})).relationships
        .map(([, other]) => other.name)
        .join(' ')
    expect(await status('2021-06-01')).toContain('Paris')
    expect(await status('2021-06-01')).not.toContain('Berlin')
  })

  it("a further verb's fact is ended as any other (docs/local-extractor.md)", async () => {
    // "works at Airbus" is an edge of the employer slot; "joined Siemens" ends it.
    for (const [text, at] of [
      ['Bob Martin lives in Lyon and works at Airbus.', '2021-03-01T00:00:00Z'],
      ['In 2024 Bob Martin moved to Toulouse and joined Siemens.', '2024-06-01T00:00:00Z'],
    ] as const)
      await (await engram.ingest.text(text, { sourceTimestamp: new Date(at) })).done()
    const status = async (asOf?: string) =>
      (await engram.graph.entityStatus('Bob Martin', asOf ? { asOf } : {})).relationships
        .map(([, other]) => other.name)
        .join(' | ')
    expect(await status('2022-06-01')).toContain('Airbus')
    expect(await status('2022-06-01')).not.toContain('Siemens')
    expect(await status()).toContain('Siemens')
    expect(await status()).not.toContain('Airbus')
  })

  it('a bad asOf is a VALIDATION_ERROR', async () => {
    await expect(engram.search('x', { asOf: 'someday' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    })
  })
})
