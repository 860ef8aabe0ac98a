import { describe, expect, it } from 'vitest'
import { asOfParam, atOf, endOf, factState, factTime } from './fact-window.js'

const at = (iso: string) => Date.parse(iso)
const paris = {
  valid_at: '2020-03-01T00:00:00.000Z',
  invalid_at: '2023-01-01T00:00:00.000Z',
  expired_at: '2026-11-28T18:19:04.256Z',
  deprecated: true,
  properties: { invalidated_by: 'f00' },
}
const berlin = { valid_at: '2023-01-01T00:00:00.000Z', invalid_at: null, deprecated: false }

describe('factState', () => {
  it('ends a fact at its invalid_at, even one the list marks deprecated, and starts it at valid_at', () => {
    expect(factState(paris, at('2024-01-01'))).toBe('ended')
    expect(factState(paris, at('2023-01-01'))).toBe('ended')
    // As of 2021 the Paris fact held, whatever became of it since.
    expect(factState(paris, at('2021-06-01'))).toBe('valid')
    expect(factState(berlin, at('2021-06-01'))).toBe('future')
    expect(factState(berlin, at('2024-01-01'))).toBe('valid')
  })

  it('reads records written before windows: always valid, unless deprecated or ended by hand', () => {
    expect(factState({}, at('2024-01-01'))).toBe('valid')
    expect(factState({ valid_at: '', invalid_at: '' }, at('2024-01-01'))).toBe('valid')
    expect(factState({ deprecated: true }, at('1970-01-02'))).toBe('ended')
    expect(endOf({ deprecated: true, expired_at: '2022-05-01T00:00:00Z' })).toBe(at('2022-05-01'))
    expect(factState({ properties: { invalid_at: '2022-01-01' } }, at('2021-01-01'))).toBe('valid')
    expect(factState({ properties: { invalid_at: '2022-01-01' } }, at('2022-01-02'))).toBe('ended')
    expect(factState({ properties: { invalid_at: true } }, at('1970-01-02'))).toBe('ended')
  })
})

describe('factTime', () => {
  it('shows the window, and why it ended', () => {
    expect(factTime(paris, at('2024-01-01'))).toEqual({
      state: 'ended',
      text: 'valid 2020-03-01 → 2023-01-01, superseded',
    })
    expect(factTime({ ...paris, properties: {} }, at('2024-01-01')).text).toBe(
      'valid 2020-03-01 → 2023-01-01, ended',
    )
    expect(factTime(paris, at('2021-06-01'))).toEqual({
      state: 'valid',
      text: 'valid 2020-03-01 → 2023-01-01',
    })
    expect(factTime(berlin, at('2024-01-01')).text).toBe('valid since 2023-01-01')
    expect(factTime(berlin, at('2021-06-01')).text).toBe('valid since 2023-01-01, not yet valid')
    expect(factTime({}, at('2024-01-01'))).toEqual({ state: 'valid', text: '' })
    expect(factTime({ deprecated: true }, at('2024-01-01')).text).toBe('valid … → ?, ended')
  })
})

describe('asOfParam and atOf', () => {
  it('takes a date field’s value as as_of, and empty as now', () => {
    expect(asOfParam('2021-06-01')).toBe('2021-06-01')
    expect(asOfParam(' ')).toBeUndefined()
    expect(asOfParam('2021-13-45')).toBeUndefined()
    expect(asOfParam('June 2021')).toBeUndefined()
    expect(atOf('2021-06-01', 5)).toBe(at('2021-06-01T00:00:00Z'))
    expect(atOf(undefined, 5)).toBe(5)
  })
})
