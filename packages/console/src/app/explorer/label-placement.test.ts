import { describe, expect, it } from 'vitest'
import { anyOverlap, placeLabels, type LabelCandidate } from './label-placement.js'

const node = (
  key: string,
  x: number,
  y: number,
  priority: number,
  extra: Partial<LabelCandidate> = {},
) =>
  ({ key, x, y, radius: 5, width: 80, priority, forced: false, ...extra }) satisfies LabelCandidate

describe('placeLabels', () => {
  const viewport = { width: 800, height: 600 }

  it('drops the lower-priority of two overlapping labels', () => {
    const kept = placeLabels([node('small', 105, 101, 1), node('hub', 100, 100, 9)], viewport)
    expect(kept.map((b) => b.key)).toEqual(['hub'])
  })

  it('keeps labels that do not touch, and never returns overlapping boxes', () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      node(`n${i}`, (i * 37) % 800, (i * 53) % 600, i % 7),
    )
    const kept = placeLabels(many, viewport)
    expect(kept.length).toBeGreaterThan(20)
    expect(kept.length).toBeLessThan(400)
    expect(anyOverlap(kept)).toBe(false)
  })

  it('always keeps a forced label, and skips nodes drawn too small or out of view', () => {
    const kept = placeLabels(
      [
        node('hub', 100, 100, 9),
        node('selected', 102, 100, 0, { forced: true }),
        node('tiny', 400, 300, 5, { radius: 1 }),
        node('away', 2000, 300, 5),
      ],
      viewport,
    )
    expect(kept.map((b) => b.key).sort()).toEqual(['hub', 'selected'])
  })

  it('keeps labels whole inside the viewport and off reserved areas', () => {
    const kept = placeLabels(
      [node('edge', 790, 100, 9), node('under-panel', 20, 20, 9), node('free', 400, 300, 1)],
      viewport,
      {},
      [{ x1: 0, y1: 0, x2: 200, y2: 200 }],
    )
    expect(kept.map((b) => b.key)).toEqual(['free'])
  })

  it('shows more labels when zoomed in (the same nodes further apart)', () => {
    const at = (zoom: number) =>
      placeLabels(
        Array.from({ length: 50 }, (_, i) => node(`n${i}`, 300 + i * 4 * zoom, 300 + i * zoom, i)),
        viewport,
      ).length
    expect(at(4)).toBeGreaterThan(at(1))
  })
})
