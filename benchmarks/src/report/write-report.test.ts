import { describe, expect, it } from 'vitest'
import { datasetMetrics } from './write-report.js'

describe('datasetMetrics', () => {
  it("unions the conditions' metrics, kinds in first-seen order, each by k", () => {
    expect(
      datasetMetrics([
        ['R@5', 'R@10', 'R@25'],
        ['R@5', 'R@8', 'R@10', 'R@25', 'R@all'],
      ]),
    ).toEqual(['R@5', 'R@8', 'R@10', 'R@25', 'R@all'])
    expect(
      datasetMetrics([
        ['nDCG@10', 'R@100'],
        ['MRR@10', 'nDCG@10'],
      ]),
    ).toEqual(['nDCG@10', 'R@100', 'MRR@10'])
  })
})
