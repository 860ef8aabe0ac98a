import { createEngramClient } from '@engram/client'
import { clearSession, loadSession, saveSession } from './session-store.js'
import { createShell } from './shell.js'
import { createSignInView, type SignedIn } from './sign-in-view.js'

/**
 * The console's states: signed out (token form), picking a brain (system token), signed in (the shell).
 * The token lives in this closure, the client's headers and sessionStorage; never in the URL or a log.
 */
export function startConsole(root: HTMLElement, baseUrl: string): void {
  let dispose: (() => void) | null = null

  const mount = (element: HTMLElement, release: (() => void) | null = null) => {
    dispose?.()
    dispose = release
    root.replaceChildren(element)
  }

  const signedOut = () => {
    clearSession()
    mount(createSignInView({ baseUrl, onSignedIn: signedIn, onRejected: clearSession }).element)
  }

  const pickBrain = (token: string) => {
    saveSession({ token, brain: null })
    const view = createSignInView({ baseUrl, onSignedIn: signedIn, onRejected: clearSession })
    mount(view.element)
    void view.resume({ token, brain: null })
  }

  function signedIn({ token, brain, isSystem }: SignedIn) {
    saveSession({ token, brain })
    const shell = createShell({
      client: createEngramClient({ baseUrl, token, brain }),
      brain,
      isSystem,
      onSignOut: signedOut,
      onChangeBrain: () => pickBrain(token),
    })
    mount(shell.element, shell.dispose)
  }

  const saved = loadSession()
  const view = createSignInView({ baseUrl, onSignedIn: signedIn, onRejected: clearSession })
  mount(view.element)
  if (saved !== null) void view.resume(saved)
}
