import { el } from './explorer-dom.js'
import type { ColorBy, SizeBy } from './node-styling.js'

/** A labelled `<select>` of `options` (value, text), `testid` on the select. */
export function selectField<T extends string>(
  label: string,
  testid: string,
  options: readonly (readonly [T, string])[],
  onChange: (value: T) => void,
): HTMLElement {
  const select = el('select', { testid, attrs: { id: testid } })
  for (const [value, text] of options) select.append(el('option', { text, attrs: { value } }))
  select.addEventListener('change', () => onChange(select.value as T))
  return el(
    'span',
    { class: 'explorer-field' },
    el('label', { text: label, attrs: { for: testid } }),
    select,
  )
}

/** The size and colour pickers. */
export function styleFields(
  onSize: (by: SizeBy) => void,
  onColor: (by: ColorBy) => void,
): HTMLElement[] {
  return [
    selectField(
      'Size by',
      'explorer-size-by',
      [
        ['degree', 'degree'],
        ['pagerank', 'PageRank'],
      ],
      onSize,
    ),
    selectField(
      'Colour by',
      'explorer-color-by',
      [
        ['label', 'label'],
        ['community', 'community'],
      ],
      onColor,
    ),
  ]
}

/** The shortest-path form's parts. */
export interface PathForm {
  element: HTMLElement
  from: HTMLInputElement
  to: HTMLInputElement
  result: HTMLElement
}

/** "Path from [name] to [name] [Find path] [Clear]": names of drawn entities. */
export function pathForm(find: (from: string, to: string) => void, clear: () => void): PathForm {
  const from = el('input', {
    testid: 'explorer-path-from',
    attrs: { type: 'text', placeholder: 'from (selected)', 'aria-label': 'Path from' },
  })
  const to = el('input', {
    testid: 'explorer-path-to',
    attrs: { type: 'text', placeholder: 'to', 'aria-label': 'Path to' },
  })
  const submit = el('button', {
    testid: 'explorer-path-submit',
    text: 'Find path',
    attrs: { type: 'submit' },
  })
  const reset = el('button', {
    testid: 'explorer-path-clear',
    text: 'Clear path',
    attrs: { type: 'button' },
  })
  const result = el('span', {
    class: 'explorer-muted',
    testid: 'explorer-path-result',
    attrs: { 'aria-live': 'polite' },
  })
  const element = el(
    'form',
    { class: 'explorer-path' },
    el('span', { text: 'Path' }),
    from,
    to,
    submit,
    reset,
    result,
  )
  element.addEventListener('submit', (event) => {
    event.preventDefault()
    find(from.value, to.value)
  })
  reset.addEventListener('click', clear)
  return { element, from, to, result }
}

/** What the canvas shows before anything is drawn, or when a brain has no entity. */
export function emptyState(): {
  element: HTMLElement
  show(kind: 'start' | 'empty-brain' | null): void
} {
  const title = el('strong', {})
  const text = el('p', {})
  const element = el(
    'div',
    { class: 'explorer-empty', testid: 'explorer-empty', attrs: { role: 'note' } },
    title,
    text,
  )
  return {
    element,
    show(kind) {
      element.hidden = kind === null
      if (kind === null) return
      element.dataset.kind = kind
      if (kind === 'start') {
        title.textContent = 'Nothing drawn yet.'
        text.textContent =
          'Type part of an entity’s name above and press Find: a single match opens at once. Or draw the Whole brain. ' +
          'Then click a node for its detail, double-click it to expand it, and hover it to see its relationships.'
      } else {
        title.textContent = 'This brain has no entities yet.'
        text.textContent =
          'Ingest some text in the Ingest tab (entities and relationships are extracted from it), then come back and press Whole brain.'
      }
    },
  }
}
