import type { EngramClient } from '@engram/client'

/** What every view of the console is given once the user has signed in and picked a brain. */
export interface ConsoleContext {
  /** Signed in (token in memory), sending the chosen brain as `X-Brain-ID`. */
  client: EngramClient
  /** The chosen brain. */
  brain: string
  /** Shows the entity explorer focused on one entity (from a search hit, a changelog entry...). */
  openEntity(uuid: string): void
  /** Shows the Sources tab with one source open (from a search hit's source link). */
  openSource(sourceId: string): void
}

/** A tab of the console: an element the shell mounts, told when it is shown and when it goes away. */
export interface ConsoleView {
  readonly element: HTMLElement
  /** Called each time the tab is shown (the element is attached and visible). */
  show?(): void
  /** Called when the brain changes or the user signs out; release listeners, renderers, timers. */
  dispose?(): void
}
