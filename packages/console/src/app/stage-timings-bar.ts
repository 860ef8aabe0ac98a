import type { SearchResponse } from '@engram/client'
import { h } from './dom.js'
import { formatMs, stageSegments } from './stage-segments.js'

/** Distinct colours (`.tone-0`…`.tone-9` in console.css); a search reports fewer stages than this. */
export const TONES = 10

/**
 * `stage_timings` as a timeline: one row per stage, its full name and time on the left (never cut),
 * its bar placed from `started_ms` to `ended_ms` on the search's time axis, in its own colour; a legend
 * repeats colour, name, time and share. Positions go through `element.style` (the CSP allows it, unlike
 * `style` attributes in markup).
 */
export function stageTimingsBar(timings: SearchResponse['stage_timings']): HTMLElement {
  const segments = stageSegments(timings)
  const rows = segments.map((segment, index) => {
    const label = `${segment.stage} ${formatMs(segment.ms)}${segment.calls > 1 ? ` ×${segment.calls}` : ''}`
    const bar = h('span', {
      class: `timing-bar tone-${index % TONES}`,
      attrs: { title: `${label}, from ${formatMs(timings.stages![index]!.started_ms)}` },
    })
    bar.style.marginLeft = `${segment.start}%`
    bar.style.width = `${segment.width}%`
    return h(
      'li',
      {
        class: 'timing',
        testid: 'stage-timing',
        attrs: { 'data-stage': segment.stage, 'data-ms': String(segment.ms) },
      },
      h('span', { class: 'timing-label', testid: 'stage-timing-label', text: label }),
      h('span', { class: 'timing-track' }, bar),
    )
  })
  return h(
    'figure',
    { class: 'timings', testid: 'stage-timings' },
    h(
      'figcaption',
      {},
      'Stage timings',
      timings.total_ms === undefined ? '' : ` (total ${formatMs(timings.total_ms)})`,
      segments.length > 0 &&
        h('span', {
          class: 'hint',
          text: ' · bars on the search’s time axis; overlapping stages ran at once',
        }),
    ),
    segments.length === 0
      ? h('p', { class: 'hint', text: 'No stages were reported.' })
      : h('ol', { class: 'timings-rows' }, ...rows),
    segments.length > 0 &&
      h(
        'ul',
        { class: 'timings-legend', testid: 'stage-legend' },
        ...segments.map((segment, index) =>
          h(
            'li',
            {},
            h('span', { class: `swatch tone-${index % TONES}` }),
            `${segment.stage} ${formatMs(segment.ms)} (${segment.percent.toFixed(0)}% of the summed time)`,
          ),
        ),
      ),
  )
}
