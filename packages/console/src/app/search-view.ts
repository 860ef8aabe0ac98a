import type { SearchPlugins } from '@engram/client'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { channelToggles } from './channel-toggles.js'
import { field, h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'
import { fusionSelect } from './fusion-select.js'
import { passageTexts } from './passage-texts.js'
import { rerankPicker } from './rerank-picker.js'
import { explainHit } from './score-explanation.js'
import { searchChoices } from './search-choices.js'
import { searchHitItem } from './search-hit-item.js'
import { searchBody } from './search-request.js'
import { stageTimingsBar } from './stage-timings-bar.js'

const option = (value: string, text = value) => h('option', { attrs: { value }, text })

/**
 * The Search tab: `POST /retrieve/search` with the chosen channels, fusion, rerank and expansion, always
 * with `profile_stages`. The channel toggles, the fusion select and the rerank picker offer what the
 * server registered, third-party plugins included, read once from `GET /meta/search-plugins`; when
 * that fails they keep the built-ins and a quiet note says so. Each hit shows its text rendered from
 * Markdown, its source, its per-signal scores and why it scored so (`explainHit`), the response its
 * stage timings. The "As of" date (empty: now) is sent as `as_of`: facts and passages true only at
 * other times drop out.
 */
export function createSearchView(ctx: ConsoleContext): ConsoleView {
  let abort = new AbortController()
  const errors = createErrorArea('search-error')
  const query = h('input', {
    testid: 'search-query',
    attrs: { type: 'search', required: '', maxlength: '2000', placeholder: 'who met Ada?' },
  })
  const k = h('input', {
    testid: 'search-k',
    attrs: { type: 'number', min: '1', max: '200', value: '10' },
  })
  const channels = channelToggles()
  const fusion = fusionSelect()
  const listing = new AbortController()
  const listed: Promise<SearchPlugins> = ctx.client.GET('/meta/search-plugins', {
    signal: listing.signal,
  })
  const rerank = rerankPicker(listed)
  const pluginsNote = h('p', {
    class: 'hint',
    testid: 'search-plugins-note',
    attrs: { role: 'status' },
  })
  pluginsNote.hidden = true
  listed.then(
    (answer) => {
      const choices = searchChoices(answer)
      channels.fill(choices.channels)
      fusion.fill(choices.fusions)
    },
    () => {
      // A server older than the endpoint, or a failed call: the built-ins still search, and plugins
      // can be named by hand. Not an error area: nothing the user asked for failed.
      if (listing.signal.aborted) return
      pluginsNote.textContent =
        "Could not list this server's search plugins: built-in channels, fusions and reranks " +
        'only. Name a plugin channel under More channels, a rerank under "other plugin…".'
      pluginsNote.hidden = false
    },
  )
  const expand = h(
    'select',
    { testid: 'search-expand' },
    option('auto'),
    option('none'),
    option('neighbors'),
  )
  const asOf = h('input', { testid: 'search-as-of', attrs: { type: 'date' } })
  const submit = h('button', { testid: 'search-submit', attrs: { type: 'submit' }, text: 'Search' })

  const form = h(
    'form',
    { class: 'search-form card', testid: 'search-form' },
    h('div', { class: 'row grow' }, field('Query', query), submit),
    channels.element,
    h(
      'div',
      { class: 'row' },
      ...fusion.elements,
      rerank.element,
      field('Expansion', expand),
      field('k', k),
      field('As of', asOf, 'empty: now'),
    ),
    pluginsNote,
  )
  const summary = h('p', { class: 'hint', testid: 'search-summary' })
  const timings = h('div', { class: 'timings-slot' })
  const hits = h('ol', { class: 'hits', testid: 'search-hits' })

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void search()
  })

  async function search() {
    abort.abort()
    abort = new AbortController()
    const signal = abort.signal
    errors.clear()
    submit.disabled = true
    try {
      const body = searchBody({
        query: query.value,
        k: Number(k.value) || 10,
        channels: channels.checked(),
        extraChannels: channels.extra(),
        fusion: fusion.value(),
        fusionAlpha: fusion.alpha(),
        rerank: rerank.value(),
        expand: expand.value === 'neighbors' || expand.value === 'none' ? expand.value : 'auto',
        asOf: asOf.value,
      })
      const response = await ctx.client.POST('/retrieve/search', { body, signal })
      summary.textContent =
        `${response.hits.length} hit${response.hits.length === 1 ? '' : 's'}` +
        (body.as_of === undefined ? '' : ` as of ${asOf.value}: facts not true then are left out`)
      replaceChildren(timings, stageTimingsBar(response.stage_timings))
      const texts = passageTexts(ctx.client, signal)
      const alphaSent = 'fusion_alpha' in body ? (body.fusion_alpha ?? null) : null
      replaceChildren(
        hits,
        ...response.hits.map((hit, i) =>
          searchHitItem(hit, i + 1, {
            open: ctx,
            why: explainHit(hit, response, body.fusion ?? '', alphaSent),
            fullText: (sourceId) => texts.text(sourceId, hit.id),
            asOf: body.as_of,
          }),
        ),
      )
    } catch (error) {
      if (signal.aborted) return
      // No stale results under an error: they would read as the answer to this query.
      summary.textContent = ''
      timings.replaceChildren()
      hits.replaceChildren()
      errors.show(error)
    } finally {
      if (!signal.aborted) submit.disabled = false
    }
  }

  const element = h(
    'section',
    { class: 'view search-view', attrs: { 'aria-label': 'Search' } },
    h('div', { class: 'search-side' }, form, timings),
    h('div', { class: 'search-main' }, errors.element, summary, hits),
  )
  return {
    element,
    show: () => query.focus(),
    dispose: () => {
      abort.abort()
      listing.abort()
    },
  }
}
