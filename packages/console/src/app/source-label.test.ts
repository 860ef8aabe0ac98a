import { describe, expect, it } from 'vitest'
import { countSummary, hitSource, sourceLabel } from './source-label.js'

const counts = {
  passages: 0,
  entities: 0,
  events: 0,
  relationships: 0,
  observations: 0,
  structured: 0,
}

describe('sourceLabel', () => {
  it('is the title, else the file name, else the id', () => {
    expect(sourceLabel({ source_id: 's', title: 'Diary', filename: 'd.md' })).toBe('Diary')
    expect(sourceLabel({ source_id: 's', title: '  ', filename: 'd.md' })).toBe('d.md')
    expect(sourceLabel({ source_id: 's', title: '', filename: '' })).toBe('s')
  })
})

describe('hitSource', () => {
  it('reads the source id and its label from extras', () => {
    expect(hitSource({ extras: { source_id: 'docs/a.md', filename: 'a.md' } })).toEqual({
      id: 'docs/a.md',
      label: 'a.md',
    })
    expect(hitSource({ extras: { source_id: 'x', title: 'Notes', filename: 'n.txt' } })).toEqual({
      id: 'x',
      label: 'Notes',
    })
    expect(hitSource({ extras: { source_id: 'x' } })).toEqual({ id: 'x', label: 'x' })
  })

  it('is null for a hit without a source, or a non-string one', () => {
    expect(hitSource({ extras: {} })).toBeNull()
    expect(hitSource({ extras: { source_id: '' } })).toBeNull()
    expect(hitSource({ extras: { source_id: 7 } })).toBeNull()
  })
})

describe('countSummary', () => {
  it('always names passages, and the other non-zero counts in the server order', () => {
    expect(countSummary(counts)).toBe('0 passages')
    expect(countSummary({ ...counts, passages: 1, relationships: 2, entities: 1 })).toBe(
      '1 passage · 1 entity · 2 relationships',
    )
    expect(countSummary({ ...counts, passages: 3, entities: 4, structured: 1 })).toBe(
      '3 passages · 4 entities · 1 structured record',
    )
  })
})
