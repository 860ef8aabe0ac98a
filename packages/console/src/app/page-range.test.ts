import { describe, expect, it } from 'vitest'
import { pageRange } from './page-range.js'

describe('pageRange', () => {
  it('reads first to last shown, of the total', () => {
    expect(pageRange(0, 20, 45)).toBe('1–20 of 45')
    expect(pageRange(40, 5, 45)).toBe('41–45 of 45')
  })

  it('names a single item once, and an empty page as 0', () => {
    expect(pageRange(0, 1, 1)).toBe('1 of 1')
    expect(pageRange(20, 0, 20)).toBe('0 of 20')
  })
})
