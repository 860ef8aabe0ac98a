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
 * list three times and again for its minimum words, each filter a new array. Here the keys a sentence
 * holds are found from its few dozen words and tags (a map from key to rank, then sorted: the same key
 * order), each pattern is a number marked once per sentence, and one filter applies the four conditions.
 * Parsing LoCoMo dev's 2,760 turns in one process with the two sweeps alternating turn by turn, the local
 * extractor took 0.81-0.86 ms a turn against 1.13-1.19 ms (0.72-0.73 of the time over five passes), with
 * identical extractions; `nlp().json()` of 6,150 texts (SciFact, Re-DocRED, MuSiQue, LoCoMo) was
 * identical term for term, in 15.9-17.7 s against 21.3-22.8 s (benchmarks/LOG.md, 2026-11-30).
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

/**
 * A net's rule index by key rank (the order of `Object.keys(hooks)`, which decides the candidates'
 * order), each rule's pattern as a number, and marks of the patterns already taken for a sentence.
 */
interface NetIndex {
  readonly rankOf: Map<string, number>
  readonly lists: readonly (readonly SweepRule[])[]
  readonly patterns: readonly Int32Array[]
  readonly taken: Uint32Array
  sentence: number
}

function indexNet(net: SweepNet): NetIndex {
  const keys = Object.keys(net.hooks)
  const patternOf = new Map<string, number>()
  const lists = keys.map((key) => net.hooks[key]!)
  const patterns = lists.map((list) =>
    Int32Array.from(list, (rule) => {
      let id = patternOf.get(rule.match)
      if (id === undefined) patternOf.set(rule.match, (id = patternOf.size))
      return id
    }),
  )
  const rankOf = new Map(keys.map((key, rank) => [key, rank]))
  return { rankOf, lists, patterns, taken: new Uint32Array(patternOf.size), sentence: 0 }
}

/** compromise's `bulkMatch`, equivalent (see the file comment). */
export function bulkMatch(): BulkMatch {
  const indexes = new WeakMap<SweepNet, NetIndex>()
  return (document, net, methods, opts = {}) => {
    let index = indexes.get(net)
    if (index === undefined) indexes.set(net, (index = indexNet(net)))
    const maybeList = methods.one.cacheDoc(document).map((haves, n) => {
      const termCount = document[n]!.length
      const keep = (rule: SweepRule) =>
        rule.needs.every((need) => haves.has(need)) &&
        !(rule.ifNo !== undefined && rule.ifNo.some((no) => haves.has(no))) &&
        (rule.wants.length === 0 ||
          rule.wants.filter((want) => haves.has(want)).length >= rule.minWant) &&
        termCount >= rule.minWords
      const list = candidateRules(index, haves).filter(keep)
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

/**
 * The rules of every key `haves` holds, in key order, each pattern once (the first rule with it): the
 * keys found from the sentence's few dozen words and tags rather than by testing every key of the index.
 */
function candidateRules(index: NetIndex, haves: Set<string>): SweepRule[] {
  const ranks: number[] = []
  for (const key of haves) {
    const rank = index.rankOf.get(key)
    if (rank !== undefined) ranks.push(rank)
  }
  ranks.sort((a, b) => a - b)
  if (index.sentence === 0xffffffff) {
    index.taken.fill(0)
    index.sentence = 0
  }
  const mark = ++index.sentence
  const { taken } = index
  const out: SweepRule[] = []
  for (const rank of ranks) {
    const list = index.lists[rank]!
    const patterns = index.patterns[rank]!
    for (let i = 0; i < list.length; i++) {
      const pattern = patterns[i]!
      if (taken[pattern] === mark) continue
      taken[pattern] = mark
      out.push(list[i]!)
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
