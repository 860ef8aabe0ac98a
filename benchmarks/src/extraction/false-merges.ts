import { EVENT, goldKeys, nameKey, type ExtractedNode } from './extraction-metrics.js'
import type { RedocredDoc } from './redocred.js'

/** A node of a brain that holds many documents, with the documents its source passages came from. */
export interface SharedNode extends ExtractedNode {
  readonly docs: readonly string[]
}

export interface FalseMerge {
  readonly node: string
  /** The full names of the gold people it stands for. */
  readonly people: readonly string[]
}

/** A person's full name: the key of their longest mention (`Wilfried Schneider` for `Schneider`). */
function fullName(names: readonly string[]): string {
  const keys = names.flatMap(goldKeys)
  return keys.reduce((a, b) => (b.split(' ').length > a.split(' ').length ? b : a), keys[0] ?? '')
}

/** Two full names of one person: the words of one are all in the other ("barack obama", "barack hussein obama"). */
function samePerson(a: string, b: string): boolean {
  const wa = new Set(a.split(' '))
  const wb = new Set(b.split(' '))
  return [...wa].every((w) => wb.has(w)) || [...wb].every((w) => wa.has(w))
}

/**
 * Nodes of a shared brain that stand for different people: in each of the node's source documents, the gold
 * PER entities one of its names matches (by `nameKey`), and among all of them two whose full names are not
 * one person's (neither's words contain the other's). Two people sharing a surname merged into one node
 * ("Schneider" for Willi Schneider and for Romy Schneider) is such a merge; one person named in two
 * documents is not.
 */
export function falseMerges(
  nodes: readonly SharedNode[],
  docs: ReadonlyMap<string, RedocredDoc>,
): FalseMerge[] {
  const out: FalseMerge[] = []
  for (const node of nodes) {
    if (node.labels.includes(EVENT)) continue
    const keys = new Set(node.names.map(nameKey))
    const people = new Set<string>()
    for (const id of node.docs) {
      for (const e of docs.get(id)?.entities ?? []) {
        if (e.type !== 'PER' || !e.names.some((n) => goldKeys(n).some((k) => keys.has(k)))) continue
        people.add(fullName(e.names))
      }
    }
    const list = [...people]
    if (list.some((a, i) => list.slice(i + 1).some((b) => !samePerson(a, b))))
      out.push({ node: node.names[0] ?? node.uuid, people: list.sort() })
  }
  return out
}
