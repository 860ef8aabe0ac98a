import type { SearchHit } from '@engram/client'
import { h } from './dom.js'
import type { ConsoleContext } from './console-context.js'
import { formatScore, hitEntityUuid, signalRows } from './hit-signals.js'
import { hitSource } from './source-label.js'

/**
 * One search hit: rank, channel, labels, fused score, snippet, every signal's score and its extras; a
 * link to its source (title, else file name, else id) when it has one, and to its entity when it is one.
 */
export function searchHitItem(
  hit: SearchHit,
  rank: number,
  open: Pick<ConsoleContext, 'openEntity' | 'openSource'>,
): HTMLElement {
  const entity = hitEntityUuid(hit)
  const openEntity =
    entity !== null &&
    h('button', {
      class: 'link',
      testid: 'hit-open-entity',
      attrs: { type: 'button' },
      text: 'Open in explorer',
    })
  if (openEntity) openEntity.addEventListener('click', () => open.openEntity(entity!))
  const source = hitSource(hit)
  const openSource =
    source !== null &&
    h('button', {
      class: 'link',
      testid: 'hit-source',
      attrs: { type: 'button', title: `Open source ${source.id}`, 'data-source-id': source.id },
      text: source.label,
    })
  if (openSource) openSource.addEventListener('click', () => open.openSource(source!.id))
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
    openSource && h('p', { class: 'hint' }, 'source ', openSource),
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
    openEntity,
  )
}
