import { EngramError, type EngramClient } from '@engram/client'
import { field, h, replaceChildren } from './dom.js'
import { createErrorArea } from './error-view.js'

/** Brain ids the server accepts (CONTRACT.md section 1); checked here first for a quick answer. */
export const BRAIN_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/

/**
 * "Create a brain" for the system token: `POST /system/brains`, then the brain's token (`pat`), shown
 * this once (the server keeps only its hash) in a read-only field with a copy button and a note to
 * store it now. `onCreated` lets the picker list and select the new brain.
 */
export function createBrainForm(
  client: EngramClient,
  onCreated: (brainId: string) => void,
): HTMLElement {
  const errors = createErrorArea('create-brain-error')
  const id = h('input', {
    testid: 'create-brain-id',
    attrs: {
      type: 'text',
      required: '',
      maxlength: '64',
      spellcheck: 'false',
      placeholder: 'research-notes',
    },
  })
  const submit = h('button', {
    class: 'secondary',
    testid: 'create-brain-submit',
    attrs: { type: 'submit' },
    text: 'Create brain',
  })
  const result = h('div', {
    class: 'stack',
    testid: 'create-brain-result',
    attrs: { 'aria-live': 'polite' },
  })
  const form = h(
    'form',
    { class: 'stack create-brain', testid: 'create-brain-form' },
    h('h2', { text: 'New brain' }),
    field('Brain id', id, 'A letter, then letters, digits, - or _ (64 at most).'),
    submit,
    errors.element,
    result,
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void create(id.value.trim())
  })

  async function create(brainId: string) {
    errors.clear()
    result.replaceChildren()
    if (!BRAIN_ID.test(brainId)) {
      errors.show(
        new EngramError({
          status: 0,
          code: 'VALIDATION_ERROR',
          message: `“${brainId}” is not a brain id.`,
          resolution: 'Start with a letter, then up to 63 letters, digits, - or _.',
        }),
      )
      return
    }
    submit.disabled = true
    try {
      const created = await client.POST('/system/brains', { body: { brain_id: brainId } })
      id.value = ''
      replaceChildren(result, tokenOnce(created.id, created.pat))
      onCreated(created.id)
    } catch (error) {
      errors.show(error)
    } finally {
      submit.disabled = false
    }
  }
  return form
}

/** The new brain's token, shown once, with a copy button. */
function tokenOnce(brainId: string, pat: string): HTMLElement {
  const token = h('input', {
    class: 'token-once',
    testid: 'created-brain-pat',
    attrs: { type: 'text', readonly: '', spellcheck: 'false', 'aria-label': `Token of ${brainId}` },
  })
  token.value = pat
  token.addEventListener('focus', () => token.select())
  const copy = h('button', {
    class: 'secondary',
    testid: 'created-brain-copy',
    attrs: { type: 'button' },
    text: 'Copy',
  })
  const copied = h('span', {
    class: 'hint',
    testid: 'created-brain-copied',
    attrs: { 'aria-live': 'polite' },
  })
  copy.addEventListener('click', () => {
    token.select()
    void navigator.clipboard
      ?.writeText(pat)
      .then(() => (copied.textContent = 'Copied.'))
      .catch(() => (copied.textContent = 'Select the token and press Ctrl+C (⌘C).'))
  })
  return h(
    'div',
    { class: 'token-box stack', testid: 'created-brain' },
    h(
      'p',
      {},
      'Created ',
      h('strong', { testid: 'created-brain-id', text: brainId }),
      '. Its token:',
    ),
    h('div', { class: 'row' }, token, copy, copied),
    h('p', {
      class: 'hint',
      text: 'Shown this once: the server keeps only a hash. Copy it now into your secret store; the system token can rotate it later (POST /system/brains/{brain_id}/rotate-token).',
    }),
  )
}
