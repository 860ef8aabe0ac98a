import type { EngramClient, Task } from '@engram/client'
import { field, h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'
import { countRows, valueRows } from './task-card.js'
import {
  filterTasks,
  statusCounts,
  taskDuration,
  taskSource,
  TASK_STATUSES,
} from './task-filter.js'
import { latestLoad } from './latest-load.js'

/** Tasks read per `GET /tasks/` page. */
export const TASKS_PAGE = 50

export interface TaskList {
  readonly element: HTMLElement
  /** Reads the first page again (when the tab is shown, and when a task started here ends). */
  reload(): Promise<void>
  dispose(): void
}

/**
 * Every task of the brain (`GET /tasks/`, newest first, a page at a time with "Older tasks"), whoever
 * started it: status, stage, source, times and, unfolded, its counts, result and error. The status
 * filter is the server's (`GET /tasks/?status=`: a brain's failures without reading every task); the
 * text filter (id, source or error) runs in the page over the tasks read. `data-state` (`loading`,
 * `done`, `error`) tells when a read has ended.
 */
export function createTaskList(
  client: EngramClient,
  openSource: (sourceId: string) => void,
): TaskList {
  let tasks: Task[] = []
  let more = false
  const errors = createErrorArea('task-list-error')
  const status = h(
    'select',
    { testid: 'task-filter-status' },
    h('option', { attrs: { value: '' }, text: 'all statuses' }),
    ...TASK_STATUSES.map((s) => h('option', { attrs: { value: s }, text: s })),
  )
  const text = h('input', {
    testid: 'task-filter-text',
    attrs: { type: 'search', placeholder: 'task id, source or error' },
  })
  const refresh = h('button', {
    class: 'secondary',
    testid: 'task-list-refresh',
    attrs: { type: 'button' },
    text: 'Refresh',
  })
  const older = h('button', {
    class: 'secondary',
    testid: 'task-list-more',
    attrs: { type: 'button' },
    text: 'Older tasks',
  })
  older.hidden = true
  const summary = h('p', {
    class: 'hint',
    testid: 'task-list-summary',
    attrs: { 'aria-live': 'polite' },
  })
  const body = h('tbody', { testid: 'task-list-rows' })
  const table = h(
    'table',
    { class: 'task-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['status', 'task', 'source', 'started', 'took', 'result'].map((c) =>
          h('th', { attrs: { scope: 'col' }, text: c }),
        ),
      ),
    ),
    body,
  )
  const element = h(
    'section',
    {
      class: 'stack card task-list',
      testid: 'task-list',
      attrs: { 'aria-label': 'Tasks of this brain' },
    },
    h('h2', { text: 'All tasks of this brain' }),
    h('div', { class: 'row' }, field('Status', status), field('Find', text), refresh),
    errors.element,
    summary,
    table,
    older,
  )
  status.addEventListener('change', () => void load(true))
  text.addEventListener('input', render)
  refresh.addEventListener('click', () => void load(true))
  older.addEventListener('click', () => void load(false))

  const loads = latestLoad(element, errors)
  const load = (fresh: boolean) =>
    loads.run(async (signal) => {
      const skip = fresh ? 0 : tasks.length
      const page = await client.GET('/tasks/', {
        params: {
          query: {
            limit: TASKS_PAGE,
            skip,
            ...(status.value === '' ? {} : { status: status.value }),
          },
        },
        signal,
      })
      tasks = fresh ? page.tasks : [...tasks, ...page.tasks]
      more = page.tasks.length === TASKS_PAGE
      render()
    })

  function render() {
    const shown = filterTasks(tasks, { status: status.value, text: text.value })
    const counts = statusCounts(tasks)
      .map(([s, n]) => `${n} ${s}`)
      .join(' · ')
    const which = status.value === '' ? '' : `${status.value} `
    summary.textContent =
      tasks.length === 0
        ? which === ''
          ? 'No tasks yet: ingest something.'
          : `No ${which}tasks.`
        : `${shown.length === tasks.length ? `${tasks.length}` : `${shown.length} of ${tasks.length}`} ${which}task${tasks.length === 1 ? '' : 's'}${more ? ' read so far (older ones below)' : ''}${which === '' ? `: ${counts}` : ''}`
    replaceChildren(body, ...shown.map(taskRow))
    older.hidden = !more
  }

  function taskRow(task: Task): HTMLElement {
    const source = taskSource(task)
    const sourceLink =
      source !== '' &&
      h('button', {
        class: 'link',
        testid: 'task-row-source',
        attrs: { type: 'button', 'data-source-id': source },
        text: source,
      })
    if (sourceLink) sourceLink.addEventListener('click', () => openSource(source))
    const result = countRows(task.result).filter(([k]) => k !== 'source_id' && k !== 'errors')
    const itemErrors = Array.isArray((task.result as Record<string, unknown> | null)?.errors)
      ? ((task.result as Record<string, unknown>).errors as unknown[])
      : []
    return h(
      'tr',
      { testid: 'task-row', attrs: { 'data-task-id': task.task_id, 'data-status': task.status } },
      h(
        'td',
        {},
        h('span', {
          class: 'status',
          testid: 'task-row-status',
          attrs: { 'data-status': task.status },
          text: task.status,
        }),
        task.stage !== task.status && h('span', { class: 'hint', text: ` ${task.stage}` }),
      ),
      h('td', {}, h('code', { testid: 'task-row-id', text: task.task_id })),
      h('td', {}, sourceLink || h('span', { class: 'hint', text: '—' })),
      h(
        'td',
        {},
        h('time', {
          attrs: { datetime: task.created_at },
          text: new Date(task.created_at).toLocaleString(),
        }),
      ),
      h('td', { text: taskDuration(task) }),
      h(
        'td',
        {},
        h(
          'details',
          { testid: 'task-row-details' },
          h('summary', {
            text:
              result.length === 0
                ? task.error !== ''
                  ? 'error'
                  : 'counts'
                : result
                    .slice(0, 3)
                    .map(([k, v]) => `${v} ${k}`)
                    .join(', '),
          }),
          h('h3', { text: 'Read' }),
          valueRows('task-row-counts', countRows(task.counts)),
          result.length > 0 && h('h3', { text: 'Written' }),
          result.length > 0 && valueRows('task-row-result', result),
          task.error !== '' &&
            h('p', { class: 'error-message', testid: 'task-row-error', text: task.error }),
          itemErrors.length > 0 &&
            h(
              'ul',
              { class: 'item-errors' },
              ...itemErrors.map((e) =>
                h('li', { text: typeof e === 'string' ? e : JSON.stringify(e) }),
              ),
            ),
        ),
      ),
    )
  }

  return { element, reload: () => load(true), dispose: loads.abort }
}
