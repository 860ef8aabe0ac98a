import { describe, expect, it } from 'vitest'
import { evaluateByCategory } from './evaluate-by-category.js'
import type { Hit } from './ranking.js'

const hits = (...ids: string[]): Hit[] => ids.map((id, i) => ({ id, score: 10 - i }))

describe('evaluateByCategory', () => {
  const qrels = new Map([
    ['q1', new Map([['a', 1]])],
    ['q2', new Map([['b', 1]])],
    ['q3', new Map([['c', 1]])],
    ['q4', new Map([['d', 1]])],
  ])
  const categoryOf = new Map([
    ['q1', '2'],
    ['q2', '2'],
    ['q3', '10'],
  ])

  it('scores each category over its own queries only, in numeric order', () => {
    const run = new Map([
      ['q1', hits('a', 'x')],
      ['q2', hits('x', 'y')],
      ['q3', hits('x', 'c')],
      ['q4', hits('d')],
    ])
    const by = evaluateByCategory(run, qrels, categoryOf, ['R@1', 'R@2'])
    expect(Object.keys(by)).toEqual(['2', '10'])
    expect(by['2']).toEqual({ queries: 2, metrics: { 'R@1': 0.5, 'R@2': 0.5 } })
    expect(by['10']).toEqual({ queries: 1, metrics: { 'R@1': 0, 'R@2': 1 } })
  })

  it('counts a query missing from the run as 0, as the whole run does', () => {
    const by = evaluateByCategory(new Map([['q1', hits('a')]]), qrels, categoryOf, ['R@1'])
    expect(by['2']!.metrics['R@1']).toBe(0.5)
  })

  it('is empty when no query has a category', () => {
    expect(evaluateByCategory(new Map(), qrels, new Map(), ['R@1'])).toEqual({})
  })
})
