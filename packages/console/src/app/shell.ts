import type { EngramClient } from '@engram/client'
import { createChangelogView } from './changelog-view.js'
import type { ConsoleContext, ConsoleView } from './console-context.js'
import { h } from './dom.js'
import { createExplorerView } from './explorer/explorer-view.js'
import { createIngestView } from './ingest-view.js'
import { createSearchView } from './search-view.js'
import { createSourcesView } from './sources-view.js'

export interface ShellOptions {
  client: EngramClient
  brain: string
  /** The system token may pick another brain. */
  isSystem: boolean
  onSignOut(): void
  onChangeBrain(): void
}

/** The tabs, in order. */
export const TABS = ['ingest', 'sources', 'search', 'explorer', 'changelog'] as const
export type TabName = (typeof TABS)[number]

const TAB_TITLES: Record<TabName, string> = {
  ingest: 'Ingest',
  sources: 'Sources',
  search: 'Search',
  explorer: 'Explorer',
  changelog: 'Changelog',
}

/**
 * The signed-in console: a header (brain, change brain, sign out) and one tab per view. Every view is
 * built once per brain and disposed with the shell.
 */
export function createShell(options: ShellOptions): { element: HTMLElement; dispose(): void } {
  let explorer: ReturnType<typeof createExplorerView> | null = null
  let sources: ReturnType<typeof createSourcesView> | null = null
  const ctx: ConsoleContext = {
    client: options.client,
    brain: options.brain,
    openEntity(uuid) {
      select('explorer')
      explorer?.focus(uuid)
    },
    openSource(sourceId) {
      select('sources')
      sources?.open(sourceId)
    },
  }
  explorer = createExplorerView(ctx)
  sources = createSourcesView(ctx)
  const views: Record<TabName, ConsoleView> = {
    ingest: createIngestView(ctx),
    sources,
    search: createSearchView(ctx),
    explorer,
    changelog: createChangelogView(ctx),
  }

  const tabs = new Map<TabName, HTMLButtonElement>()
  const panels = new Map<TabName, HTMLElement>()
  const tabList = h('nav', { class: 'tabs', attrs: { role: 'tablist', 'aria-label': 'Views' } })
  const main = h('main', { class: 'panels' })
  for (const name of TABS) {
    const tab = h('button', {
      class: 'tab',
      testid: `tab-${name}`,
      attrs: { type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': `panel-${name}` },
      text: TAB_TITLES[name],
    })
    tab.addEventListener('click', () => select(name))
    tab.addEventListener('keydown', (event) => {
      // Arrow keys move between tabs (WAI-ARIA tabs pattern).
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
      if (step === 0) return
      const next = TABS[(TABS.indexOf(name) + step + TABS.length) % TABS.length]!
      select(next)
      tabs.get(next)!.focus()
    })
    const panel = h(
      'div',
      {
        class: 'panel',
        testid: `panel-${name}`,
        attrs: { role: 'tabpanel', id: `panel-${name}`, 'aria-labelledby': `tab-${name}` },
      },
      views[name].element,
    )
    tabs.set(name, tab)
    panels.set(name, panel)
    tabList.append(tab)
    main.append(panel)
  }

  const signOut = h('button', {
    class: 'secondary',
    testid: 'sign-out',
    attrs: { type: 'button' },
    text: 'Sign out',
  })
  signOut.addEventListener('click', () => options.onSignOut())
  const changeBrain =
    options.isSystem &&
    h('button', {
      class: 'secondary',
      testid: 'change-brain',
      attrs: { type: 'button' },
      text: 'Change brain',
    })
  if (changeBrain) changeBrain.addEventListener('click', () => options.onChangeBrain())

  const element = h(
    'div',
    { class: 'shell' },
    h(
      'header',
      { class: 'shell-header' },
      h('span', { class: 'logo', text: 'Engram' }),
      h(
        'span',
        { class: 'brain' },
        'brain ',
        h('strong', { testid: 'brain-name', text: options.brain }),
      ),
      h('span', { class: 'spacer' }),
      changeBrain,
      signOut,
    ),
    tabList,
    main,
  )

  let current: TabName | null = null
  function select(name: TabName) {
    if (current === name) return
    current = name
    for (const tab of TABS) {
      const selected = tab === name
      tabs.get(tab)!.setAttribute('aria-selected', String(selected))
      tabs.get(tab)!.tabIndex = selected ? 0 : -1
      panels.get(tab)!.hidden = !selected
    }
    views[name].show?.()
  }
  // Shown once the shell is attached, so a view's first `show` can measure its element.
  queueMicrotask(() => select(current ?? 'ingest'))

  return {
    element,
    dispose() {
      for (const view of Object.values(views)) view.dispose?.()
    },
  }
}
