/** What `el` sets on a new element. */
export interface ElementProps {
  class?: string
  /** `data-testid`, the stable handle of the end-to-end tests and the benchmark. */
  testid?: string
  text?: string
  attrs?: Record<string, string>
}

/** A new element with its props and children (text children are set as text, never parsed as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (props.class !== undefined) element.className = props.class
  if (props.testid !== undefined) element.dataset.testid = props.testid
  if (props.text !== undefined) element.textContent = props.text
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value)
  element.append(...children)
  return element
}
