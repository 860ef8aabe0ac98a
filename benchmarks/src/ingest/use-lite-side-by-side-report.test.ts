import { describe, expect, it } from 'vitest'
import { sideBySideReport, type SideBySideResult } from './use-lite-side-by-side-report.js'

const result = (
  server: SideBySideResult['server'],
  wallMs: number,
  vector: number[],
): SideBySideResult => ({
  root: '/tmp/tree',
  ...(server === undefined ? {} : { server }),
  runs: [
    {
      label: 'one task per turn',
      passages: 200,
      embedded: 780,
      wallMs,
      cpuMs: 3000,
      failed: 0,
      load1: 1,
    },
  ],
  alone: { texts: 2, ms: wallMs / 10, cpuMs: 10, load1: 1 },
  texts: ['a', 'b'],
  vectors: [vector, vector],
})

describe('sideBySideReport', () => {
  it("names each tree's task settings and pairs runs by label", () => {
    const table = sideBySideReport(
      [result({ workers: 5, workersPerBrain: 4 }, 8_000, [1, 0])],
      [result({ workers: 9, workersPerBrain: 8 }, 1_000, [0.6, 0.8])],
    )
    expect(table).toContain(
      "| tasks at once / of one brain (each tree's server defaults) | 5 / 4 | 9 / 8 |",
    )
    expect(table).toContain(
      '| pipeline: one task per turn, passages/s (200 / 200 passages; texts embedded 780 / 780) | 25.0 | 200.0 | 8.00x |',
    )
    expect(table).toContain('0.6000000')
  })

  it('says so when an older result file does not record its settings', () => {
    const table = sideBySideReport(
      [result(undefined, 2_000, [1, 0])],
      [result(undefined, 1_000, [1, 0])],
    )
    expect(table).toContain('| ? | ? |')
  })
})
