import { describe, expect, it } from 'vitest'
import type { ConfigResult, SystemResult } from '../run/run-types.js'
import { categoryName, categorySection, signed4 } from './category-report.js'

const system = (name: string, r10: Record<string, number>): SystemResult => ({
  name,
  label: name,
  role: name === 'engram' ? 'engram' : 'peer',
  status: 'measured',
  metrics: { 'R@10': 0.5 },
  byCategory: Object.fromEntries(
    Object.entries(r10).map(([c, v]) => [c, { queries: 3, metrics: { 'R@10': v } }]),
  ),
})

function locomoRun(systems: SystemResult[]): ConfigResult {
  return {
    config: 'locomo-dev.default',
    dataset: 'locomo-dev',
    condition: 'default',
    description: '',
    command: '',
    phases: ['ingest', 'verify', 'search'],
    environment: { cpu: 'x', cores: 2, memoryGb: 1, node: 'v20', os: 'linux', date: 'd', load1: 1 },
    corpus: { documents: 10, queries: 6, groups: 1 },
    notes: [],
    indexStatsVerdict: 'OK',
    verdict: 'OK',
    metrics: ['R@10'],
    systems,
  }
}

describe('category report', () => {
  it("names LoCoMo's categories and signs differences", () => {
    expect(categoryName('locomo-dev', '2')).toBe('2 temporal')
    expect(categoryName('scifact', '2')).toBe('2')
    expect(signed4(0.00012)).toBe('+0.0001')
    expect(signed4(-0.03)).toBe('-0.0300')
    expect(signed4(0.00001)).toBe('0.0000')
  })

  it('lists every category and system with the peer minus Engram', () => {
    const lines = categorySection(
      locomoRun([system('engram', { '1': 0.5, '2': 0.8 }), system('peer', { '1': 0.6, '2': 0.7 })]),
    ).join('\n')
    expect(lines).toContain('| 1 multi-hop | 3 | **engram default** | 0.5000 | - |')
    expect(lines).toContain('| 2 temporal | 3 | peer | 0.7000 | -0.1000 |')
  })

  it('is empty when no system has per-category numbers', () => {
    expect(
      categorySection(locomoRun([{ ...system('engram', {}), byCategory: undefined }])),
    ).toEqual([])
  })
})
