import type { EngramClient, Source } from '@engram/client'
import { field, h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'
import { parseMetaFilter } from './meta-filter.js'
import { latestLoad } from './latest-load.js'
import { pageRange } from './page-range.js'
import { countSummary, sourceLabel } from './source-label.js'

/** Sources per page: a screenful, not the API's 100. */
export const SOURCES_PAGE = 20

export interface SourcesList {
  readonly element: HTMLElement
  /**
   * Loads the current page again with the current filter (after a forget, or when the tab is shown).
   * A page left empty by a forget steps back to the one before it.
   */
  reload(): Promise<void>
  /** Marks the open source in the list (`aria-current`), or none. */
  markOpen(sourceId: string | null): void
  dispose(): void
}

/**
 * The list half of the Sources tab: `GET /sources` with a text filter (`query_text`, a substring of the
 * id, title or file name) and an optional meta filter, a page at a time, most recently updated first.
 * Its `data-state` (`loading`, `done`, `error`) tells when a load has ended, for people and tests.
 */
export function createSourcesList(
  client: EngramClient,
  onOpen: (sourceId: string) => void,
): SourcesList {
  let skip = 0
  let openId: string | null = null
  const errors = createErrorArea('sources-error')
  const queryText = h('input', {
    testid: 'sources-filter',
    attrs: { type: 'search', maxlength: '2000', placeholder: 'id, title or file name' },
  })
  const meta = h('input', {
    testid: 'sources-meta',
    attrs: { type: 'text', maxlength: '10000', placeholder: '{"project": "apollo"}' },
  })
  const submit = h('button', {
    testid: 'sources-filter-submit',
    attrs: { type: 'submit' },
    text: 'Filter',
  })
  const form = h(
    'form',
    { class: 'stack card', attrs: { role: 'search', 'aria-label': 'Filter sources' } },
    h('div', { class: 'row grow' }, field('Find', queryText), field('Meta (JSON)', meta)),
    submit,
  )
  const summary = h('p', {
    class: 'hint',
    testid: 'sources-summary',
    attrs: { 'aria-live': 'polite' },
  })
  const items = h('ol', { class: 'hits', testid: 'sources-items' })
  const previous = pager('sources-previous', 'Previous page')
  const next = pager('sources-next', 'Next page')
  const element = h(
    'div',
    { class: 'stack', testid: 'sources-list' },
    form,
    errors.element,
    summary,
    items,
    h('div', { class: 'row' }, previous, next),
  )

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    skip = 0
    void load()
  })
  previous.addEventListener('click', () => {
    skip = Math.max(0, skip - SOURCES_PAGE)
    void load()
  })
  next.addEventListener('click', () => {
    skip += SOURCES_PAGE
    void load()
  })

  const loads = latestLoad(element, errors)
  const load = () =>
    loads.run(async (signal) => {
      const filter = parseMetaFilter(meta.value)
      const text = queryText.value.trim()
      let page = await list(text, filter, signal)
      // A forget can empty the last page: show the one before instead of "0 of 20".
      while (page.sources.length === 0 && skip > 0) {
        skip = Math.max(0, skip - SOURCES_PAGE)
        page = await list(text, filter, signal)
      }
      const filtered = text !== '' || filter !== undefined
      summary.textContent =
        page.total === 0
          ? filtered
            ? 'No source matches this filter.'
            : 'No sources yet: ingest something first.'
          : skip === 0 && page.sources.length === page.total
            ? `${page.total} source${page.total === 1 ? '' : 's'}`
            : `sources ${pageRange(skip, page.sources.length, page.total)}`
      replaceChildren(items, ...page.sources.map((s) => sourceItem(s)))
      previous.hidden = skip === 0
      next.hidden = skip + page.sources.length >= page.total
    })

  const list = (text: string, meta: ReturnType<typeof parseMetaFilter>, signal: AbortSignal) =>
    client.sources.list({
      limit: SOURCES_PAGE,
      skip,
      signal,
      ...(text !== '' ? { queryText: text } : {}),
      ...(meta !== undefined ? { meta } : {}),
    })

  function sourceItem(source: Source): HTMLElement {
    const label = sourceLabel(source)
    const open = h('button', {
      class: 'link',
      testid: 'source-open',
      attrs: { type: 'button', 'data-source-id': source.source_id },
      text: label,
    })
    open.addEventListener('click', () => onOpen(source.source_id))
    const item = h(
      'li',
      { class: 'hit card', testid: 'source-item', attrs: { 'data-source-id': source.source_id } },
      h(
        'header',
        { class: 'row' },
        h('strong', {}, open),
        source.kind !== '' &&
          h('span', { class: 'badge muted', text: source.kind.replace(/^ingest_/, '') }),
        h('span', { class: 'spacer' }),
        h('time', {
          class: 'hint',
          attrs: { datetime: source.updated_at, title: 'Last updated' },
          text: new Date(source.updated_at).toLocaleString(),
        }),
      ),
      label !== source.source_id && h('code', { text: source.source_id }),
      h('p', { class: 'hint', testid: 'source-item-counts', text: countSummary(source.counts) }),
    )
    if (source.source_id === openId) item.setAttribute('aria-current', 'true')
    return item
  }

  return {
    element,
    reload: load,
    markOpen(sourceId) {
      openId = sourceId
      for (const item of items.children) {
        const current = (item as HTMLElement).dataset.sourceId === sourceId
        if (current) item.setAttribute('aria-current', 'true')
        else item.removeAttribute('aria-current')
      }
    },
    dispose: loads.abort,
  }
}

function pager(testid: string, text: string): HTMLButtonElement {
  const button = h('button', { class: 'secondary', testid, attrs: { type: 'button' }, text })
  button.hidden = true
  return button
}
