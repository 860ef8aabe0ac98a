/**
 * compromise's rule sweep (`methods.one.bulkMatch`: its post-tagger runs it on every parse, `match`
 * with a list of patterns too), with a sentence's candidate rules gathered without the garbage. Source:
 * compromise 14.17.0 (MIT, Spencer Kelly), `src/1-one/sweep/methods/sweep/` (`index.js`,
 * `01-getHooks.js`, `02-trim-down.js`, `04-runMatch.js`): the same steps in the same order, so the same
 * matches and tags.
 *
 * The original, per sentence of every parse, lists the rule index's keys again (`Object.keys`: 730 for
 * the post-tagger), concatenates the rule lists of the keys the sentence holds one `concat` at a time
 * (hundreds of rules), drops repeated patterns through an object keyed by pattern, then filters the
 * list three times and again for its minimum words, each filter a new array. Here the keys are listed
 * once per index, the candidates are collected in one list with a `Set` of patterns, and one filter
 * applies the four conditions. Parsing LoCoMo dev's 2,760 turns in one process with the two sweeps
 * alternating turn by turn, the local extractor took 0.93-1.02 ms a turn against 1.17-1.27 ms (0.80-0.81
 * of the time over five passes), with identical extractions; `nlp().json()` of 6,150 texts (SciFact,
 * Re-DocRED, MuSiQue, LoCoMo) was identical term for term (benchmarks/LOG.md, 2026-11-30).
 */

/** A parsed match rule of compromise's sweep (the fields this code reads). */
interface SweepRule {
  readonly match: string
  readonly needs: readonly string[]
  readonly wants: readonly string[]
  readonly minWant: number
  readonly minWords: number
  readonly ifNo?: readonly string[]
  readonly unTag?: unknown
}

/** An index of rules by the word or `#Tag` a sentence must hold for them (`buildNet`). */
interface SweepNet {
  readonly hooks: Record<string, SweepRule[]>
  readonly always: SweepRule[]
}

interface SweepMethods {
  one: {
    cacheDoc(document: unknown[][]): Set<string>[]
    match(docs: unknown[][], rule: SweepRule): { ptrs: unknown[][] }
  }
}

/** A rule that matched, at `pointer` (sentence, start, end). */
type Found = Omit<SweepRule, 'unTag'> & { unTag?: unknown; pointer: unknown[] }

type BulkMatch = (
  document: unknown[][],
  net: SweepNet,
  methods: SweepMethods,
  opts?: { matchOne?: boolean },
) => Found[]

/** compromise's `bulkMatch`, equivalent (see the file comment). */
export function bulkMatch(): BulkMatch {
  const keysOf = new WeakMap<SweepNet, string[]>()
  return (document, net, methods, opts = {}) => {
    let keys = keysOf.get(net)
    if (keys === undefined) keysOf.set(net, (keys = Object.keys(net.hooks)))
    const maybeList = methods.one.cacheDoc(document).map((haves, n) => {
      const termCount = document[n]!.length
      const keep = (rule: SweepRule) =>
        rule.needs.every((need) => haves.has(need)) &&
        !(rule.ifNo !== undefined && rule.ifNo.some((no) => haves.has(no))) &&
        (rule.wants.length === 0 ||
          rule.wants.filter((want) => haves.has(want)).length >= rule.minWant) &&
        termCount >= rule.minWords
      const list = candidateRules(keys, net.hooks, haves).filter(keep)
      for (const rule of net.always) if (termCount >= rule.minWords) list.push(rule)
      return list
    })
    const results: Found[] = []
    for (let n = 0; n < maybeList.length; n++) {
      for (const rule of maybeList[n]!) {
        const res = methods.one.match([document[n]!], rule)
        if (res.ptrs.length === 0) continue
        for (const ptr of res.ptrs) {
          ptr[0] = n
          const todo: Found = Object.assign({}, rule, { pointer: ptr })
          if (rule.unTag !== undefined) todo.unTag = rule.unTag
          results.push(todo)
        }
        if (opts.matchOne === true) return [results[0]!]
      }
    }
    return results
  }
}

/** The rules of every key `haves` holds, in key order, each pattern once (the first rule with it). */
function candidateRules(
  keys: readonly string[],
  hooks: Record<string, SweepRule[]>,
  haves: Set<string>,
): SweepRule[] {
  const seen = new Set<string>()
  const out: SweepRule[] = []
  for (const key of keys) {
    if (!haves.has(key)) continue
    for (const rule of hooks[key]!) {
      if (seen.has(rule.match)) continue
      seen.add(rule.match)
      out.push(rule)
    }
  }
  return out
}

/** The compromise release whose sweep this follows (the package pins it). */
export const COMPROMISE_VERSION = '14.17.0'

/**
 * Installs `bulkMatch` in compromise's world (`nlp.world()`), once per world; compromise's own stays
 * reachable as its `original` (the test compares the two). Another compromise release keeps its own
 * sweep: its internals may differ.
 */
export function installBulkMatch(
  world: { methods: { one: Record<string, unknown> } },
  version: string,
): void {
  const one = world.methods.one
  if (version !== COMPROMISE_VERSION) return
  if ((one.bulkMatch as { original?: unknown }).original !== undefined) return
  one.bulkMatch = Object.assign(bulkMatch(), { original: one.bulkMatch })
}
