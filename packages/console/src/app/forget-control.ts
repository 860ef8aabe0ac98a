import { h, replaceChildren } from './dom.js'

/**
 * The "Forget" button of an open source, with its confirmation step: the first click only asks (an
 * in-page question with "Forget permanently" and "Cancel", focus on Cancel so Enter does not confirm
 * by habit); the second, explicit click calls `onConfirm`. Escape or Cancel goes back to the button.
 * In-page rather than `window.confirm`, which blocks the page, cannot be styled, and which a headless
 * test would have to dismiss through the browser instead of the DOM.
 */
export function forgetControl(label: string, passages: number, onConfirm: () => void): HTMLElement {
  const element = h('div', { class: 'forget', testid: 'source-forget-area' })
  const ask = h('button', {
    class: 'danger',
    testid: 'source-forget',
    attrs: { type: 'button' },
    text: 'Forget…',
  })
  ask.addEventListener('click', confirmStep)
  element.append(ask)

  function confirmStep() {
    const question = h('p', {
      attrs: { id: `forget-question-${++questions}` },
      text:
        `Forget “${label}”? Its ${passages} passage${passages === 1 ? '' : 's'} and every entity, ` +
        'relationship and observation only it supports are removed from every store and index, and ' +
        'history quoting it is redacted. This cannot be undone.',
    })
    const confirm = h('button', {
      class: 'danger',
      testid: 'source-forget-confirm',
      attrs: { type: 'button' },
      text: 'Forget permanently',
    })
    const cancel = h('button', {
      class: 'secondary',
      testid: 'source-forget-cancel',
      attrs: { type: 'button' },
      text: 'Cancel',
    })
    const box = h(
      'div',
      {
        class: 'confirm',
        testid: 'source-forget-confirmation',
        attrs: { role: 'group', 'aria-labelledby': question.id },
      },
      question,
      h('div', { class: 'row' }, confirm, cancel),
    )
    const back = () => {
      replaceChildren(element, ask)
      ask.focus()
    }
    cancel.addEventListener('click', back)
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !confirm.disabled) back()
    })
    confirm.addEventListener('click', () => {
      confirm.disabled = true
      cancel.disabled = true
      onConfirm()
    })
    replaceChildren(element, box)
    cancel.focus()
  }

  return element
}

let questions = 0
