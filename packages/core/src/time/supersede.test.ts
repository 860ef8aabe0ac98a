import { describe, expect, it } from 'vitest'
import { DEFAULT_SINGLE_VALUED, SingleValuedSlots, brainSingleValued } from './single-valued.js'
import { supersede, type SlotFact } from './supersede.js'
import { visible, windowOf } from './validity.js'

const fact = (
  id: string,
  objectUuid: string,
  year: number,
  extra: Partial<SlotFact> = {},
): SlotFact => ({
  id,
  objectUuid,
  validFrom: Date.UTC(year, 0, 1),
  created: Date.UTC(2030, 0, 1),
  future: false,
  manual: false,
  ...extra,
})

describe('supersede', () => {
  it('ends each fact where the next fact with another object begins, whatever the arrival order', () => {
    const facts = [fact('berlin', 'B', 2023), fact('paris', 'P', 2020), fact('rome', 'R', 2025)]
    const endings = supersede(facts)
    expect(endings.get('paris')).toEqual({ invalidAt: Date.UTC(2023, 0, 1), by: 'berlin' })
    expect(endings.get('berlin')).toEqual({ invalidAt: Date.UTC(2025, 0, 1), by: 'rome' })
    expect(endings.get('rome')).toBeNull()
  })

  it('a restatement continues the fact; a future fact and a hand-written end take no part', () => {
    const endings = supersede([
      fact('paris', 'P', 2020),
      fact('paris-again', 'P', 2021),
      fact('plan', 'B', 2022, { future: true }),
      fact('manual', 'M', 2019, { manual: true }),
    ])
    expect(endings.get('paris')).toBeNull()
    expect(endings.get('paris-again')).toBeNull()
    expect(endings.has('plan')).toBe(false)
    expect(endings.has('manual')).toBe(false)
  })

  it('of two facts that began at once, the one learned later wins', () => {
    const a = fact('a', 'A', 2020, { created: 1 })
    const b = fact('b', 'B', 2020, { created: 2 })
    expect(supersede([b, a]).get('a')).toEqual({ invalidAt: Date.UTC(2020, 0, 1), by: 'b' })
    expect(supersede([b, a]).get('b')).toBeNull()
  })
})

describe('single-valued slots', () => {
  const slots = new SingleValuedSlots(DEFAULT_SINGLE_VALUED)
  it('reads inflections and auxiliaries', () => {
    for (const p of ['LIVES', 'LIVED', 'MOVED', 'MOVED_TO', 'HAS_LIVED', 'RELOCATED', 'WILL_MOVE'])
      expect(slots.slotOf(p), p).toBe('residence')
    for (const p of ['WORKS', 'WORKS_FOR', 'JOINED', 'STARTED_WORKING', 'IS_EMPLOYED_BY'])
      expect(slots.slotOf(p), p).toBe('employer')
    expect(slots.slotOf('IS_MARRIED')).toBe('spouse')
    expect(slots.slotOf('LED')).toBe('head_of')
    for (const p of ['VISITED', 'LIKES', 'MET', 'MOVIE']) expect(slots.slotOf(p), p).toBeNull()
  })
  it('a brain replaces or switches off a slot', () => {
    const custom = new SingleValuedSlots(brainSingleValued({ residence: [], team: ['PLAY_FOR'] }))
    expect(custom.slotOf('LIVES')).toBeNull()
    expect(custom.slotOf('PLAYS_FOR')).toBe('team')
    expect(custom.slotOf('WORKS')).toBe('employer')
  })
})

describe('validity windows', () => {
  const t = (iso: string) => Date.parse(iso)
  const paris = windowOf({
    validAt: '2020-03-01T00:00:00Z',
    invalidAt: '2023-01-01T00:00:00Z',
    createdAt: '2024-01-01T00:00:00Z',
    expiredAt: '2024-06-01T00:00:00Z',
    deprecated: true,
  })
  const now = t('2025-01-01T00:00:00Z')
  it('as_of selects the fact whose window holds it', () => {
    expect(visible(paris, { asOf: t('2021-01-01') }, now)).toBe(true)
    expect(visible(paris, { asOf: t('2019-01-01') }, now)).toBe(false)
    expect(visible(paris, { asOf: t('2023-06-01') }, now)).toBe(false)
    expect(visible(paris, {}, now)).toBe(false)
  })
  it('known_at hides what was learned later and endings learned later', () => {
    expect(visible(paris, { knownAt: t('2023-12-01') }, now)).toBe(false)
    // In March 2024 the brain knew Paris and not yet that it had ended.
    expect(visible(paris, { knownAt: t('2024-03-01') }, now)).toBe(true)
    expect(visible(paris, { knownAt: t('2024-07-01') }, now)).toBe(false)
  })
  it('reads records written before windows existed', () => {
    expect(visible(windowOf({}), { asOf: 0 }, now)).toBe(true)
    expect(visible(windowOf({ properties: { invalid_at: true } }), {}, now)).toBe(false)
    expect(visible(windowOf({ properties: { invalid_at: '2030-01-01' } }), {}, now)).toBe(true)
    expect(visible(windowOf({ deprecated: true }), {}, now)).toBe(false)
  })
})
