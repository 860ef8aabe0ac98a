import { field, h } from './dom.js'
import { BUILTIN_CHANNELS, DEFAULT_CHANNELS, type ChannelChoice } from './search-choices.js'

/** A toggle's tooltip: built-in or plugin, and what its lists hold. */
function toggleTitle(choice: ChannelChoice): string {
  return `${choice.builtin ? 'built-in' : 'plugin'}; finds ${choice.yields}`
}

/**
 * The Channels fieldset: one checkbox per channel, then a "More channels" text box for names typed
 * by hand (comma-separated `plugin:<name>`). It starts with the built-ins, `passages` ticked, and
 * `fill` sets the channels the server listed: toggles already shown are kept as they are (ticked or
 * not, focused or not), new ones are inserted in the list's order, unlisted ones removed. Each
 * checkbox is `search-channel-<name>`; the fieldset carries `data-source` (`builtin`, then `server`).
 */
export function channelToggles(): {
  element: HTMLFieldSetElement
  /** The ticked channels, in the order shown. */
  checked(): string[]
  /** What "More channels" holds, as typed. */
  extra(): string
  fill(channels: readonly ChannelChoice[]): void
} {
  /** Each shown toggle's label (its checkbox inside), by channel name. */
  const toggles = new Map<string, HTMLLabelElement>()
  const extra = h('input', {
    testid: 'search-extra-channels',
    attrs: { type: 'text', placeholder: 'plugin:<name>, …' },
  })
  const more = field('More channels', extra)
  const legend = h('legend', { text: 'Channels' })
  const element = h(
    'fieldset',
    { class: 'row', testid: 'search-channels', attrs: { 'data-source': 'builtin' } },
    legend,
    more,
  )

  const toggle = (choice: ChannelChoice) => {
    const known = toggles.get(choice.name)
    if (known !== undefined) return known
    const box = h('input', {
      testid: `search-channel-${choice.name}`,
      attrs: { type: 'checkbox', value: choice.name },
    })
    box.checked = DEFAULT_CHANNELS.includes(choice.name)
    const label = h(
      'label',
      { class: 'check', attrs: { title: toggleTitle(choice) } },
      box,
      ` ${choice.name}`,
    )
    toggles.set(choice.name, label)
    return label
  }

  const fill = (channels: readonly ChannelChoice[]) => {
    const listed = new Set(channels.map((c) => c.name))
    for (const [name, label] of toggles) {
      if (listed.has(name)) continue
      label.remove()
      toggles.delete(name)
    }
    // Walk the list and the fieldset together, moving only what is out of place: a toggle that stays
    // put keeps the keyboard focus.
    let at: ChildNode | null = legend.nextSibling
    for (const choice of channels) {
      const label = toggle(choice)
      if (label === at) at = at.nextSibling
      else element.insertBefore(label, at)
    }
  }
  fill(BUILTIN_CHANNELS)

  return {
    element,
    // In the order shown, which is the order sent: under fusion `none` the first list wins.
    checked: () =>
      [...element.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')]
        .filter((box) => box.checked)
        .map((box) => box.value),
    extra: () => extra.value,
    fill: (channels) => {
      fill(channels)
      element.setAttribute('data-source', 'server')
    },
  }
}
