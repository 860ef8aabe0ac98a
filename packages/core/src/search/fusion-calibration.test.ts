import { describe, expect, it } from 'vitest'
import { NEUTRAL_FUSION } from '../builtins/fusions/convex-combination.js'
import type { FusionCalibration } from '../contracts/search-plugins.js'
import { fusionCalibrationFor } from './fusion-calibration.js'

const table: Record<string, FusionCalibration & { tunedOn: string[]; date: string }> = {
  'use-lite': {
    normalization: 'z-score',
    denseShare: 0.1,
    graphWeight: 0.4,
    tunedOn: ['scifact-train nDCG@10'],
    date: '2026-11-25',
  },
  none: { normalization: 'min-max', denseShare: 0, graphWeight: 0.3, tunedOn: [], date: '' },
}
const own: FusionCalibration = { normalization: 'dbsf', denseShare: 0.6, graphWeight: 0.5 }

describe('fusionCalibrationFor', () => {
  it("picks the table's row by the brain's embedder, without its provenance", () => {
    expect(fusionCalibrationFor('use-lite', { name: 'use-lite' }, table)).toEqual({
      normalization: 'z-score',
      denseShare: 0.1,
      graphWeight: 0.4,
    })
  })

  it("follows the brain's embedder, not the running one", () => {
    // A process running another model (carrying its own calibration) on a use-lite brain.
    expect(
      fusionCalibrationFor('use-lite', { name: 'openai:x', fusion: own }, table).denseShare,
    ).toBe(0.1)
    // The running model's own calibration applies to brains it built, before the table.
    expect(fusionCalibrationFor('openai:x', { name: 'openai:x', fusion: own }, table)).toBe(own)
    expect(fusionCalibrationFor('use-lite', { name: 'use-lite', fusion: own }, table)).toBe(own)
  })

  it('gives an embedder without calibration the neutral weights, and a brain without one `none`', () => {
    expect(fusionCalibrationFor('transformers:bge', { name: 'transformers:bge' }, table)).toBe(
      NEUTRAL_FUSION,
    )
    expect(fusionCalibrationFor(null, null, table).graphWeight).toBe(0.3)
    expect(fusionCalibrationFor(null, null, {})).toBe(NEUTRAL_FUSION)
  })
})
