import type { ConsoleContext, ConsoleView } from '../console-context.js'

/** The entity explorer tab (sigma.js over graphology). Placeholder until the explorer lands. */
export function createExplorerView(
  _ctx: ConsoleContext,
): ConsoleView & { focus(uuid: string): void } {
  const element = document.createElement('section')
  element.dataset.view = 'explorer'
  return { element, focus: () => {} }
}
