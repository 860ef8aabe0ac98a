import type { Changelog } from '@engram/client'
import {
  BATCH_GAP_MS,
  changelogBatches,
  typeCounts,
  type ChangelogBatch,
} from './changelog-batches.js'
import { changelogEntryItem } from './changelog-entry-item.js'
import { newestFirst } from './changelog-touches.js'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { field, h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'
import { asOfParam, atOf } from './explorer/fact-window.js'
import { sourceLabel } from './source-label.js'

const PAGE = 100
/** The marker entries that name a batch's task and source; always asked for, to group by. */
const MARKER_TYPES = ['source_ingested', 'source_forgotten']

const KIND_TITLES: Record<ChangelogBatch['kind'], string> = {
  ingestion: 'ingestion',
  forget: 'forget',
  writes: 'graph writes',
}

/**
 * The Changelog tab: `GET /retrieve/changelogs`, newest first, grouped into write batches
 * (`changelogBatches`): one card per ingestion or forget, naming its task and source (a link to the
 * Sources tab) with counts per type, unfolding to its entries and each entry's details; direct graph
 * writes group by time. Filtered by a type from `GET /retrieve/changelogs/types` (the markers are
 * still read, to group by). An "As of" date states, for each fact with a window, whether it was true
 * then. Every node an entry names opens in the explorer.
 */
export function createChangelogView(ctx: ConsoleContext): ConsoleView {
  let abort = new AbortController()
  let entries: Changelog[] = []
  let read = 0
  const open = new Set<string>()
  const labels = new Map<string, string>()
  const errors = createErrorArea('changelog-error')
  const type = h(
    'select',
    { testid: 'changelog-type' },
    h('option', { attrs: { value: '' }, text: 'all types' }),
  )
  const asOf = h('input', { testid: 'changelog-as-of', attrs: { type: 'date' } })
  const refresh = h('button', {
    testid: 'changelog-refresh',
    attrs: { type: 'button' },
    text: 'Refresh',
  })
  const more = h('button', {
    class: 'secondary',
    testid: 'changelog-more',
    attrs: { type: 'button' },
    text: 'Older entries',
  })
  more.hidden = true
  const summary = h('p', { class: 'hint', testid: 'changelog-summary' })
  const timeline = h('ol', { class: 'timeline', testid: 'changelog-timeline' })

  type.addEventListener('change', () => void load(true))
  refresh.addEventListener('click', () => void load(true))
  more.addEventListener('click', () => void load(false))
  asOf.addEventListener('change', render)

  async function loadTypes(signal: AbortSignal) {
    const { types } = await ctx.client.GET('/retrieve/changelogs/types', { signal })
    const chosen = type.value
    replaceChildren(
      type,
      h('option', { attrs: { value: '' }, text: 'all types' }),
      ...types.map((t) => h('option', { attrs: { value: t }, text: t })),
    )
    type.value = types.includes(chosen) ? chosen : ''
  }

  /** Source titles for the batch headers; a source not among them shows its id. */
  async function loadLabels(signal: AbortSignal) {
    try {
      const { sources } = await ctx.client.sources.list({ limit: 1000, signal })
      for (const s of sources) labels.set(s.source_id, sourceLabel(s))
    } catch {
      // Ids stand in for titles.
    }
  }

  async function load(fresh: boolean) {
    abort.abort()
    abort = new AbortController()
    const signal = abort.signal
    errors.clear()
    try {
      if (fresh) {
        read = 0
        await Promise.all([loadTypes(signal), loadLabels(signal)])
      }
      const types =
        type.value === '' ? undefined : [...new Set([type.value, ...MARKER_TYPES])].join(',')
      const { changelogs } = await ctx.client.GET('/retrieve/changelogs', {
        params: { query: { limit: PAGE, skip: read, ...(types ? { types } : {}) } },
        signal,
      })
      entries = fresh ? newestFirst(changelogs) : [...entries, ...newestFirst(changelogs)]
      read += changelogs.length
      more.hidden = changelogs.length < PAGE
      render()
    } catch (error) {
      errors.show(error)
    }
  }

  function render() {
    const chosen = type.value
    // Unfiltered, a marker's entry count groups its write exactly; under a type filter, by time.
    const batches = changelogBatches(entries, BATCH_GAP_MS, chosen === '').filter(
      // Under a type filter, a marker whose batch holds none of that type is only there to group by.
      (b) => chosen === '' || b.entries.length > 0 || b.marker?.type === chosen,
    )
    if (batches.length > 0 && open.size === 0) open.add(batches[0]!.key)
    const date = asOfParam(asOf.value)
    const at = { ms: atOf(date), label: date === undefined ? 'now' : `on ${date}` }
    replaceChildren(timeline, ...batches.map((b) => batchItem(b, at, chosen)))
    const writes = batches.reduce((n, b) => n + b.entries.length, 0)
    summary.textContent =
      entries.length === 0
        ? 'No changes yet: ingest something first.'
        : `${writes} change${writes === 1 ? '' : 's'} in ${batches.length} write${batches.length === 1 ? '' : 's'}`
  }

  function batchItem(
    batch: ChangelogBatch,
    at: { ms: number; label: string },
    chosen: string,
  ): HTMLElement {
    const counts = typeCounts(batch)
    const sourceLink =
      batch.sourceId !== null &&
      h('button', {
        class: 'link',
        testid: 'changelog-batch-source',
        attrs: { type: 'button', 'data-source-id': batch.sourceId },
        text: labels.get(batch.sourceId) ?? batch.sourceId,
      })
    if (sourceLink) sourceLink.addEventListener('click', () => ctx.openSource(batch.sourceId!))
    if (batch.entries.length === 0) {
      // A write with no graph change (an ingestion with `skip_enrichment`, a forget of passages only).
      const note = h(
        'div',
        { class: 'batch-details' },
        kindBadge(batch),
        ' ',
        h('span', {
          testid: 'changelog-batch-counts',
          text: chosen === '' ? 'no graph change' : 'no entries of this type',
        }),
        batch.marker !== null && markerFacts(batch.marker),
      )
      return batchCard(batch, sourceLink, note)
    }
    const details = h(
      'details',
      { class: 'batch-details' },
      h(
        'summary',
        { testid: 'changelog-batch-summary' },
        kindBadge(batch),
        ' ',
        h('span', {
          testid: 'changelog-batch-counts',
          text:
            counts.length === 0
              ? 'no entries of this type'
              : counts.map(([t, n]) => `${n} ${t}`).join(' · '),
        }),
      ),
      batch.marker !== null && markerFacts(batch.marker),
      h(
        'ol',
        { class: 'batch-entries' },
        ...batch.entries.map((e) => changelogEntryItem(e, ctx.openEntity, at)),
      ),
    )
    details.open = open.has(batch.key)
    details.addEventListener('toggle', () => {
      if (details.open) open.add(batch.key)
      else open.delete(batch.key)
    })
    return batchCard(batch, sourceLink, details)
  }

  function batchCard(batch: ChangelogBatch, sourceLink: HTMLElement | false, body: HTMLElement) {
    const time = (iso: string) =>
      h('time', { attrs: { datetime: iso }, text: new Date(iso).toLocaleString() })
    return h(
      'li',
      {
        class: 'timeline-batch',
        testid: 'changelog-batch',
        attrs: {
          'data-kind': batch.kind,
          ...(batch.taskId ? { 'data-task-id': batch.taskId } : {}),
        },
      },
      h(
        'div',
        { class: 'row batch-head' },
        time(batch.newest),
        batch.oldest.slice(0, 19) !== batch.newest.slice(0, 19) &&
          h('span', { class: 'hint' }, 'from ', time(batch.oldest)),
        sourceLink && h('span', {}, 'source ', sourceLink),
        batch.taskId !== null &&
          h(
            'span',
            { class: 'hint' },
            'task ',
            h('code', { testid: 'changelog-batch-task', text: batch.taskId }),
          ),
      ),
      body,
    )
  }

  const element = h(
    'section',
    { class: 'view changelog-view', attrs: { 'aria-label': 'Changelog' } },
    h(
      'div',
      { class: 'row card' },
      field('Type', type),
      field('As of', asOf, 'facts with a window: true then?'),
      refresh,
    ),
    errors.element,
    summary,
    timeline,
    more,
  )
  return { element, show: () => void load(true), dispose: () => abort.abort() }
}

/** What a batch's marker says: passages added, kept, removed, and the source's counts after it. */
function markerFacts(marker: Changelog): HTMLElement {
  const change = marker.change as Record<string, unknown>
  const passages = change.passages as Record<string, number> | undefined
  const counts = change.counts as Record<string, number> | undefined
  const line = (values: Record<string, number> | undefined) =>
    Object.entries(values ?? {})
      .map(([k, v]) => `${v} ${k}`)
      .join(' · ')
  return h(
    'p',
    { class: 'hint', testid: 'changelog-batch-marker' },
    passages ? `passages: ${line(passages)}` : '',
    passages && counts ? ' — ' : '',
    counts
      ? `${marker.type === 'source_forgotten' ? 'removed' : 'source now'}: ${line(counts)}`
      : '',
  )
}

/** The badge naming what kind of write a batch was (ingestion, forget, model write). */
function kindBadge(batch: ChangelogBatch): HTMLElement {
  return h('span', {
    class: 'badge',
    testid: 'changelog-batch-kind',
    text: KIND_TITLES[batch.kind],
  })
}
