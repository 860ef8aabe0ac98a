import { describe, expect, it } from 'vitest'
import { EngramError } from '@engram/client'
import { parseMetaFilter } from './meta-filter.js'

describe('parseMetaFilter', () => {
  it('is no filter when empty', () => {
    expect(parseMetaFilter('')).toBeUndefined()
    expect(parseMetaFilter('  \n')).toBeUndefined()
  })

  it('keeps the values typed', () => {
    expect(parseMetaFilter('{"project": "apollo", "n": 2, "draft": false}')).toEqual({
      project: 'apollo',
      n: 2,
      draft: false,
    })
  })

  it.each([
    ['{project: apollo}', 'The meta filter is not JSON'],
    ['["a"]', 'The meta filter must be a JSON object'],
    ['null', 'The meta filter must be a JSON object'],
    ['{"a": {"b": 1}}', 'The meta filter: the value of "a" must be a string, number or boolean'],
    ['{"a": null}', 'The meta filter: the value of "a" must be a string, number or boolean'],
  ])('refuses %s with a VALIDATION_ERROR', (text, message) => {
    let thrown: unknown
    try {
      parseMetaFilter(text)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(EngramError)
    expect((thrown as EngramError).code).toBe('VALIDATION_ERROR')
    expect((thrown as EngramError).message).toBe(message)
  })
})
