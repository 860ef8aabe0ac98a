import { describe, expect, it } from 'vitest'
import { formatScore, hitEntityUuid, signalRows } from './hit-signals.js'

describe('signalRows', () => {
  it('lists the named signals, then the plugins as plugin:<name>', () => {
    expect(signalRows({ bm25: 2.5, rrf: 0.016, plugin: { recency: 0.9 } })).toEqual([
      ['bm25', 2.5],
      ['rrf', 0.016],
      ['plugin:recency', 0.9],
    ])
    expect(signalRows({})).toEqual([])
  })
})

describe('hitEntityUuid', () => {
  it('is the node id of an entity hit and null for a passage', () => {
    expect(hitEntityUuid({ labels: ['PERSON'], node_id: 'e-1' })).toBe('e-1')
    expect(hitEntityUuid({ labels: ['PASSAGE'], node_id: 'doc-1' })).toBeNull()
  })
})

describe('formatScore', () => {
  it('rounds to four decimals', () => {
    expect(formatScore(0.0163934)).toBe('0.0164')
    expect(formatScore(3)).toBe('3')
  })
})
