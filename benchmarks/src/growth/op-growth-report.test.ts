import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resultsDir } from '../paths.js'
import { growthExponent, growthVerdict, opGrowthReport } from './op-growth-report.js'
import type { GrowthStep, OpGrowthResult } from './op-growth-result.js'

const env = { cpu: 'x', cores: 2, memoryGb: 1, node: 'v20', os: 'linux', date: 'd', load1: 1 }

function step(entities: number, p50: (n: number) => number): GrowthStep {
  return {
    target: entities,
    entities,
    relationships: entities,
    passages: 0,
    observations: 0,
    changelog: 0,
    sources: 0,
    growMs: 1000,
    rssMb: 100,
    ops: [
      {
        name: 'scan',
        shape: 'GET /scan',
        count: 5,
        firstMs: 1,
        p50: p50(entities),
        p99: 1,
        mean: 1,
        meanBytes: 100,
      },
      {
        name: 'lookup',
        shape: 'GET /one',
        count: 5,
        firstMs: 1,
        p50: 2,
        p99: 3,
        mean: 2,
        meanBytes: 2048,
      },
    ],
  }
}

describe('growthExponent', () => {
  it('is 1 for a linear cost, 0 for a flat one, 2 for a quadratic one', () => {
    const xs = [1000, 3000, 10_000, 30_000, 100_000]
    expect(growthExponent(xs.map((x) => ({ x, y: x / 100 })))).toBeCloseTo(1, 6)
    expect(growthExponent(xs.map((x) => ({ x, y: 4 })))).toBeCloseTo(0, 6)
    expect(growthExponent(xs.map((x) => ({ x, y: x * x })))).toBeCloseTo(2, 6)
    expect(growthExponent([{ x: 1000, y: 1 }])).toBeNull()
  })

  it('names the class', () => {
    expect(growthVerdict(1)).toBe('LINEAR')
    expect(growthVerdict(1.5)).toBe('WORSE THAN LINEAR')
    expect(growthVerdict(0.5)).toBe('growing')
    expect(growthVerdict(0.05)).toBe('flat')
  })
})

describe('opGrowthReport', () => {
  it('puts p50 / p99 per size and the verdict per operation', () => {
    const result: OpGrowthResult = {
      command: 'npm run bench -- --op-growth',
      environment: env,
      wallMs: 60_000,
      steps: [1000, 10_000, 100_000].map((n) => step(n, (e) => e / 1000)),
    }
    const md = opGrowthReport(result)
    expect(md).toMatch(
      /\| scan \| 1.00 \/ 1.00 \| 10.00 \/ 1.00 \| 100 \/ 1.00 \| 100.0x \| 1.00 \| LINEAR \|/,
    )
    expect(md).toMatch(/\| lookup \| 2.00 \/ 3.00 .*\| 1.0x \| 0.00 \| flat \|/)
    expect(md).toMatch(/\| lookup \| 2.0 \| 2.0 \| 2.0 \|/)
  })

  it('renders the saved run as committed', () => {
    const data = join(resultsDir, 'data', 'op-growth.json')
    if (!existsSync(data)) return
    const saved = JSON.parse(readFileSync(data, 'utf8')) as OpGrowthResult
    expect(readFileSync(join(resultsDir, 'op-growth.md'), 'utf8')).toBe(opGrowthReport(saved))
  })
})
