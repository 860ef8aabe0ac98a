import { describe, expect, it } from 'vitest'
import { abbreviates } from './abbreviations.js'

describe('abbreviations (Schwartz & Hearst)', () => {
  it('matches a short form whose letters run through the long form in order', () => {
    expect(abbreviates('ELAM', 'Escuela Latinoamericana de Medicina')).toBe(true)
    expect(abbreviates('CIA', 'Central Intelligence Agency')).toBe(true)
    expect(abbreviates('OVPS', 'Oberelbische Verkehrsgesellschaft Pirna Sebnitz mbH')).toBe(true)
    expect(abbreviates('LKAB', 'Luossavaara-Kiirunavaara Aktiebolag')).toBe(true)
    expect(abbreviates('NAVFORGER', 'United States Naval Forces Germany')).toBe(true)
  })

  it('needs the first letter at the start of a word, and every letter in order', () => {
    // "G" of "GFI" would only be found inside "Agency".
    expect(abbreviates('GFI', 'Central Intelligence Agency')).toBe(false)
    expect(abbreviates('AIC', 'Central Intelligence Agency')).toBe(false)
    expect(abbreviates('XYZ', 'Central Intelligence Agency')).toBe(false)
  })

  it('takes no lower-case word, no single letter and no one-word or overlong long form', () => {
    expect(abbreviates('born', 'Tom Hanks')).toBe(false)
    expect(abbreviates('T', 'Tom Hanks')).toBe(false)
    expect(abbreviates('TH', 'Hanks')).toBe(false)
    expect(abbreviates('AB', 'Alpha Beta Gamma Delta Epsilon Zeta')).toBe(false)
  })
})
