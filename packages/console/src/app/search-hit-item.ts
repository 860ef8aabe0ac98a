import type { SearchHit } from '@engram/client'
import { h } from './dom.js'
import type { ConsoleContext } from './console-context.js'
import { formatScore, hitEntityUuid, signalRows } from './hit-signals.js'
import { markdownBlocks, markdownInline } from './markdown-view.js'
import type { HitExplanation } from './score-explanation.js'
import { hitSource } from './source-label.js'
import { whyHitPanel } from './why-hit-panel.js'

/** Extras the hit already shows elsewhere (its source line). */
const SHOWN_EXTRAS = new Set(['source_id', 'title', 'filename', 'invalidated_by'])

/** What a hit item needs besides the hit. */
export interface HitItemOptions {
  open: Pick<ConsoleContext, 'openEntity' | 'openSource'>
  why: HitExplanation
  /** The passage's full text, for a passage hit with a source; null keeps the snippet. */
  fullText: ((sourceId: string) => Promise<string | null>) | null
  /** The search's `as_of` date (`YYYY-MM-DD`), when one was sent. */
  asOf?: string | undefined
}

/**
 * One search hit: rank, channel, labels and score; for a passage, its source's title as a link to the
 * Sources tab and its text rendered from Markdown (the snippet at once, the whole passage once read);
 * every signal's score; "why this hit"; and a link to its entity when it is one.
 */
export function searchHitItem(hit: SearchHit, rank: number, options: HitItemOptions): HTMLElement {
  const { open } = options
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
  const isPassage = hit.labels.includes('PASSAGE')
  const source = hitSource(hit)
  const openSource =
    source !== null &&
    h('button', {
      class: 'link hit-title',
      testid: 'hit-source',
      attrs: { type: 'button', title: `Open source ${source.id}`, 'data-source-id': source.id },
      text: source.label,
    })
  if (openSource) openSource.addEventListener('click', () => open.openSource(source!.id))
  const text = h(
    'div',
    { class: 'snippet', testid: 'hit-snippet', attrs: { 'data-state': 'snippet' } },
    markdownInline(hit.snippet),
  )
  if (isPassage && source !== null && options.fullText !== null) {
    void options
      .fullText(source.id)
      .then((full) => {
        if (full === null) return
        text.replaceChildren(markdownBlocks(full))
        text.dataset.state = 'full'
      })
      .catch(() => {
        // The snippet stays: it is the same passage, shorter.
      })
  }
  const extras = Object.entries(hit.extras).filter(([key]) => !SHOWN_EXTRAS.has(key))
  // A fact a later one ended (docs/time.md): found only as of a date inside its window.
  const endedBy = hit.extras.invalidated_by
  const superseded =
    typeof endedBy === 'string' &&
    h(
      'p',
      { class: 'hint fact-window', testid: 'hit-superseded' },
      h('span', { class: 'badge muted', text: 'superseded' }),
      options.asOf === undefined
        ? ' a later fact ended this one'
        : ` true on ${options.asOf}; a later fact ended it`,
      ' (',
      h('code', { attrs: { title: endedBy }, text: endedBy.slice(0, 8) }),
      ')',
    )
  return h(
    'li',
    { class: 'hit card', testid: 'search-hit', attrs: { 'data-id': hit.id } },
    h(
      'header',
      { class: 'row' },
      h('span', { class: 'rank', text: `#${rank}` }),
      h('span', { class: 'badge', testid: 'hit-channel', text: hit.channel }),
      ...hit.labels.map((label) => h('span', { class: 'badge muted', text: label })),
      openSource,
      isPassage &&
        source === null &&
        h('span', { class: 'hint', testid: 'hit-no-source', text: 'no source recorded' }),
      h('span', { class: 'spacer' }),
      h('span', { class: 'score', testid: 'hit-score', text: formatScore(hit.score) }),
    ),
    source !== null && source.label !== source.id && h('code', { class: 'hint', text: source.id }),
    text,
    superseded,
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
    whyHitPanel(options.why),
    openEntity,
  )
}
