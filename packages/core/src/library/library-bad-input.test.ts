import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EngramError } from '../errors.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

let engram: EngramLibrary

beforeAll(async () => {
  engram = await testEngram()
  await (await engram.ingest.text('Emily organized the AI Ethics Meetup in London.')).done()
})
afterAll(() => engram.close())

const cyclic: Record<string, unknown> = {}
cyclic.self = cyclic
/** Values a caller may pass by mistake, in any position. */
const GARBAGE: [string, unknown][] = [
  ['null', null],
  ['0', 0],
  ['NaN', Number.NaN],
  ['an empty string', ''],
  ['a long string', 'x'.repeat(20_000)],
  ['an array', ['a']],
  ['a function', () => 1],
  ['a symbol', Symbol('s')],
  ['a bigint', 10n],
  ['an invalid Date', new Date('x')],
  ['an object without prototype', Object.create(null) as object],
  ['a cycle', cyclic],
  ['an object of wrong fields', { limit: 'ten', k: {}, name: 5, uuid: [] }],
]

/** Every method of the library handle, by path (`graph.neighbors`), except `close`. */
function methods(): [string, (...args: unknown[]) => unknown][] {
  const out: [string, (...args: unknown[]) => unknown][] = []
  const walk = (prefix: string, value: Record<string, unknown>) => {
    for (const [key, member] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`
      if (typeof member === 'function' && key !== 'close')
        out.push([path, member as (...args: unknown[]) => unknown])
      else if (member !== null && typeof member === 'object' && key !== 'engine')
        walk(path, member as Record<string, unknown>)
    }
  }
  walk('', engram as unknown as Record<string, unknown>)
  return out
}

/** A first argument each method accepts, so that the second one is what is tested. */
const VALID_FIRST: Record<string, unknown> = {
  'ingest.json': { a: 1 },
  'ingest.structured': [{ object: { name: 'Lamp', type: 'PRODUCT' } }],
  'model.createEntity': { name: 'Lamp' },
  'model.updateEntity': { uuid: 'ghost' },
  'model.createRelationship': { subjectUuid: 'a', objectUuid: 'b', predicateName: 'X' },
  'model.updateRelationship': { uuid: 'ghost' },
}

/** Runs a call; a failure must be an EngramError (a success is fine: some garbage is harmless). */
async function outcome(call: () => unknown): Promise<string> {
  try {
    const result = await call()
    // A handle of an ingestion that was accepted: wait for it so the engine is idle afterwards.
    if (result !== null && typeof result === 'object' && 'done' in result)
      await (result as { done(): Promise<unknown> }).done().catch(() => undefined)
    return 'ok'
  } catch (error) {
    if (error instanceof EngramError) return error.code
    return `${(error as Error)?.name}: ${(error as Error)?.message}`
  }
}

describe('bad input', () => {
  it('is an EngramError with its own code from every method, whatever the argument', async () => {
    const all = methods()
    expect(all.length).toBeGreaterThan(40)
    const foreign: string[] = []
    for (const [path, method] of all) {
      for (const [name, value] of GARBAGE) {
        for (const args of [[value], [VALID_FIRST[path] ?? 'Emily', value]]) {
          const result = await outcome(() => method(...args))
          // INTERNAL_ERROR would be a TypeError the library wrapped: bad input must be named.
          if (!/^(ok|[A-Z_]+)$/.test(result) || result === 'INTERNAL_ERROR')
            foreign.push(`${path}(${args.length === 1 ? name : `valid, ${name}`}): ${result}`)
        }
      }
    }
    expect(foreign).toEqual([])
  })
})
