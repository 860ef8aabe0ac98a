import { EngramError } from '@engram/client'
import { el } from './explorer-dom.js'

/**
 * A failed call as the user should see it: the envelope's code, message and resolution (and the request
 * id to quote), never a blank area. Anything that is not an `EngramError` shows its message.
 */
export function errorBox(error: unknown, testid = 'explorer-error'): HTMLElement {
  const box = el('div', { class: 'explorer-error', testid, attrs: { role: 'alert' } })
  if (error instanceof EngramError) {
    box.append(
      el('strong', { class: 'explorer-error-code', text: error.code }),
      el('span', { text: ` ${error.message}` }),
    )
    if (error.resolution !== '') box.append(el('p', { text: error.resolution }))
    if (error.request_id !== null) {
      box.append(el('p', { class: 'explorer-muted', text: `request ${error.request_id}` }))
    }
  } else {
    box.append(
      el('strong', { class: 'explorer-error-code', text: 'ERROR' }),
      el('span', { text: ` ${error instanceof Error ? error.message : String(error)}` }),
    )
  }
  return box
}
