import { describe, expect, it } from 'vitest'
import { labelColor, UNLABELLED_COLOR } from './label-palette.js'

describe('labelColor', () => {
  it('gives the common labels distinct colours, whatever their case', () => {
    const common = ['Person', 'Organization', 'Place', 'Event', 'Concept', 'Product', 'Project']
    expect(new Set(common.map(labelColor)).size).toBe(common.length)
    expect(labelColor('PERSON')).toBe(labelColor('person'))
  })

  it('is stable for other labels and never reuses a reserved colour for them', () => {
    const reserved = new Set(
      ['Person', 'Organization', 'Place', 'Event', 'Concept', 'Product', 'Project'].map(labelColor),
    )
    for (const label of ['Gene', 'Protein', 'Ticket', 'Invoice']) {
      expect(labelColor(label)).toBe(labelColor(label.toUpperCase()))
      expect(reserved.has(labelColor(label))).toBe(false)
    }
    expect(labelColor(undefined)).toBe(UNLABELLED_COLOR)
  })
})
