import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import { StorageUnavailableError } from '@engram/core'
import { guardPool } from './postgres-guarded-pool.js'

/** What `pg_terminate_backend` makes a query on the ended session throw. */
const ended = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })

/** A pool of scripted clients: each `connect()` hands out the next; `query` fails as told. */
function scriptedPool(clients: ('dead' | 'live')[], poolQuery: () => Promise<unknown>) {
  const released: [string, boolean][] = []
  let next = 0
  const pool = {
    options: { max: 10 },
    query: poolQuery,
    async connect() {
      const state = clients[next++]
      if (state === undefined) throw new Error('no more clients')
      const name = `client ${next}`
      return {
        on() {},
        removeListener() {},
        async query(sql: string) {
          if (state === 'dead') throw ended()
          return { rows: [{ sql, name }] }
        },
        release(broken = false) {
          released.push([name, broken])
        },
      }
    },
  }
  return { pool: pool as unknown as pg.Pool, released }
}

describe('guardPool', () => {
  it('after a dropped connection, checks connections before use so the next query gets a live one', async () => {
    // The pool still holds a dead idle connection (client 1) it has not noticed, then opens client 2.
    const { pool, released } = scriptedPool(['dead', 'live'], () => Promise.reject(ended()))
    const guarded = guardPool(pool)
    await expect(guarded.query('SELECT 42')).rejects.toBeInstanceOf(StorageUnavailableError)
    const { rows } = await guarded.query<{ sql: string; name: string }>('SELECT 42')
    expect(rows).toEqual([{ sql: 'SELECT 42', name: 'client 2' }])
    // The dead one was closed, not pooled again; the live one went back to the pool.
    expect(released).toEqual([
      ['client 1', true],
      ['client 2', false],
    ])
  })

  it('checks nothing before any drop, and never retries the query itself', async () => {
    let calls = 0
    const { pool, released } = scriptedPool(['dead'], () => {
      calls++
      return Promise.resolve({ rows: [] })
    })
    const guarded = guardPool(pool)
    await guarded.query('SELECT 1')
    expect(calls).toBe(1)
    // A transaction's client is handed out unchecked, and a drop under it is thrown, not retried.
    const client = await guarded.connect()
    await expect(client.query('INSERT 1')).rejects.toBeInstanceOf(StorageUnavailableError)
    client.release(true)
    expect(released).toEqual([['client 1', true]])
  })
})
