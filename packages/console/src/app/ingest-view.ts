import { summarizeError, createErrorArea, isAbort } from './error-view.js'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { field, h } from './dom.js'
import { createTaskCard } from './task-card.js'
import { createTaskList } from './task-list.js'

/**
 * The Ingest tab: text (`POST /ingest/`, the box emptied once the server accepted it) or a file
 * (`POST /ingest/file`), then each task watched with `waitForTask` until it ends; below, every task
 * of the brain (`createTaskList`). Waiting stops when the view is disposed (sign out, another brain);
 * the tasks themselves go on on the server.
 */
export function createIngestView(ctx: ConsoleContext): ConsoleView {
  const abort = new AbortController()
  const errors = createErrorArea('ingest-error')
  const tasks = h('div', { class: 'tasks', testid: 'tasks' })
  const startedHere = h('h2', { text: 'Started here' })
  startedHere.hidden = true
  const allTasks = createTaskList(ctx.client, (sourceId) => ctx.openSource(sourceId))

  const text = h('textarea', {
    testid: 'ingest-text',
    attrs: { rows: '6', placeholder: 'Ada Lovelace met Charles Babbage in London in 1833.' },
  })
  const sendText = h('button', {
    testid: 'ingest-text-submit',
    attrs: { type: 'submit' },
    text: 'Ingest text',
  })
  const textForm = h(
    'form',
    { class: 'stack card' },
    h('h2', { text: 'Text' }),
    field('Text to ingest', text),
    sendText,
  )
  textForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const value = text.value
    if (value.trim() === '') return
    void run(sendText, 'text', async () => {
      const accepted = await ctx.client.POST('/ingest/', {
        body: { text: value },
        signal: abort.signal,
      })
      // Sent: the box is ready for the next text (unless it was edited meanwhile).
      if (text.value === value) text.value = ''
      return accepted
    })
  })

  const file = h('input', { testid: 'ingest-file', attrs: { type: 'file' } })
  const sendFile = h('button', {
    testid: 'ingest-file-submit',
    attrs: { type: 'submit' },
    text: 'Ingest file',
  })
  const fileForm = h(
    'form',
    { class: 'stack card' },
    h('h2', { text: 'File' }),
    field(
      'File to ingest',
      file,
      'The server reads the format from the extension (.md, .txt, .json, .pdf…).',
    ),
    sendFile,
  )
  fileForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const chosen = file.files?.[0]
    if (chosen === undefined) return
    void run(sendFile, chosen.name, async () => {
      const accepted = await ctx.client.ingestFile({
        file: chosen,
        filename: chosen.name,
        signal: abort.signal,
      })
      file.value = ''
      return accepted
    })
  })

  async function run(
    button: HTMLButtonElement,
    source: string,
    submit: () => Promise<{ task_id: string }>,
  ) {
    errors.clear()
    button.disabled = true
    let card: ReturnType<typeof createTaskCard> | null = null
    try {
      const { task_id } = await submit()
      card = createTaskCard(source)
      tasks.prepend(card.element)
      startedHere.hidden = false
      button.disabled = false
      void allTasks.reload()
      const task = await ctx.client.waitForTask(task_id, {
        signal: abort.signal,
        onProgress: (t) => card?.update(t),
      })
      card.update(task)
      void allTasks.reload()
    } catch (error) {
      if (isAbort(error)) return
      if (card === null) errors.show(error)
      else card.stopped(`${summarizeError(error).code}: ${summarizeError(error).message}`)
    } finally {
      button.disabled = false
    }
  }

  const element = h(
    'section',
    { class: 'view ingest-view', attrs: { 'aria-label': 'Ingest' } },
    errors.element,
    h('div', { class: 'columns' }, textForm, fileForm),
    startedHere,
    tasks,
    allTasks.element,
  )
  return {
    element,
    show: () => void allTasks.reload(),
    dispose() {
      abort.abort()
      allTasks.dispose()
    },
  }
}
