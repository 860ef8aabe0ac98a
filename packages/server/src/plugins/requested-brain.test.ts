import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { EngramError } from '@engram/core'
import { requestedBrain } from './auth.js'

const request = (body: unknown, query: Record<string, unknown> = {}) =>
  ({ headers: {}, query, body }) as unknown as FastifyRequest

/** A nested array built without recursion (JSON.parse of a deep literal would do as well). */
function deepArray(depth: number): unknown[] {
  const root: unknown[] = []
  let current = root
  for (let i = 1; i < depth; i++) {
    const next: unknown[] = []
    current.push(next)
    current = next
  }
  return root
}

function rejection(run: () => unknown): EngramError {
  try {
    run()
  } catch (error) {
    if (error instanceof EngramError) return error
    throw error
  }
  throw new Error('expected a rejection')
}

describe('requestedBrain with a brain_id that is not a string', () => {
  it('rejects a 100,000-deep array with a 422, without rendering it (no stack overflow)', () => {
    const error = rejection(() => requestedBrain(request({ brain_id: deepArray(100_000) })))
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.status).toBe(422)
    expect(error.detail).toEqual([expect.objectContaining({ loc: ['body', 'brain_id'] })])
  })

  it('rejects objects, numbers and nested arrays in the query as well', () => {
    for (const value of [{ a: deepArray(10_000) }, 42, true, [deepArray(10_000)]]) {
      expect(rejection(() => requestedBrain(request({ brain_id: value }))).status).toBe(422)
      expect(rejection(() => requestedBrain(request(null, { brain_id: value }))).status).toBe(422)
    }
  })

  it('still selects a valid brain id', () => {
    expect(requestedBrain(request({ brain_id: ' notes ' }))).toBe('notes')
  })
})
