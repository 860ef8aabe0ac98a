import { expect } from 'vitest'
import { EngramError } from '../../src/errors.js'

/**
 * The error `call` throws or rejects with, which must be an EngramError (never a TypeError or another
 * foreign error); fails the test when `call` succeeds.
 */
export async function engramFailure(call: () => unknown): Promise<EngramError> {
  try {
    await call()
  } catch (error) {
    expect(error).toBeInstanceOf(EngramError)
    return error as EngramError
  }
  throw new Error('expected the call to fail')
}
