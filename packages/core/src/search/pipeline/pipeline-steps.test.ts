import { describe, expect, it } from 'vitest'
import type {
  Candidate,
  FusionPlugin,
  SearchContext,
  StagePlugin,
} from '../../contracts/search-plugins.js'
import { builtinPlugins } from '../../builtins/builtin-plugins.js'
import { neighbourExpansion } from '../../builtins/stages/neighbour-expansion.js'
import type { HitScores } from '../../model/search.js'
import { BUILTIN_NAMES, PluginRegistry } from '../../registry/plugin-registry.js'
import { resolveGraphChannels } from '../graph-channels.js'
import type { SearchRequest } from '../search-request.js'
import { fusionScoreSlot } from './assemble-step.js'
import { createSearchState } from './search-state.js'
import { applyStage, runStages, type PlannedStage } from './stages-step.js'

const request: SearchRequest = {
  query: 'q',
  k: 2,
  channels: [],
  expand: 'none',
  fusion: 'rrf',
  rerank: 'none',
  profileStages: false,
}
const c = (id: string, score: number): Candidate => ({ id, score })
const stage = (plugin: Partial<StagePlugin>, scoreKey: PlannedStage['scoreKey'] = 'rerank') => ({
  plugin: { kind: 'stage' as const, name: 'x', run: async () => new Map(), ...plugin },
  timing: 'search.x',
  scoreKey,
})

/** Records for ids starting with `p` (passages) or `e` (entities); anything else has none. */
function context(calls: string[] = []): SearchContext {
  return {
    brainId: 'b',
    graph: {
      passages: async (ids: string[]) =>
        ids
          .filter((id) => id.startsWith('p'))
          .map((id) => ({ id, text: `text ${id}`, metadata: {} })),
      entities: async (ids: string[]) =>
        ids
          .filter((id) => id.startsWith('e'))
          .map((uuid) => ({ uuid, name: uuid, description: null, labels: ['X'], properties: {} })),
    },
    timer: {
      time: async <T>(name: string, fn: () => Promise<T>) => {
        calls.push(name)
        return fn()
      },
    },
  } as unknown as SearchContext
}

describe('applyStage', () => {
  it('puts rescored hits first by their new score (ties by id), then the rest, then the tail', () => {
    const state = createSearchState(request, 50)
    state.ranked = [c('a', 4), c('b', 3), c('c', 2), c('d', 1)]
    const head = state.ranked.slice(0, 3)
    applyStage(state, stage({}), head, {
      scores: new Map([
        ['c', 9],
        ['b', 9],
      ]),
    })
    expect(state.ranked).toEqual([c('b', 9), c('c', 9), c('a', 4), c('d', 1)])
    expect(state.stageScores.get('rerank')).toEqual(
      new Map([
        ['b', 9],
        ['c', 9],
      ]),
    )
  })

  it("follows a stage's own order, and merges added candidates by score with their entry score", () => {
    const state = createSearchState(request, 50)
    state.ranked = [c('a', 4), c('b', 3)]
    applyStage(state, stage({}, null), state.ranked, {
      scores: new Map(),
      order: ['b', 'a'],
      added: { name: 'neighbors', signal: 'graph', items: [c('n', 2.5)] },
    })
    expect(state.ranked.map((x) => x.id)).toEqual(['b', 'a', 'n'])
    expect(state.entryScore.get('n')).toBe(2.5)
    expect(state.added.map((l) => l.name)).toEqual(['neighbors'])
  })
})

