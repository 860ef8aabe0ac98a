import { describe, expect, it } from 'vitest'
import { chooseBm25, type TuneRow } from './tune-bm25.js'

const row = (
  analysis: string,
  variant: TuneRow['setting']['variant'],
  k1: number,
  b: number,
  train: number,
  locomo: number,
  musique: number,
): TuneRow => ({
  setting: { analysis, variant, k1, b },
  train,
  dev: { 'locomo-dev': locomo, 'musique-100': musique },
})

describe('chooseBm25', () => {
  it('takes the best development mean among train ties that do not lose on development sets', () => {
    const rows = [
      row('x', 'bm25l', 2, 0.6, 0.7114, 0.5, 0.9), // best train and dev mean, worse LoCoMo than the baseline
      row('x', 'bm25+', 2, 0.5, 0.711, 0.62, 0.52), // tied on train, best dev mean
      row('x', 'atire', 1, 0.5, 0.7106, 0.6, 0.51),
      row('x', 'lucene', 1, 0.5, 0.7, 0.7, 0.7), // best dev, but not tied on train
      row('lucene-stop', 'lucene', 0.9, 0.4, 0.69, 0.57, 0.49), // the baseline
    ]
    const { chosen, baseline } = chooseBm25(rows)
    expect(chosen).toBe(rows[1])
    expect(baseline).toBe(rows[4])
  })
})
