import { EngramError } from '@engram/client'
import { h, replaceChildren } from './dom.js'

/** What the console shows of a failure: the envelope's code, message and resolution when there is one. */
export interface ErrorSummary {
  code: string
  message: string
  resolution: string
  requestId: string | null
}

/** Reads any thrown value as an `ErrorSummary` (an `EngramError` keeps its code and resolution). */
export function summarizeError(error: unknown): ErrorSummary {
  if (error instanceof EngramError) {
    return {
      code: error.code,
      message: error.message,
      resolution: error.resolution,
      requestId: error.request_id,
    }
  }
  return {
    code: 'CONSOLE_ERROR',
    message: error instanceof Error ? error.message : String(error),
    resolution: 'Reload the page; if it persists, check the server log.',
    requestId: null,
  }
}

/** True for the rejection of an aborted wait or request: not an error to show. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

/**
 * A visible error area (`role="alert"`, `data-testid="error"`): empty and hidden until `show`, so a failed
 * call never leaves a blank page.
 */
export function createErrorArea(testid = 'error'): {
  element: HTMLElement
  show(error: unknown): void
  clear(): void
} {
  const element = h('div', { class: 'error-area', testid, attrs: { role: 'alert' } })
  element.hidden = true
  return {
    element,
    show(error) {
      if (isAbort(error)) return
      const s = summarizeError(error)
      replaceChildren(
        element,
        h('strong', { class: 'error-code', testid: `${testid}-code`, text: s.code }),
        h('span', { class: 'error-message', testid: `${testid}-message`, text: ` ${s.message}` }),
        s.resolution && h('p', { class: 'error-resolution', text: s.resolution }),
        s.requestId && h('p', { class: 'error-request', text: `request ${s.requestId}` }),
      )
      element.hidden = false
    },
    clear() {
      element.replaceChildren()
      element.hidden = true
    },
  }
}
