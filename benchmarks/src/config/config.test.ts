import { describe, expect, it } from 'vitest'
import { parseBenchConfig } from './bench-config.js'
import { judge, worstVerdict } from './verdict.js'

const BASE = `
dataset: scifact
condition: bm25
engine: { channels: [passages], fusion: null }
metrics: [nDCG@10, R@100]
index_stats: { documents: 5183 }
peers: [minisearch]
expected:
  engram: { nDCG@10: 0.6789 }
`

describe('parseBenchConfig', () => {
  it('takes an extraction config: its own measures, no engine', () => {
    const c = parseBenchConfig(
      'redocred-dev.extraction',
      'kind: extraction\ndataset: redocred-dev\nmetrics: [typed-F1, pair-R]\nexpected: { engram: { pair-R: 0.2 } }\n',
    )
    expect([c.kind, c.metrics, c.expected.engram]).toEqual([
      'extraction',
      ['typed-F1', 'pair-R'],
      { 'pair-R': 0.2 },
    ])
    expect(c.wrap).toBeNull()
    const wrapped = parseBenchConfig(
      'redocred-dev.extraction-wrapped',
      'kind: extraction\ndataset: redocred-dev\nmetrics: [pair-R]\nwrap: 72\n',
    )
    expect(wrapped.wrap).toBe(72)
    expect(() => parseBenchConfig('scifact.bm25', `${BASE}wrap: 72\n`)).toThrow(/wrap/)
    expect(() =>
      parseBenchConfig(
        'redocred-dev.extraction',
        'kind: extraction\ndataset: redocred-dev\nmetrics: [pair-R]\nwrap: 5\n',
      ),
    ).toThrow(/wrap/)
    expect(parseBenchConfig('scifact.bm25', BASE).kind).toBe('retrieval')
    expect(() => parseBenchConfig('scifact.bm25', `${BASE}kind: graph\n`)).toThrow(/kind/)
  })

  it('reads a config and derives the retrieval depth from the metrics', () => {
    const c = parseBenchConfig('scifact.bm25', BASE)
    expect(c.dataset).toBe('scifact')
    expect(c.depth).toBe(100)
    expect(c.indexStats).toEqual({ documents: 5183 })
    expect(c.expected.engram).toEqual({ 'nDCG@10': 0.6789 })
    expect(c.pending).toBeNull()
    expect(c.gains).toBe('graded')
  })

  it('keeps the pending reason', () => {
    const c = parseBenchConfig('scifact.bm25', `${BASE}pending: core BM25 index\n`)
    expect(c.pending).toBe('core BM25 index')
  })

  it('rejects mistakes instead of running the wrong thing', () => {
    expect(() => parseBenchConfig('scifact.dense', BASE)).toThrow(/file name/)
    expect(() => parseBenchConfig('scifact.bm25', `${BASE}expectd: {}\n`)).toThrow(
      /unknown key 'expectd'/,
    )
    expect(() => parseBenchConfig('scifact.bm25', BASE.replace('R@100]', 'P@5]'))).toThrow(
      /unknown metric/,
    )
    expect(() => parseBenchConfig('scifact.bm25', `${BASE}depth: 10\n`)).toThrow(/depth/)
    expect(() =>
      parseBenchConfig('scifact.bm25', BASE.replace('{ nDCG@10: 0.6789 }', '{ MRR: 0.5 }')),
    ).toThrow(/not in metrics/)
  })
})

describe('verdicts', () => {
  it('is OK when equal to 4 decimals, OKish within 0.0005, FAIL beyond, NEW without expectation', () => {
    expect(judge(0.67894, 0.6789)).toBe('OK')
    expect(judge(0.67886, 0.6789)).toBe('OK')
    expect(judge(0.6793, 0.6789)).toBe('OKish')
    expect(judge(0.6784, 0.6789)).toBe('OKish')
    expect(judge(0.6795, 0.6789)).toBe('FAIL')
    expect(judge(Number.NaN, 0.6789)).toBe('FAIL')
    expect(judge(0.5, undefined)).toBe('NEW')
  })

  it('takes the worst', () => {
    expect(worstVerdict(['OK', 'OKish'])).toBe('OKish')
    expect(worstVerdict(['OKish', 'NEW', 'FAIL', 'PENDING'])).toBe('FAIL')
    expect(worstVerdict([])).toBe('OK')
  })
})
