import type { Changelog } from '@engram/client'
import { changelogTouches } from './changelog-touches.js'
import { h } from './dom.js'
import { factTime, type WireTimed } from './explorer/fact-window.js'

/** A value of a property change, short: strings as they are, the rest as JSON. */
const shown = (value: unknown) =>
  value === undefined ? '∅' : typeof value === 'string' ? value : JSON.stringify(value)

/** The window an entry states (`relationship_invalidated` carries it at its top level), or null. */
export function entryWindow(entry: Changelog): WireTimed | null {
  const change = entry.change as Record<string, unknown>
  const valid = change.valid_at
  const invalid = change.invalid_at
  if (typeof valid !== 'string' && typeof invalid !== 'string') return null
  return {
    valid_at: typeof valid === 'string' ? valid : null,
    invalid_at: typeof invalid === 'string' ? invalid : null,
    properties:
      typeof change.invalidated_by === 'string' ? { invalidated_by: change.invalidated_by } : {},
  }
}

/**
 * One changelog entry: its type, the nodes it touched (each opens in the explorer), the predicate of a
 * relationship, and, unfolded, the property changes (before → after). A fact's window is shown where
 * the entry carries one (`relationship_invalidated`: valid from → to, and the fact that ended it),
 * with its state at `at` (the tab's "As of", else now).
 */
export function changelogEntryItem(
  entry: Changelog,
  openEntity: (uuid: string) => void,
  at: { ms: number; label: string },
): HTMLElement {
  const touches = changelogTouches(entry)
  const nodes = touches.nodes.map((node) => {
    const button = h('button', {
      class: 'link',
      testid: 'changelog-node',
      attrs: { type: 'button', title: `${node.role} ${node.uuid}`, 'data-uuid': node.uuid },
      text: node.name,
    })
    button.addEventListener('click', () => openEntity(node.uuid))
    return h(
      'span',
      { class: 'touched-node' },
      button,
      ...node.labels.map((label) => h('span', { class: 'badge muted', text: label })),
    )
  })
  const predicate = (text: string) =>
    h('span', { class: 'predicate', testid: 'changelog-predicate', text })
  // A relationship reads subject -predicate-> object; a node change lists its node.
  const touched =
    touches.predicate !== null && nodes.length === 2
      ? [nodes[0]!, predicate(` ${touches.predicate} `), nodes[1]!]
      : [...nodes, touches.predicate !== null && predicate(` ${touches.predicate}`)]
  const window = entryWindow(entry)
  const time = window === null ? null : factTime(window, at.ms)
  const endedBy = (entry.change as Record<string, unknown>).invalidated_by
  const properties = entry.change.properties ?? []
  const details: HTMLElement[] = []
  if (properties.length > 0)
    details.push(
      h(
        'ul',
        { class: 'property-changes', testid: 'changelog-properties' },
        ...properties.map((p) =>
          h(
            'li',
            {},
            h('code', { text: p.property }),
            ` ${shown(p.previous_value)} → ${shown(p.new_value)}`,
          ),
        ),
      ),
    )
  const description = entry.change.predicate?.description || entry.change.node?.description
  if (description) details.push(h('p', { class: 'hint', text: description }))
  return h(
    'li',
    {
      class: `timeline-entry${time?.state === 'ended' ? ' fact-ended' : ''}`,
      testid: 'changelog-entry',
      attrs: { 'data-type': entry.type, ...(time ? { 'data-fact-state': time.state } : {}) },
    },
    h(
      'div',
      { class: 'row' },
      h('span', { class: 'badge', testid: 'changelog-entry-type', text: entry.type }),
      h('div', { class: 'touched' }, ...touched),
    ),
    time !== null &&
      h(
        'p',
        { class: 'fact-window', testid: 'changelog-window' },
        time.text || 'no window',
        typeof endedBy === 'string' &&
          h(
            'span',
            {},
            ' · ended by ',
            h('code', { attrs: { title: endedBy }, text: endedBy.slice(0, 8) }),
          ),
        h('span', {
          testid: 'changelog-fact-state',
          text: ` · ${at.label}: ${time.state === 'valid' ? 'true' : time.state === 'ended' ? 'no longer true' : 'not yet true'}`,
        }),
      ),
    details.length > 0 &&
      h('details', { class: 'entry-details' }, h('summary', { text: 'details' }), ...details),
  )
}
