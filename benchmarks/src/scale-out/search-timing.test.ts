import { describe, expect, it } from 'vitest'
import { alternate, searchPath } from './search-timing.js'

describe('search timing helpers', () => {
  it('alternates the sides round by round', () => {
    expect(alternate(['sqlite', 'postgres'], 3)).toEqual([
      'sqlite',
      'postgres',
      'sqlite',
      'postgres',
      'sqlite',
      'postgres',
    ])
    expect(alternate(['a'], 0)).toEqual([])
  })

  it("sends the latency suite's search request", () => {
    expect(searchPath('0-dimensional biomaterials & β cells')).toBe(
      '/retrieve/search?query=0-dimensional%20biomaterials%20%26%20%CE%B2%20cells&k=10',
    )
  })
})
