import type { SearchResponse } from '@engram/client'
import { h } from './dom.js'
import { formatMs, stageSegments } from './stage-segments.js'

/**
 * `stage_timings` as a horizontal stacked bar: one labelled div per stage, its width its share of the
 * time (set through `element.style`, which the CSP allows, unlike `style` attributes in markup).
 */
export function stageTimingsBar(timings: SearchResponse['stage_timings']): HTMLElement {
  const segments = stageSegments(timings)
  const bar = h('div', { class: 'timings-bar', attrs: { role: 'list' } })
  segments.forEach((segment, index) => {
    const label = `${segment.stage} ${formatMs(segment.ms)}${segment.calls > 1 ? ` ×${segment.calls}` : ''}`
    const piece = h(
      'div',
      {
        class: `timing tone-${index % 6}`,
        testid: 'stage-timing',
        attrs: {
          role: 'listitem',
          title: label,
          'data-stage': segment.stage,
          'data-ms': String(segment.ms),
        },
      },
      h('span', { text: label }),
    )
    piece.style.width = `${segment.percent}%`
    bar.append(piece)
  })
  return h(
    'figure',
    { class: 'timings', testid: 'stage-timings' },
    h(
      'figcaption',
      {},
      'Stage timings',
      timings.total_ms === undefined ? '' : ` (total ${formatMs(timings.total_ms)})`,
    ),
    segments.length === 0 ? h('p', { class: 'hint', text: 'No stages were reported.' }) : bar,
    // Narrow segments cut their labels short: the legend names every stage in full.
    segments.length > 0 &&
      h(
        'ul',
        { class: 'timings-legend' },
        ...segments.map((segment, index) =>
          h(
            'li',
            {},
            h('span', { class: `swatch tone-${index % 6}` }),
            `${segment.stage} ${formatMs(segment.ms)} (${segment.percent.toFixed(0)}%)`,
          ),
        ),
      ),
  )
}
