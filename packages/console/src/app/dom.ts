/** What `h` sets on a new element; everything else is done on the element itself. */
export interface ElementProps {
  /** Space-separated class names. */
  class?: string
  /** `data-testid`, the stable handle the end-to-end tests use. */
  testid?: string
  /** Plain attributes (`type`, `for`, `aria-label`...). Never `style`: the CSP forbids inline styles. */
  attrs?: Record<string, string>
  /** The element's text (set as text, never parsed as HTML). */
  text?: string
}

/** Something `h` can append: a node, text, or nothing (`null`, `undefined`, `false` are skipped). */
export type Child = Node | string | null | undefined | false

/**
 * Creates an element. Text always goes in as text nodes, so nothing a server sends is parsed as markup;
 * the console never assigns `innerHTML`.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (props.class !== undefined) element.className = props.class
  if (props.testid !== undefined) element.dataset.testid = props.testid
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value)
  if (props.text !== undefined) element.textContent = props.text
  append(element, ...children)
  return element
}

/** Appends children, skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child)
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, ...children)
}

/** A labelled form field: `<label>` text above the control, tied by id for screen readers. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  control.id ||= `field-${++fieldCount}`
  return h(
    'div',
    { class: 'field' },
    h('label', { attrs: { for: control.id }, text: label }),
    control,
    hint === undefined ? null : h('small', { class: 'hint', text: hint }),
  )
}

let fieldCount = 0
