import type { Task } from '@engram/client'
import { h, replaceChildren } from './dom.js'

/** `{name: count}` as label/value rows, in the server's order; non-scalar values are summarised. */
export function countRows(counts: Record<string, unknown> | null | undefined): [string, string][] {
  return Object.entries(counts ?? {}).map(([name, value]) => [
    name,
    typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean'
      ? String(value)
      : Array.isArray(value)
        ? `${value.length} item${value.length === 1 ? '' : 's'}`
        : JSON.stringify(value),
  ])
}

/** `[label, value]` rows as a `<dl>`; each value's test id is `<testid>-<label>`. */
export function valueRows(testid: string, entries: [string, string][]): HTMLElement {
  return h(
    'dl',
    { class: 'counts', testid },
    ...entries.flatMap(([name, value]) => [
      h('dt', { text: name }),
      h('dd', { testid: `${testid}-${name}`, text: value }),
    ]),
  )
}

/**
 * One ingestion task as it progresses: status, stage and counts while it runs, then its result (counts
 * of what was written) or its error.
 */
export function createTaskCard(source: string): {
  element: HTMLElement
  /** Shows a task read (`onProgress`, and the final one). */
  update(task: Task): void
  /** Shows why waiting stopped (a failed poll, or a cancelled wait). */
  stopped(reason: string): void
} {
  const id = h('code', { testid: 'task-id', text: '…' })
  const status = h('span', { class: 'status', testid: 'task-status', text: 'submitting' })
  const stage = h('span', { class: 'stage', testid: 'task-stage' })
  const counts = h('div', { class: 'task-counts' })
  const outcome = h('div', { class: 'task-outcome' })
  const element = h(
    'article',
    { class: 'task card', testid: 'task', attrs: { 'aria-live': 'polite' } },
    h(
      'header',
      { class: 'row' },
      h('strong', { text: source }),
      h('span', { class: 'spacer' }),
      id,
    ),
    h('div', { class: 'row' }, status, stage),
    counts,
    outcome,
  )
  status.dataset.status = 'submitting'
  return {
    element,
    update(task) {
      id.textContent = task.task_id
      status.textContent = task.status
      status.dataset.status = task.status
      stage.textContent = task.stage ? `stage: ${task.stage}` : ''
      replaceChildren(counts, valueRows('task-counts', countRows(task.counts)))
      if (task.status === 'queued' || task.status === 'started') return
      const result = task.result as Record<string, unknown> | null
      const itemErrors = Array.isArray(result?.errors) ? (result.errors as unknown[]) : []
      replaceChildren(
        outcome,
        h('h3', { text: 'Result' }),
        valueRows('task-result', countRows(result)),
        task.error && h('p', { class: 'error-message', testid: 'task-error', text: task.error }),
        itemErrors.length > 0 &&
          h(
            'ul',
            { class: 'item-errors' },
            ...itemErrors.map((e) =>
              h('li', { text: typeof e === 'string' ? e : JSON.stringify(e) }),
            ),
          ),
      )
    },
    stopped(reason) {
      status.textContent = 'not watched'
      status.dataset.status = 'unwatched'
      replaceChildren(
        outcome,
        h('p', { class: 'error-message', testid: 'task-error', text: reason }),
      )
    },
  }
}
