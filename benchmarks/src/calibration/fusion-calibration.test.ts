import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FUSION_CALIBRATIONS } from '@engram/core'
import { describe, expect, it } from 'vitest'
import { resultsDir } from '../paths.js'
import { fusionGrid, type CalibrationSet } from './fusion-grid.js'
import type { CalibrationReport } from './render-fusion-calibration.js'

describe('fusion calibration', () => {
  it("the engine's table holds what the last --calibrate-fusion run chose", () => {
    const path = join(resultsDir, 'fusion-calibration.json')
    expect(existsSync(path)).toBe(true)
    const report = JSON.parse(readFileSync(path, 'utf8')) as CalibrationReport
    expect(FUSION_CALIBRATIONS[report.embedder]).toEqual(report.chosen)
    expect(report.rows).toContainEqual(
      expect.objectContaining({
        normalization: report.chosen.normalization,
        denseShare: report.chosen.denseShare,
      }),
    )
  })

  it('ranks grid rows by the worst relative gain over BM25 across the sets', () => {
    // One query, two relevant documents: BM25 finds r1 at rank 3, dense finds it first.
    const lists = [
      {
        name: 'bm25',
        signal: 'bm25' as const,
        items: [
          { id: 'x', score: 3 },
          { id: 'y', score: 2.9 },
          { id: 'r1', score: 2.8 },
        ],
      },
      {
        name: 'dense',
        signal: 'dense' as const,
        items: [
          { id: 'r1', score: 0.9 },
          { id: 'd1', score: 0.2 },
          { id: 'd2', score: 0.15 },
          { id: 'd3', score: 0.1 },
        ],
      },
    ]
    const set: CalibrationSet = {
      name: 's',
      metric: 'R@1',
      depth: 3,
      lists: new Map([['q', lists]]),
      qrels: new Map([['q', new Map([['r1', 1]])]]),
    }
    const { bm25, rows, chosen } = fusionGrid([set])
    expect(bm25.s).toBe(0)
    // r1 passes x when share x (dense r1) > (1 - share) x (bm25 x - bm25 r1), each list normalised
    // with an absent id one mean gap below its lowest: min-max 1 vs 2/3 -> share > 0.4, z-score 3.265
    // vs 2.449 -> > 0.43, dbsf .787 vs .408 -> > 0.34: dbsf at 0.35 is the smallest share.
    expect(rows[0]!.scores.s).toBe(1)
    expect(rows[0]).toMatchObject({ normalization: 'dbsf', denseShare: 0.35 })
    expect(rows[0]!.worstGain).toBe(1)
    expect(rows.at(-1)!.scores.s).toBe(0)
    // One query: no spread, so the chosen row is the smallest share that scores as the top one.
    expect(chosen).toMatchObject({ normalization: 'dbsf', denseShare: 0.35 })
  })
})
