import { describe, expect, it } from 'vitest'
import { createEngine } from '../../engine/create-engine.js'
import { COOKING, SOFTWARE, twoClusters } from '../../../test/support/two-clusters-fixture.js'
import { memoryAdapter } from '../../memory-adapter/index.js'
import type { SearchRequest } from '../../search/search-request.js'
import { membersOf } from './communities-channel.js'

const request = (o: Partial<SearchRequest>): SearchRequest => ({
  query: 'x',
  k: 10,
  channels: ['communities'],
  expand: 'none',
  fusion: 'rrf',
  rerank: 'none',
  profileStages: false,
  ...o,
})

async function setup() {
  const engram = createEngine({ storage: memoryAdapter(), version: 't' })
  await engram.start()
  const search = engram.search
  await engram.commit('default', twoClusters())
  return { engram, search }
}

describe('communities channel', () => {
  it('answers a query with the members of the matching community, hubs first', async () => {
    const { engram, search } = await setup()
    const res = await search.search('default', request({ query: 'who cooks pasta with tomato' }))
    const ids = res.hits.map((h) => h.id)
    expect(ids.slice(0, 3)).toEqual(['pasta', 'carol', 'trattoria'])
    expect(new Set(ids)).toEqual(new Set(COOKING))
    expect(res.channelLists.communities).toEqual(ids)
    expect(res.hits[0]).toMatchObject({ channel: 'communities', labels: ['DISH'] })
    expect(res.hits[0]!.scores.graph).toBeGreaterThan(0)
    await engram.stop()
  })

  it('honours community_labels: only those labels are hubs, other communities drop out', async () => {
    const { engram, search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'typescript pasta', communityLabels: ['LANGUAGE'] }),
    )
    expect(res.hits[0]!.id).toBe('typescript')
    expect(res.hits.every((h) => SOFTWARE.includes(h.id))).toBe(true)
    await engram.stop()
  })

  it('follows commits: a deleted member is no longer returned', async () => {
    const { engram, search } = await setup()
    await search.search('default', request({ query: 'pasta' }))
    await engram.commit('default', { deleteEntities: ['carol'] })
    const res = await search.search('default', request({ query: 'pasta' }))
    expect(res.hits.map((h) => h.id)).not.toContain('carol')
    expect(res.hits.length).toBeGreaterThan(0)
    await engram.stop()
  })

  it('fuses with other channels like any graph channel', async () => {
    const { engram, search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'vitest', channels: ['entities', 'communities'] }),
    )
    expect(res.hits[0]!.id).toBe('vitest')
    expect(res.hits[0]!.scores.rrf).toBeGreaterThan(0)
    expect(Object.keys(res.channelLists).sort()).toEqual(['communities', 'entities'])
    await engram.stop()
  })
})

describe('membersOf', () => {
  it('ranks hubs of a weaker community above the periphery of a stronger one', () => {
    const items = membersOf(
      [
        {
          id: 'a',
          score: 2,
          hubs: ['a1'],
          members: [
            { uuid: 'a1', centrality: 1 },
            { uuid: 'a2', centrality: 0.5 },
          ],
        },
        { id: 'b', score: 1.5, hubs: ['b1'], members: [{ uuid: 'b1', centrality: 1 }] },
      ],
      10,
    )
    expect(items.map((i) => i.id)).toEqual(['a1', 'b1', 'a2'])
    expect(items[2]!.score).toBeCloseTo(2 * (0.25 + 0.125))
    expect(membersOf([], 10)).toEqual([])
  })
})
