import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

/** The library's expiry options (docs/time.md, Expiry): the same rules as REST, named as options. */
let engram: EngramLibrary

beforeAll(async () => {
  engram = await testEngram()
})
afterAll(async () => {
  await engram.close()
})

const expiryOf = async (sourceId: string) =>
  (await engram.sources({ limit: 100 })).items.find((s) => s.id === sourceId)?.expiresAt

describe('ingest expiry options', () => {
  it('stores expiresAt (a Date or a date-time) or ttl on the source', async () => {
    const at = new Date(Date.UTC(2031, 5, 1))
    await (
      await engram.ingest.text('A note that ends.', { sourceId: 'dated', expiresAt: at })
    ).done()
    expect(await expiryOf('dated')).toBe('2031-06-01T00:00:00.000Z')
    await (
      await engram.ingest.json({ a: 1 }, { sourceId: 'zoned', expiresAt: '2031-06-01T02:00+02:00' })
    ).done()
    expect(await expiryOf('zoned')).toBe('2031-06-01T00:00:00.000Z')
    const before = Date.now()
    await (
      await engram.ingest.structured([{ object: { name: 'Ghent', type: 'CITY' } }], {
        sourceId: 'lived',
        ttl: 120,
      })
    ).done()
    const expires = Date.parse((await expiryOf('lived'))!)
    expect(expires).toBeGreaterThanOrEqual(before + 120_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 120_000)
    await (await engram.ingest.text('No end.', { sourceId: 'kept' })).done()
    expect(await expiryOf('kept')).toBeNull()
  })

  it('refuses both at once (400) and bad values (422), naming the options', async () => {
    const both = await engramFailure(() =>
      engram.ingest.text('x', { expiresAt: '2031-01-01T00:00:00Z', ttl: 5 }),
    )
    expect(both).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 })
    expect(JSON.stringify(both)).toContain('expiresAt')
    const ttl = await engramFailure(() => engram.ingest.file(new Uint8Array([65]), { ttl: -1 }))
    expect(ttl).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 })
    expect(JSON.stringify(ttl)).toContain('"options","ttl"')
    const date = await engramFailure(() => engram.ingest.text('x', { expiresAt: '2031-01-01' }))
    expect(date).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 })
  })
})
