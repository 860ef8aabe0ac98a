import { describe, expect, it } from 'vitest'
import { EngramError } from '@engram/core'
import { postgresStorage } from './postgres-storage.js'

// Option checks only: they need no database (the adapter connects at `open()`, which the
// postgres adapter's own suite covers).
describe('postgresStorage', () => {
  it('builds the postgres adapter from a connection string', () => {
    expect(postgresStorage({ connectionString: 'postgres://u@127.0.0.1:1/engram' }).name).toBe(
      'postgres',
    )
  })

  it.each([
    [undefined, 'connectionString'],
    [{ connectionString: ' ' }, 'connectionString'],
    [{ url: 'postgres://x' }, 'url'],
    [{ connectionString: 'postgres://x', pool: {} }, 'pool'],
  ])('refuses %j with a VALIDATION_ERROR naming %s', (options, field) => {
    let error: unknown
    try {
      postgresStorage(options as never)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', detail: [{ loc: ['options', field] }] })
  })
})
