import type { Changelog } from '@engram/client'

/** A node a changelog entry touched, and in which role. */
export interface TouchedNode {
  role: 'node' | 'subject' | 'object'
  uuid: string
  name: string
  labels: string[]
}

/** What one entry touched: its nodes (the node, or a relationship's subject and object) and predicate. */
export function changelogTouches(entry: Changelog): {
  nodes: TouchedNode[]
  predicate: string | null
  properties: string[]
} {
  const change = entry.change
  const nodes: TouchedNode[] = []
  for (const role of ['node', 'subject', 'object'] as const) {
    const node = change[role]
    if (node?.uuid)
      nodes.push({ role, uuid: node.uuid, name: node.name || node.uuid, labels: node.labels ?? [] })
  }
  return {
    nodes,
    predicate: change.predicate?.name ?? null,
    properties: (change.properties ?? []).map((p) => p.property),
  }
}

/**
 * Entries newest first. The server already lists them so; sorting again keeps a page right whatever the
 * adapter, and the sort is stable, so entries of the same millisecond keep the server's order.
 */
export function newestFirst(entries: readonly Changelog[]): Changelog[] {
  return [...entries].sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))
}