describe('runStages', () => {
  it('runs stages in order; a stage reading records hydrates first and sees current scores', async () => {
    const calls: string[] = []
    const seen: string[] = []
    const state = createSearchState(request, 50)
    state.ranked = [c('p1', 3), c('ghost', 2), c('e1', 1)]
    const candidatesOnly = stage(
      {
        reads: 'candidates',
        head: Infinity,
        run: async (_q, hits) => {
          seen.push(`first:${hits.map((h) => `${h.id}=${h.text}`).join(',')}`)
          return new Map([['e1', 10]])
        },
      },
      null,
    )
    const withRecords = stage({
      run: async (_q, hits) => {
        seen.push(`second:${hits.map((h) => `${h.id}@${h.score}:${h.text}`).join(',')}`)
        return new Map()
      },
    })
    await runStages(state, [candidatesOnly, { ...withRecords, timing: 'search.y' }], context(calls))
    expect(seen).toEqual(['first:p1=,ghost=,e1=', 'second:e1@10:e1,p1@3:text p1'])
    expect(calls).toEqual(['search.x', 'search.hydrate', 'search.y'])
    expect(state.ranked.map((x) => x.id)).toEqual(['e1', 'p1'])
  })

  it('skips a rerank with nothing to rescore', async () => {
    const state = createSearchState(request, 50)
    let ran = false
    const rerank = stage({ run: async () => ((ran = true), new Map()) })
    await runStages(state, [{ ...rerank, skipEmpty: true }], context())
    expect(ran).toBe(false)
  })
})

describe('neighbour expansion', () => {
  it('damps each neighbour by its degree and skips deprecated edges and present candidates', async () => {
    const edges: Record<string, { uuid: string; deprecated: boolean }[]> = {
      seed: [
        { uuid: 'hub', deprecated: false },
        { uuid: 'leaf', deprecated: false },
        { uuid: 'old', deprecated: true },
        { uuid: 'p1', deprecated: false },
      ],
    }
    const degree: Record<string, number> = { hub: 14, leaf: 2 }
    const ctx = {
      graph: {
        neighbours: async (uuid: string) =>
          (edges[uuid] ?? []).map((e) => ({ ...e, relationshipUuid: 'r', direction: 'out' })),
        degree: async (uuid: string) => degree[uuid] ?? 0,
      },
    } as unknown as SearchContext
    const out = await neighbourExpansion().run(
      'q',
      [
        { id: 'seed', score: 1, text: '', entity: null },
        { id: 'p1', score: 0.5, text: '', entity: null },
      ],
      ctx,
      { lists: [{ name: 'entities', signal: 'graph', items: [c('seed', 1)] }] },
    )
    expect(out instanceof Map ? null : out.added?.items).toEqual([
      c('leaf', 1 / Math.log2(4)),
      c('hub', 1 / Math.log2(16)),
    ])
  })
})

describe('fusion scores and built-in names', () => {
  it('puts a built-in fusion under its name, a plugin fusion under plugin.<name>, none nowhere', () => {
    const fusion = (name: string, scored?: boolean): FusionPlugin => ({
      kind: 'fusion',
      name,
      fuse: () => [],
      ...(scored === undefined ? {} : { scored }),
    })
    const put = (f: FusionPlugin) => {
      const scores: HitScores = {}
      fusionScoreSlot(f)?.(scores, 0.5)
      return scores
    }
    expect(put(fusion('rrf'))).toEqual({ rrf: 0.5 })
    expect(put(fusion('cc'))).toEqual({ cc: 0.5 })
    expect(put(fusion('combmnz'))).toEqual({ plugin: { combmnz: 0.5 } })
    expect(put(fusion('none', false))).toEqual({})
  })

  it('registers exactly the built-in names, and refuses unknown graph channels at start', () => {
    const registry = new PluginRegistry()
    for (const plugin of builtinPlugins()) registry.register(plugin)
    expect(registry.names('channel')).toEqual([...BUILTIN_NAMES.channel].sort())
    expect(registry.names('fusion')).toEqual([...BUILTIN_NAMES.fusion].sort())
    expect(() => resolveGraphChannels(registry, { passages: ['plugin:nope'] })).toThrow(
      /Unknown search channel 'plugin:nope'/,
    )
    expect(resolveGraphChannels(registry).passages).toEqual(['passages'])
  })
})
