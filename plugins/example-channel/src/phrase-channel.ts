import { ENGLISH_STOPWORDS, tokenize, type Candidate, type ChannelPlugin } from '@engram/core'

export interface PhraseChannelOptions {
  /** The plugin's name: requests select it as `channels=plugin:<name>` (default `phrase`). */
  name?: string
  /** BM25 candidates read per query (default 200): the channel re-scores them, it never scans the brain. */
  candidates?: number
  /** Shortest run of consecutive query words that counts as a phrase match (default 2). */
  minWords?: number
}

/**
 * A phrase channel: passages that contain the query's words **in the query's order**, scored by the
 * longest run of consecutive query words found in the passage (the longest common word substring),
 * counted in content words, as a share of the query's content words (0..1]. BM25 ignores word order,
 * so "new york pizza" and "pizza in york, new" tie there; here the first wins. The idea is the
 * "phrase" operator of Lucene/Anserini and the original's "literal" fill, reduced to a ranking signal.
 *
 * It is a template: a factory returning a plain object (STYLE.md item 3) that uses only the narrow
 * readers of the search context (`ctx.text` for BM25 candidates, `ctx.graph` for passage text,
 * `ctx.timer` for `stage_timings`), never the engine.
 */
export function phraseChannel(options: PhraseChannelOptions = {}): ChannelPlugin {
  const name = options.name ?? 'phrase'
  const candidates = options.candidates ?? 200
  const minWords = options.minWords ?? 2
  return {
    kind: 'channel',
    name,
    // Ids in the list are passage ids (an entity channel would say 'entities' and return uuids).
    yields: 'passages',
    async search(query, ctx) {
      // Always one list, even empty: `channel_lists` then shows the channel ran and found nothing.
      const none = [{ name, signal: 'plugin' as const, items: [] }]
      const words = tokenize(query.text)
      const content = words.filter((w) => !ENGLISH_STOPWORDS.has(w)).length
      if (words.length < minWords || content === 0) return none
      // Candidates: what BM25 finds for the same words. A passage without any of them cannot match.
      const pool = ctx.text.search('passages', query.text, Math.max(candidates, query.depth))
      if (pool.length === 0) return none
      const passages = await ctx.timer.time(`search.plugin.${name}`, () =>
        ctx.graph.passages(pool.map((c) => c.id)),
      )
      const text = new Map(passages.map((p) => [p.id, p.text]))
      const items: Candidate[] = []
      pool.forEach((candidate) => {
        const run = longestRun(words, tokenize(text.get(candidate.id) ?? ''), minWords)
        if (run > 0) items.push({ id: candidate.id, score: run / content })
      })
      // Best phrase first; among equals, BM25's order (the pool's), which a stable sort keeps.
      items.sort((a, b) => b.score - a.score)
      return [{ name, signal: 'plugin', items: items.slice(0, query.depth) }]
    },
  }
}

/**
 * Content words in the longest run of consecutive query words that also occurs, consecutively, in
 * the passage; runs shorter than `minWords` words, or made only of stopwords, count 0. Dynamic
 * programming over (query word, passage word) pairs: O(|query| × |passage|).
 */
export function longestRun(query: string[], passage: string[], minWords: number): number {
  let best = 0
  let previous = new Array<{ length: number; content: number }>(query.length + 1).fill({
    length: 0,
    content: 0,
  })
  for (const word of passage) {
    const current = [{ length: 0, content: 0 }]
    for (let i = 0; i < query.length; i++) {
      if (query[i] !== word) {
        current.push({ length: 0, content: 0 })
        continue
      }
      const before = previous[i]!
      const run = {
        length: before.length + 1,
        content: before.content + (ENGLISH_STOPWORDS.has(word) ? 0 : 1),
      }
      current.push(run)
      if (run.length >= minWords && run.content > best) best = run.content
    }
    previous = current
  }
  return best
}
