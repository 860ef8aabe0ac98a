import type { Changelog } from '@engram/client'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { field, h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'
import { changelogTouches, newestFirst } from './changelog-touches.js'

const PAGE = 50

/**
 * The Changelog tab: `GET /retrieve/changelogs` as a vertical timeline, newest first, filtered by a type
 * from `GET /retrieve/changelogs/types`. Every node an entry names opens in the explorer.
 */
export function createChangelogView(ctx: ConsoleContext): ConsoleView {
  let abort = new AbortController()
  let skip = 0
  const errors = createErrorArea('changelog-error')
  const type = h(
    'select',
    { testid: 'changelog-type' },
    h('option', { attrs: { value: '' }, text: 'all types' }),
  )
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

  async function load(fresh: boolean) {
    abort.abort()
    abort = new AbortController()
    const signal = abort.signal
    errors.clear()
    try {
      if (fresh) {
        skip = 0
        await loadTypes(signal)
      }
      const { changelogs } = await ctx.client.GET('/retrieve/changelogs', {
        params: { query: { limit: PAGE, skip, ...(type.value ? { types: type.value } : {}) } },
        signal,
      })
      const items = newestFirst(changelogs).map((entry) => entryItem(entry, ctx.openEntity))
      if (fresh) replaceChildren(timeline, ...items)
      else timeline.append(...items)
      skip += changelogs.length
      more.hidden = changelogs.length < PAGE
      summary.textContent =
        skip === 0
          ? 'No changes yet: ingest something first.'
          : `${skip} entr${skip === 1 ? 'y' : 'ies'}`
    } catch (error) {
      errors.show(error)
    }
  }

  const element = h(
    'section',
    { class: 'view changelog-view', attrs: { 'aria-label': 'Changelog' } },
    h('div', { class: 'row card' }, field('Type', type), refresh),
    errors.element,
    summary,
    timeline,
    more,
  )
  return { element, show: () => void load(true), dispose: () => abort.abort() }
}

function entryItem(entry: Changelog, openEntity: (uuid: string) => void): HTMLElement {
  const touches = changelogTouches(entry)
  const nodes = touches.nodes.map((node) => {
    const button = h('button', {
      class: 'link',
      testid: 'changelog-node',
      attrs: { type: 'button', title: `${node.role} ${node.uuid}`, 'data-uuid': node.uuid },
      text: node.name,
    })
    button.addEventListener('click', () => openEntity(node.uuid))
    return h(
      'span',
      { class: 'touched-node' },
      button,
      ...node.labels.map((label) => h('span', { class: 'badge muted', text: label })),
    )
  })
  // A relationship reads subject -predicate-> object; a node change lists its node.
  const touched =
    touches.predicate !== null && nodes.length === 2
      ? [
          nodes[0]!,
          h('span', {
            class: 'predicate',
            testid: 'changelog-predicate',
            text: ` ${touches.predicate} `,
          }),
          nodes[1]!,
        ]
      : [
          ...nodes,
          touches.predicate !== null &&
            h('span', {
              class: 'predicate',
              testid: 'changelog-predicate',
              text: ` ${touches.predicate}`,
            }),
        ]
  return h(
    'li',
    { class: 'timeline-entry', testid: 'changelog-entry', attrs: { 'data-type': entry.type } },
    h(
      'div',
      { class: 'row' },
      h('time', {
        attrs: { datetime: entry.timestamp },
        text: new Date(entry.timestamp).toLocaleString(),
      }),
      h('span', { class: 'badge', testid: 'changelog-entry-type', text: entry.type }),
    ),
    h('div', { class: 'touched' }, ...touched),
    touches.properties.length > 0 &&
      h('p', { class: 'hint', text: `properties: ${touches.properties.join(', ')}` }),
  )
}
