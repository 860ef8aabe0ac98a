/** Where the signed-in token and brain live between reloads of one tab: sessionStorage, never a URL. */
export interface Session {
  token: string
  /** The chosen brain, or null while a system token has not picked one. */
  brain: string | null
}

const TOKEN_KEY = 'engram.console.token'
const BRAIN_KEY = 'engram.console.brain'

/** The saved session, or null. Storage may be unavailable (privacy modes): then nothing is kept. */
export function loadSession(): Session | null {
  try {
    const token = sessionStorage.getItem(TOKEN_KEY)
    return token ? { token, brain: sessionStorage.getItem(BRAIN_KEY) } : null
  } catch {
    return null
  }
}

export function saveSession(session: Session): void {
  try {
    sessionStorage.setItem(TOKEN_KEY, session.token)
    if (session.brain === null) sessionStorage.removeItem(BRAIN_KEY)
    else sessionStorage.setItem(BRAIN_KEY, session.brain)
  } catch {
    // Kept in memory only.
  }
}

export function clearSession(): void {
  try {
    sessionStorage.removeItem(TOKEN_KEY)
    sessionStorage.removeItem(BRAIN_KEY)
  } catch {
    // Nothing was stored.
  }
}
