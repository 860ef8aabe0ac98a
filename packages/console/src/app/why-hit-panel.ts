import { h } from './dom.js'
import { formatScore } from './hit-signals.js'
import type { HitExplanation } from './score-explanation.js'

const STAGE_TITLES: Record<string, string> = {
  expand: 'graph stage (search.expand)',
  rerank: 'rerank (search.rerank)',
  personalize: 'personalization (search.personalize)',
}

const score = (value: number | null) => (value === null ? '—' : formatScore(value))

/**
 * "Why this hit": a closed `<details>` (keyboard-operable as it is) walking from the ranked lists that
 * returned the hit, through the fusion, to each stage that changed its score, ending at the score the
 * hit shows. `data-adds-up` says whether the shown steps end exactly there.
 */
export function whyHitPanel(why: HitExplanation): HTMLElement {
  const rows = why.places.map((place) =>
    h(
      'tr',
      { testid: 'why-list', attrs: { 'data-list': place.list } },
      h('th', { attrs: { scope: 'row' }, text: place.list }),
      h('td', { text: `#${place.rank}` }),
      h('td', { text: score(place.score) }),
      h('td', { testid: 'why-contribution', text: score(place.contribution) }),
    ),
  )
  const fusedLine =
    why.sum !== null
      ? `${why.fusion}: Σ ${why.places
          .filter((p) => p.contribution !== null)
          .map((p) => `1/(60+${p.rank})`)
          .join(' + ')} = ${score(why.sum)}`
      : `${why.fusion}: ${score(why.fused)}`
  return h(
    'details',
    { class: 'why', testid: 'hit-why', attrs: { 'data-adds-up': String(why.addsUp) } },
    h('summary', { text: 'Why this hit' }),
    h(
      'table',
      { class: 'why-lists' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { attrs: { scope: 'col' }, text: 'list' }),
          h('th', { attrs: { scope: 'col' }, text: 'rank' }),
          h('th', { attrs: { scope: 'col' }, text: 'score in list' }),
          h('th', { attrs: { scope: 'col' }, text: 'adds' }),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
    h(
      'ol',
      { class: 'why-steps' },
      h(
        'li',
        { testid: 'why-fusion' },
        h('strong', { text: 'fusion ' }),
        h('span', { testid: 'why-fused', text: fusedLine }),
        h('p', { class: 'hint', text: why.formula }),
      ),
      ...why.stages.map((step) =>
        h(
          'li',
          { testid: 'why-stage', attrs: { 'data-stage': step.stage } },
          h('strong', { text: `${STAGE_TITLES[step.stage] ?? step.stage} ` }),
          h('span', { testid: 'why-stage-value', text: `→ ${score(step.value)}` }),
          h('p', { class: 'hint', text: step.note }),
        ),
      ),
      h(
        'li',
        { testid: 'why-final' },
        h('strong', { text: 'shown score ' }),
        h('span', { text: `= ${formatScore(why.final)}` }),
        h('p', {
          class: 'hint',
          text: why.addsUp
            ? 'The steps above end exactly at the shown score.'
            : 'The steps above do not end at the shown score: a step the response does not itemise lies between them.',
        }),
      ),
    ),
  )
}
