import type { Engram } from '@engram/core'

/** How brain A's stored graph differs from brain B's (see {@link graphDiff}). */
export interface GraphDiff {
  /** Per kind (`entity.name`, `entity only in A`, ...), how many records differ. Empty: the same graph. */
  readonly counts: Record<string, number>
  /** A few of each kind, with A's and B's value. */
  readonly examples: readonly { what: string; a?: unknown; b?: unknown }[]
}

/** Every record of a repository with `scan`, keyed by id. */
async function scanAll<T>(
  scan: (after: string | null, limit: number) => Promise<T[]>,
  id: (record: T) => string,
): Promise<Map<string, T>> {
  const out = new Map<string, T>()
  for (let after: string | null = null; ;) {
    const page = await scan(after, 1000)
    for (const r of page) out.set(id(r), r)
    if (page.length < 1000) return out
    after = id(page[page.length - 1]!)
  }
}

/** Fields of when a record was written, not what it says. */
const TIME_FIELD = /At$|timestamp|lastUpdated/i
/** Differences kept as examples, per kind. */
const EXAMPLES = 3

/**
 * Where A's graph differs from B's, record by record (same ids: same task ids): records only one
 * brain has, and per field (`entity.description`, `relationship.sourcePassageIds`...) how many
 * records differ. Times (`...At`, `timestamp`) are left out: the two brains were written at
 * different moments.
 */
export async function graphDiff(a: Engram, b: Engram, brain: string): Promise<GraphDiff> {
  const counts: Record<string, number> = {}
  const examples: { what: string; a: unknown; b: unknown }[] = []
  const bump = (what: string, a: unknown, b: unknown) => {
    counts[what] = (counts[what] ?? 0) + 1
    if (counts[what] <= EXAMPLES) examples.push({ what, a, b })
  }
  const [sa, sb] = [await a.store(brain), await b.store(brain)]
  const kinds = [
    ['entity', (s: typeof sa) => scanAll(s.entities.scan.bind(s.entities), (e) => e.uuid)],
    [
      'relationship',
      (s: typeof sa) => scanAll(s.relationships.scan.bind(s.relationships), (r) => r.uuid),
    ],
  ] as const
  for (const [kind, read] of kinds) {
    const [ra, rb] = [await read(sa), await read(sb)]
    for (const id of new Set([...ra.keys(), ...rb.keys()])) {
      const x = ra.get(id) as Record<string, unknown> | undefined
      const y = rb.get(id) as Record<string, unknown> | undefined
      if (x === undefined || y === undefined) {
        bump(
          `${kind} only in ${x === undefined ? 'B' : 'A'}`,
          x?.name ?? x?.type,
          y?.name ?? y?.type,
        )
        continue
      }
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)]))
        if (!TIME_FIELD.test(key) && JSON.stringify(x[key]) !== JSON.stringify(y[key]))
          bump(`${kind}.${key}`, x[key], y[key])
    }
  }
  return { counts, examples }
}
