import type { Source } from '@engram/client'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { h } from './dom.js'
import { createErrorArea, isAbort, summarizeError } from './error-view.js'
import { createSourceDetail } from './source-detail.js'
import { sourceLabel } from './source-label.js'
import { createSourcesList } from './sources-list.js'
import { createTaskCard } from './task-card.js'

/** The Sources tab, plus `open`, with which a search hit shows its source here. */
export interface SourcesView extends ConsoleView {
  /** Opens one source in the detail panel and moves focus to it. */
  open(sourceId: string): void
}

/**
 * The Sources tab (docs/forgetting.md): what was ingested, source by source. A filtered, paged list
 * (`GET /sources`), the open source with its passages (`GET /sources/{source_id}`), and Forget with a
 * confirmation step (`DELETE /sources/{source_id}`), whose task is followed like an ingestion's
 * (`waitForTask`) until it ends and shows its result counts; then the list loads again. Waiting stops
 * when the view is disposed; the forget itself goes on on the server.
 */
export function createSourcesView(ctx: ConsoleContext): SourcesView {
  const abort = new AbortController()
  const errors = createErrorArea('sources-forget-error')
  const list = createSourcesList(ctx.client, (id) => open(id))
  const detail = createSourceDetail(ctx.client, (source) => void forget(source))
  const tasksTitle = h('h2', { text: 'Forget tasks' })
  const tasks = h('div', { class: 'tasks', testid: 'sources-tasks' })
  tasksTitle.hidden = true

  async function open(sourceId: string) {
    list.markOpen(sourceId)
    await detail.open(sourceId)
    // Focus follows the user's choice to the panel they asked for (a list click or a search hit).
    if (detail.openId === sourceId) detail.element.querySelector<HTMLElement>('h2')?.focus()
  }

  async function forget(source: Source) {
    const label = sourceLabel(source)
    errors.clear()
    let card: ReturnType<typeof createTaskCard> | null = null
    try {
      const { task_id } = await ctx.client.sources.forget(source.source_id, {
        signal: abort.signal,
      })
      card = createTaskCard(`forget ${label}`)
      card.element.tabIndex = -1
      tasksTitle.hidden = false
      tasks.prepend(card.element)
      if (detail.openId === source.source_id) detail.close(`Forgetting “${label}”…`)
      card.element.focus()
      const task = await ctx.client.waitForTask(task_id, {
        signal: abort.signal,
        onProgress: (t) => card?.update(t),
      })
      card.update(task)
      if (detail.openId === null && task.status === 'completed')
        detail.close(`Forgot “${label}”. Open another source to see it here.`)
    } catch (error) {
      if (isAbort(error)) return
      if (card === null) {
        errors.show(error)
        // The confirmation was used up: show the source as the server now has it (or its 404).
        if (detail.openId === source.source_id) void detail.open(source.source_id)
      } else card.stopped(`${summarizeError(error).code}: ${summarizeError(error).message}`)
    }
    list.markOpen(detail.openId)
    await list.reload()
  }

  const element = h(
    'section',
    { class: 'view sources-view', attrs: { 'aria-label': 'Sources' } },
    errors.element,
    h('div', { class: 'columns' }, list.element, detail.element),
    tasksTitle,
    tasks,
  )
  return {
    element,
    show: () => void list.reload(),
    open: (sourceId) => void open(sourceId),
    dispose() {
      abort.abort()
      list.dispose()
      detail.dispose()
    },
  }
}
