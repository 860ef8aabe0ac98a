import type { SearchHit } from '@engram/client'
import { h } from './dom.js'
import { formatScore, hitEntityUuid, signalRows } from './hit-signals.js'

/** One search hit: rank, channel, labels, fused score, snippet, every signal's score and its extras. */
export function searchHitItem(
  hit: SearchHit,
  rank: number,
  openEntity: (uuid: string) => void,
): HTMLElement {
  const entity = hitEntityUuid(hit)
  const open =
    entity !== null &&
    h('button', {
      class: 'link',
      testid: 'hit-open-entity',
      attrs: { type: 'button' },
      text: 'Open in explorer',
    })
  if (open) open.addEventListener('click', () => openEntity(entity!))
  const extras = Object.entries(hit.extras)
  return h(
    'li',
    { class: 'hit card', testid: 'search-hit', attrs: { 'data-id': hit.id } },
    h(
      'header',
      { class: 'row' },
      h('span', { class: 'rank', text: `#${rank}` }),
      h('span', { class: 'badge', testid: 'hit-channel', text: hit.channel }),
      ...hit.labels.map((label) => h('span', { class: 'badge muted', text: label })),
      h('span', { class: 'spacer' }),
      h('span', { class: 'score', testid: 'hit-score', text: formatScore(hit.score) }),
    ),
    h('p', { class: 'snippet', testid: 'hit-snippet', text: hit.snippet }),
    h(
      'dl',
      { class: 'signals', testid: 'hit-scores', attrs: { 'aria-label': 'Scores per signal' } },
      ...signalRows(hit.scores).flatMap(([signal, score]) => [
        h('dt', { text: signal }),
        h('dd', { testid: `hit-signal-${signal}`, text: formatScore(score) }),
      ]),
    ),
    extras.length > 0 &&
      h(
        'p',
        { class: 'extras hint' },
        extras.map(([key, value]) => `${key}: ${String(value)}`).join(' · '),
      ),
    open,
  )
}
