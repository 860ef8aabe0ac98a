import { describe, expect, it } from 'vitest'
import type { LatencySummary } from '../metrics/percentiles.js'
import { brainDocs, manyBrainId } from './many-brains-corpus.js'
import { manyBrainsReport, peakOver } from './many-brains-report.js'
import type { ManyBrainsServe, SweepResult } from './serve-many-brains.js'

const latency = (p50: number): LatencySummary => ({
  count: 100,
  p50,
  p95: p50 * 2,
  p99: p50 * 3,
  mean: p50 * 1.2,
})

const sweep = (label: string, peakRssMb: number, origin: string): SweepResult => ({
  label,
  cold: latency(60),
  build: { snapshotLoadMs: 5, lexicalMs: 40, vectorRebuildMs: 0 },
  origins: { [origin]: 100 },
  stillLoaded: 0,
  evictions: 100,
  peakRssMb,
  peakSource: 'VmHWM',
  peakEstimatedMb: 520,
  end: { rssMb: 900, estimatedMb: 509, loadedBrains: 50 },
  wallS: 7,
  load1: 2.5,
})

const serve = (peaks: [number, number]): ManyBrainsServe => ({
  budgetMb: 512,
  baselineRssMb: 400,
  beforeEmbedderRssMb: 220,
  sweeps: [sweep('sweep 1', peaks[0], 'storage'), sweep('sweep 2', peaks[1], 'snapshot')],
  warm: { latency: latency(0.5), brains: 20, evictions: 0 },
  warnings: [],
})

describe('many-brains report', () => {
  it('states the peak over baseline + budget for each allocator setting', () => {
    expect(peakOver(serve([950, 1100]))).toBe(188)
    const report = manyBrainsReport({
      command: 'npm run bench -- --many-brains 100,200',
      environment: {
        cpu: 'test',
        cores: 2,
        memoryGb: 24,
        node: 'v20',
        os: 'linux',
        date: '2026-11-24T00:00:00.000Z',
      },
      shape: { brains: 100, passages: 200 },
      embedder: { name: 'use-lite', dimension: 512 },
      seed: { ms: 3000, dataBytes: 2 ** 30 },
      serves: [
        { allocator: 'glibc malloc defaults', serve: serve([950, 1100]) },
        { allocator: 'MALLOC_MMAP_THRESHOLD_=131072', serve: serve([940, 950]) },
      ],
      calibration: [
        {
          allocator: 'glibc malloc defaults',
          point: {
            passages: 200,
            brains: 40,
            fresh: { estimateMb: 400, heapMb: 200, rssMb: 300 },
            churned: { estimateMb: 400, heapMb: 200, rssMb: 400 },
          },
        },
      ],
    })
    expect(report).toContain('Regenerate with `npm run bench -- --many-brains 100,200`')
    expect(report).toContain(
      '| **peak RSS over baseline + budget** | **+188** (37% of the budget) | **+38** (7% of the budget) |',
    )
    expect(report).toContain(
      '| glibc malloc defaults, sweep 1 | 100 | 60.00 | 120 | 180 | 72.00 | storage 100 |',
    )
    expect(report).toContain(
      '| 200 | 40 | glibc malloc defaults | fresh process | 10.00 | 5.00 | 7.50 | 2.00 | 1.33 |',
    )
    expect(report).toContain('not through ingestion tasks')
  })
})

describe('many-brains corpus', () => {
  it('gives each brain its own window of documents, wrapping around the corpus', () => {
    const docs = Array.from({ length: 5183 }, (_, i) => ({ id: `d${i}`, title: '', text: `t${i}` }))
    expect(brainDocs(docs, 0, 3).map((d) => d.id)).toEqual(['d0', 'd1', 'd2'])
    expect(brainDocs(docs, 1, 2).map((d) => d.id)).toEqual(['d997', 'd998'])
    expect(brainDocs(docs.slice(0, 10), 1, 5).map((d) => d.id)).toEqual([
      'd7',
      'd8',
      'd9',
      'd0',
      'd1',
    ])
    expect(() => brainDocs(docs, 0, 6000)).toThrow(/SciFact has 5183/)
    expect(manyBrainId(42)).toBe('mb00042')
  })
})
