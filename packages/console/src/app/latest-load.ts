import type { createErrorArea } from './error-view.js'

/**
 * One read at a time for a view's `element`: a new `run` aborts the one before it, and
 * `element.dataset.state` says `loading`, then `done` or `error` (for people and tests). A failure
 * shows in `errors` unless a newer run superseded it; `onError` then tidies the view first.
 */
export function latestLoad(element: HTMLElement, errors: ReturnType<typeof createErrorArea>) {
  let abort = new AbortController()
  return {
    async run(work: (signal: AbortSignal) => Promise<void>, onError?: () => void): Promise<void> {
      abort.abort()
      abort = new AbortController()
      const signal = abort.signal
      element.dataset.state = 'loading'
      errors.clear()
      try {
        await work(signal)
        element.dataset.state = 'done'
      } catch (error) {
        if (signal.aborted) return
        onError?.()
        errors.show(error)
        element.dataset.state = 'error'
      }
    },
    /** Aborts the running read, if any (a view closed or disposed). */
    abort: () => abort.abort(),
  }
}
