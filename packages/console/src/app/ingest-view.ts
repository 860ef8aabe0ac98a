import { summarizeError, createErrorArea, isAbort } from './error-view.js'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { field, h } from './dom.js'
import { createTaskCard } from './task-card.js'

/**
 * The Ingest tab: text (`POST /ingest/`) or a file (`POST /ingest/file`), then each task watched with
 * `waitForTask` until it ends. Waiting stops when the view is disposed (sign out, another brain); the
 * tasks themselves go on on the server.
 */
export function createIngestView(ctx: ConsoleContext): ConsoleView {
  const abort = new AbortController()
  const errors = createErrorArea('ingest-error')
  const tasks = h('div', { class: 'tasks', testid: 'tasks' })

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
    void run(sendText, 'text', () =>
      ctx.client.POST('/ingest/', { body: { text: value }, signal: abort.signal }),
    )
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
    void run(sendFile, chosen.name, () =>
      ctx.client.ingestFile({ file: chosen, filename: chosen.name, signal: abort.signal }),
    )
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
      button.disabled = false
      const task = await ctx.client.waitForTask(task_id, {
        signal: abort.signal,
        onProgress: (t) => card?.update(t),
      })
      card.update(task)
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
    h('h2', { text: 'Tasks' }),
    tasks,
  )
  return { element, dispose: () => abort.abort() }
}
