import type { EngramClient, Passage, Source } from '@engram/client'
import { h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'
import { forgetControl } from './forget-control.js'
import { pageRange } from './page-range.js'
import { sourceLabel } from './source-label.js'
import { countRows, valueRows } from './task-card.js'
import { latestLoad } from './latest-load.js'

/** Passages per page of an open source. */
const PASSAGES_PAGE = 50
const EMPTY_NOTE = 'Open a source to see its meta, counts, tasks and passages.'

export interface SourceDetail {
  readonly element: HTMLElement
  /** The source on show, or null. */
  readonly openId: string | null
  /** Shows one source (`GET /sources/{source_id}`) and the first page of its passages. */
  open(sourceId: string): Promise<void>
  /** Empties the panel, leaving `note` (after the source was forgotten). */
  close(note?: string): void
  dispose(): void
}

/**
 * The detail half of the Sources tab: a source's title, ids, times, meta, counts, tasks and passages
 * (in text order, a page at a time), and its Forget control. Passage text goes in as text, never as
 * markup. `data-state` (`empty`, `loading`, `done`, `error`) and `data-source-id` tell which source
 * has finished loading.
 */
export function createSourceDetail(
  client: EngramClient,
  onForget: (source: Source) => void,
): SourceDetail {
  let openId: string | null = null
  const errors = createErrorArea('source-error')
  const body = h('div', { class: 'stack' })
  const element = h(
    'section',
    { class: 'card stack', testid: 'source-detail', attrs: { 'aria-label': 'Source' } },
    errors.element,
    body,
  )

  const loads = latestLoad(element, errors)

  function close(note = EMPTY_NOTE) {
    loads.abort()
    openId = null
    errors.clear()
    replaceChildren(body, h('p', { class: 'hint', testid: 'source-detail-note', text: note }))
    element.dataset.state = 'empty'
    delete element.dataset.sourceId
  }
  close()

  async function open(sourceId: string) {
    openId = sourceId
    element.dataset.sourceId = sourceId
    replaceChildren(body, h('p', { class: 'hint', text: 'Loading…' }))
    await loads.run(
      async (signal) => {
        const { source, passages, total } = await client.sources.get(sourceId, {
          limit: PASSAGES_PAGE,
          signal,
        })
        render(source, passages, total, signal)
      },
      () => body.replaceChildren(),
    )
  }

  function render(source: Source, first: Passage[], total: number, signal: AbortSignal) {
    const label = sourceLabel(source)
    const heading = h('h2', { testid: 'source-title', attrs: { tabindex: '-1' }, text: label })
    const passages = h('ol', { class: 'hits', testid: 'source-passages' })
    const shown = h('p', { class: 'hint', testid: 'source-passages-range' })
    const more = h('button', {
      class: 'secondary',
      testid: 'source-passages-more',
      attrs: { type: 'button' },
      text: 'More passages',
    })
    let loaded = 0
    const add = (page: Passage[]) => {
      passages.append(...page.map(passageItem))
      loaded += page.length
      shown.textContent =
        loaded >= total
          ? `${total} passage${total === 1 ? '' : 's'}`
          : `passages ${pageRange(0, loaded, total)}`
      more.hidden = loaded >= total || page.length === 0
    }
    more.addEventListener('click', async () => {
      more.disabled = true
      try {
        const next = await client.sources.get(source.source_id, {
          limit: PASSAGES_PAGE,
          skip: loaded,
          signal,
        })
        add(next.passages)
      } catch (error) {
        if (!signal.aborted) errors.show(error)
      } finally {
        more.disabled = false
      }
    })
    add(first)
    const metaRows = countRows(source.meta)
    replaceChildren(
      body,
      heading,
      facts(source),
      forgetControl(label, source.counts.passages, () => onForget(source)),
      h('h3', { text: 'Counts' }),
      valueRows('source-count', countRows(source.counts)),
      h('h3', { text: 'Meta' }),
      metaRows.length === 0
        ? h('p', { class: 'hint', testid: 'source-meta', text: 'No meta.' })
        : valueRows('source-meta', metaRows),
      h('h3', { text: 'Tasks' }),
      h(
        'ul',
        { class: 'source-tasks', testid: 'source-tasks' },
        ...source.task_ids.map((id) => h('li', {}, h('code', { testid: 'source-task', text: id }))),
      ),
      h('h3', { text: 'Passages' }),
      shown,
      passages,
      more,
    )
  }

  return {
    element,
    get openId() {
      return openId
    },
    open,
    close,
    dispose: loads.abort,
  }
}

/**
 * Id, file name and kind; created and updated times; content hash: what identifies this version of
 * the source, as three short lines (a `<dl>` of long values wraps badly).
 */
function facts(source: Source): HTMLElement {
  const time = (iso: string) =>
    h('time', { attrs: { datetime: iso }, text: new Date(iso).toLocaleString() })
  return h(
    'div',
    { class: 'hint', testid: 'source-facts' },
    h(
      'div',
      {},
      'id ',
      h('code', { testid: 'source-id', text: source.source_id }),
      source.filename !== '' && ' · file ',
      source.filename !== '' && h('span', { testid: 'source-filename', text: source.filename }),
      source.kind !== '' && ` · ${source.kind}`,
    ),
    h('div', {}, 'created ', time(source.created_at), ' · updated ', time(source.updated_at)),
    source.content_hash !== '' &&
      h(
        'div',
        {},
        'sha-256 ',
        h('code', {
          attrs: { title: source.content_hash },
          text: `${source.content_hash.slice(0, 16)}…`,
        }),
      ),
  )
}

/** One passage: its text as text (a passage holding `<b>` shows the characters), and its id. */
function passageItem(passage: Passage): HTMLElement {
  return h(
    'li',
    { class: 'hit card', testid: 'source-passage', attrs: { 'data-id': passage.id } },
    h('p', { class: 'snippet passage-text', testid: 'source-passage-text', text: passage.text }),
    h('code', { text: passage.id }),
  )
}
