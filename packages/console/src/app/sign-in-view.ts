import { createEngramClient, type EngramClient } from '@engram/client'
import { field, h, replaceChildren } from './dom.js'
import { createBrainForm } from './create-brain-form.js'
import { createErrorArea } from './error-view.js'
import type { Session } from './session-store.js'

/** A token that passed `GET /meta/login-info`, with the brain it works on. */
export interface SignedIn {
  token: string
  brain: string
  /** The system token may switch brains; a brain token is bound to its own. */
  isSystem: boolean
}

export interface SignInOptions {
  /** The API root (see `serverRoot`). */
  baseUrl: string
  onSignedIn(signedIn: SignedIn): void
  /** The token was refused (or could not be checked): forget any saved copy. */
  onRejected(): void
}

/**
 * The sign-in page: a token form, then for the system token a brain picker fed by
 * `GET /system/brains-list`, with a form to create a brain (`POST /system/brains`). The token goes
 * only into the client's headers and sessionStorage.
 */
export function createSignInView(options: SignInOptions): {
  element: HTMLElement
  /** Resumes a saved session (validating its token again), or shows its brain picker. */
  resume(session: Session): Promise<void>
} {
  const errors = createErrorArea()
  const body = h('div', { class: 'signin-body' })
  const element = h(
    'section',
    { class: 'signin card', attrs: { 'aria-labelledby': 'signin-title' } },
    h('h1', { attrs: { id: 'signin-title' }, text: 'Engram console' }),
    errors.element,
    body,
  )
  const clientFor = (token: string): EngramClient =>
    createEngramClient({ baseUrl: options.baseUrl, token })

  const showTokenForm = () => {
    const token = h('input', {
      testid: 'signin-token',
      attrs: {
        type: 'password',
        autocomplete: 'current-password',
        required: '',
        spellcheck: 'false',
      },
    })
    const submit = h('button', {
      testid: 'signin-submit',
      attrs: { type: 'submit' },
      text: 'Sign in',
    })
    const form = h(
      'form',
      { class: 'stack', testid: 'signin-form' },
      field('Token', token, 'A system token (spat_…) or a brain token.'),
      submit,
    )
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      submit.disabled = true
      void signIn(token.value.trim(), null).finally(() => (submit.disabled = false))
    })
    replaceChildren(body, form)
    token.focus()
  }

  const showBrainPicker = async (token: string, client: EngramClient) => {
    const brains = await client.GET('/system/brains-list')
    const select = h(
      'select',
      { testid: 'brain-select', attrs: { required: '' } },
      ...brains.map((b) => h('option', { attrs: { value: b.id }, text: b.id })),
    )
    const submit = h('button', { testid: 'brain-submit', attrs: { type: 'submit' }, text: 'Open' })
    const back = h('button', {
      class: 'secondary',
      testid: 'brain-back',
      attrs: { type: 'button' },
      text: 'Use another token',
    })
    back.addEventListener('click', () => {
      errors.clear()
      showTokenForm()
    })
    const form = h(
      'form',
      { class: 'stack', testid: 'brain-form' },
      h('p', { text: 'Signed in with the system token. Pick a brain:' }),
      field('Brain', select),
      h('div', { class: 'row' }, submit, back),
    )
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      if (select.value) options.onSignedIn({ token, brain: select.value, isSystem: true })
    })
    // A new brain joins the list, chosen, so "Open" goes straight to it.
    const created = createBrainForm(client, (brainId) => {
      select.append(h('option', { attrs: { value: brainId }, text: brainId }))
      select.value = brainId
    })
    replaceChildren(body, form, created)
    select.focus()
  }

  /** Validates the token; a system token without a brain goes to the picker. */
  const signIn = async (token: string, brain: string | null) => {
    errors.clear()
    try {
      const client = clientFor(token)
      const info = await client.GET('/meta/login-info')
      if (!info.is_system_pat) options.onSignedIn({ token, brain: info.brain_id, isSystem: false })
      else if (brain !== null) options.onSignedIn({ token, brain, isSystem: true })
      else await showBrainPicker(token, client)
    } catch (error) {
      options.onRejected()
      showTokenForm()
      errors.show(error)
    }
  }

  showTokenForm()
  return { element, resume: (session) => signIn(session.token, session.brain) }
}
