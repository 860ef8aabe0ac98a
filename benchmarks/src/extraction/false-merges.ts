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

/** A person's full name: the longest of their mentions' keys (`Wilfried Schneider` for `Schneider`). */
function fullName(keys: readonly string[]): string {
  return keys.reduce((a, b) => (b.split(' ').length > a.split(' ').length ? b : a), keys[0] ?? '')
}

/** A gold person as the check compares them: their full name and the keys of all their mentions. */
interface Person {
  readonly full: string
  readonly keys: ReadonlySet<string>
}

/**
 * Two gold people are one: the words of one full name are all in the other ("barack obama", "barack
 * hussein obama"), or one's full name is a mention of the other, as the gold set names one person two
 * ways ("Benedict XVI" in one document; "Joseph Cardinal Ratzinger" and "Benedict XVI" in another). A
 * shared surname alone is neither: "Schneider" is no full name.
 */
function samePerson(a: Person, b: Person): boolean {
  const wa = new Set(a.full.split(' '))
  const wb = new Set(b.full.split(' '))
  return (
    [...wa].every((w) => wb.has(w)) ||
    [...wb].every((w) => wa.has(w)) ||
    a.keys.has(b.full) ||
    b.keys.has(a.full)
  )
}

/**
 * Nodes of a shared brain that stand for different people: in each of the node's source documents, the gold
 * PER entities one of its names matches (by `nameKey`), and among all of them two that are not one person
 * (`samePerson`). Two people sharing a surname merged into one node
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
    const people = new Map<string, Person>()
    for (const id of node.docs) {
      for (const e of docs.get(id)?.entities ?? []) {
        if (e.type !== 'PER') continue
        const mentionKeys = e.names.flatMap(goldKeys)
        if (!mentionKeys.some((k) => keys.has(k))) continue
        const full = fullName(mentionKeys)
        const known = people.get(full)?.keys ?? []
        people.set(full, { full, keys: new Set([...known, ...mentionKeys]) })
      }
    }
    const list = [...people.values()]
    if (list.some((a, i) => list.slice(i + 1).some((b) => !samePerson(a, b))))
      out.push({ node: node.names[0] ?? node.uuid, people: [...people.keys()].sort() })
  }
  return out
}
