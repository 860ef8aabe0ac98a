import { describe, expect, it } from 'vitest'
import type { SearchContext } from '../../contracts/search-plugins.js'
import { eventsChannel } from './events-channel.js'

const NOW = Date.parse('2026-01-01T00:00:00Z')

/** A context whose events index answers with fixed BM25 scores and dates. */
function context(scores: Record<string, number>): SearchContext {
  return {
    brainId: 'b',
    entities: { happenedAt: (uuid: string) => dates[uuid] },
    text: {
      search: async () => Object.entries(scores).map(([id, score]) => ({ id, score })),
    },
    timer: { time: (_stage: string, fn: () => Promise<unknown>) => fn() },
  } as unknown as SearchContext
}

const dates: Record<string, string | null> = {
  old: '2022-01-01',
  fresh: '2025-12-31',
  undated: null,
}

describe('events channel', () => {
  const channel = eventsChannel(() => NOW)
  const run = async (scores: Record<string, number>) =>
    (await channel.search({ text: 'q', depth: 10 }, context(scores)))[0]!.items

  it('lets recency break near-ties only: a clearly better old match stays first', async () => {
    const items = await run({ old: 2.0, fresh: 1.5 })
    expect(items.map((i) => i.id)).toEqual(['old', 'fresh'])
    // A fresh event gets at most a 10% lift; a four-year-old one about 0.6%.
    expect(items[1]!.score).toBeCloseTo(1.5 * (1 + 0.1 * 0.5 ** (1 / 365)), 9)
  })

  it('ranks the fresher of two equal matches first, and gives undated events no lift', async () => {
    const items = await run({ old: 1.0, fresh: 1.0, undated: 1.0 })
    expect(items.map((i) => i.id)).toEqual(['fresh', 'old', 'undated'])
    expect(items[2]!.score).toBe(1.0)
  })
})
