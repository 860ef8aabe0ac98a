import { describe, expect, it } from 'vitest'
import { fixtures } from '../../../testing/fixtures.js'
import { GraphIndex } from './graph-index.js'
import { DEFAULT_WALK, specificSeeds, walkFromSeeds, walkPassages } from './passage-walk.js'

const entity = (uuid: string, sourcePassageIds: string[]) =>
  fixtures.entity({ uuid, name: uuid, labels: ['CONCEPT'], sourcePassageIds })

/** p1 -A- p2 -B- p3 (a chain through two entities), p4 -C- alone, HUB in p1..p3 and p5. */
function chain(): GraphIndex {
  const graph = new GraphIndex()
  graph.apply({
    entities: [
      entity('A', ['p1', 'p2']),
      entity('B', ['p2', 'p3']),
      entity('C', ['p4']),
      entity('HUB', ['p1', 'p2', 'p3', 'p5']),
    ],
  })
  return graph
}

const exact = { ...DEFAULT_WALK, tolerance: 1e-9 }

describe('walkPassages', () => {
  it('reaches passages through shared entities, farther ones less, unconnected ones not at all', () => {
    const graph = chain()
    const { passages } = walkPassages(
      graph,
      { passages: new Map([['p1', 1]]), nodes: new Map() },
      exact,
    )
    expect(passages.get('p1')!).toBeGreaterThan(passages.get('p2')!)
    expect(passages.get('p2')!).toBeGreaterThan(passages.get('p3')!)
    expect(passages.get('p3')!).toBeGreaterThan(0)
    expect(passages.has('p4')).toBe(false)
  })

  it('conserves mass: estimates and what is left below tolerance sum to the seeds', () => {
    const graph = chain()
    const r = walkPassages(graph, { passages: new Map([['p1', 3]]), nodes: new Map() }, exact)
    const total = [...r.passages.values(), ...r.nodes.values()].reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(0.999)
    expect(total).toBeLessThanOrEqual(1 + 1e-9)
  })

  it('damps hubs: with hubDamping an entity in many passages passes on less of its mass', () => {
    const graph = chain()
    const seeds = { passages: new Map([['p1', 1]]), nodes: new Map() }
    const flat = walkPassages(graph, seeds, exact).passages.get('p5')!
    const damped = walkPassages(graph, seeds, { ...exact, hubDamping: 1 }).passages.get('p5')!
    expect(damped).toBeLessThan(flat)
  })

  it('with skipDeadEnds, sends no mass to an entity only its passage cites, so more reaches the next passage', () => {
    const graph = chain()
    graph.apply({ entities: [entity('D', ['p1'])] })
    const seeds = { passages: new Map([['p1', 1]]), nodes: new Map() }
    const plain = walkPassages(graph, seeds, exact)
    const pruned = walkPassages(graph, seeds, { ...exact, skipDeadEnds: true })
    const d = graph.node('D')!
    expect(plain.nodes.get(d)!).toBeGreaterThan(0)
    expect(pruned.nodes.has(d)).toBe(false)
    expect(pruned.passages.get('p2')!).toBeGreaterThan(plain.passages.get('p2')!)
    // A dead end still starts a walk when it is a seed.
    const fromD = walkPassages(
      graph,
      { passages: new Map(), nodes: new Map([[d, 1]]) },
      {
        ...exact,
        skipDeadEnds: true,
      },
    )
    expect(fromD.passages.get('p1')!).toBeGreaterThan(0)
  })

  it('leaves date nodes out by default: a year two texts share joins no passages', () => {
    const graph = chain()
    graph.apply({
      entities: [
        fixtures.entity({
          uuid: 'Y',
          name: '1950',
          labels: ['DATE'],
          sourcePassageIds: ['p4', 'p6'],
        }),
      ],
    })
    const seeds = { passages: new Map([['p4', 1]]), nodes: new Map() }
    expect(walkPassages(graph, seeds, exact).passages.has('p6')).toBe(false)
    const throughDates = walkPassages(graph, seeds, { ...exact, skipLabels: [] })
    expect(throughDates.passages.get('p6')!).toBeGreaterThan(0)
  })

  it('keeps the mass of a seed passage no entity cites', () => {
    const graph = chain()
    const r = walkPassages(graph, { passages: new Map([['lonely', 1]]), nodes: new Map() }, exact)
    expect([...r.passages]).toEqual([['lonely', 1]])
  })
})

describe('walkPassages scratch space', () => {
  it('leaves nothing behind for the next walk, also after the graph grew', () => {
    const graph = chain()
    const fromP1 = { passages: new Map([['p1', 1]]), nodes: new Map() }
    const fromP4 = {
      passages: new Map([
        ['p4', 2],
        ['p3', 1],
      ]),
      nodes: new Map([[0, 1]]),
    }
    const first = walkPassages(graph, fromP1, exact)
    const other = walkPassages(graph, fromP4, DEFAULT_WALK)
    expect(walkPassages(graph, fromP1, exact)).toEqual(first)
    expect(walkPassages(graph, fromP4, DEFAULT_WALK)).toEqual(other)
    graph.apply({ entities: [entity('D', ['p4', 'p6'])] })
    const grown = walkPassages(graph, fromP4, DEFAULT_WALK)
    expect(grown.passages.get('p6')).toBeGreaterThan(0)
    expect(walkPassages(graph, fromP1, exact)).toEqual(first)
  })
})

describe('walkFromSeeds', () => {
  it('weights entity seeds by specificity: a rare entity pulls its passages above a frequent one', () => {
    const graph = chain()
    const r = walkFromSeeds(
      graph,
      {
        passages: new Map(),
        entities: new Map([
          ['C', 1],
          ['HUB', 1],
        ]),
      },
      exact,
    )
    // C is cited by one passage, HUB by four: p4 outranks every HUB passage.
    for (const p of ['p1', 'p2', 'p3', 'p5'])
      expect(r.passages.get('p4')!).toBeGreaterThan(r.passages.get(p)!)
    expect(r.entities.get('C')!).toBeGreaterThan(0)
  })

  it('counts the entities one passage alone cites once: only the heaviest seeds the walk', () => {
    const graph = chain()
    graph.apply({ entities: [entity('C2', ['p4']), entity('C3', ['p4'])] })
    const seeds = specificSeeds(
      graph,
      new Map([
        ['C2', 0.5],
        ['C', 1],
        ['C3', 0.8],
        ['A', 1],
      ]),
    )
    // C, C2 and C3 are p4's alone: C stays with its weight, C2 and C3 leave (their weight with them);
    // A, cited by two passages, stays. Specificity first: A's 1 / 2 against C's 1 / 1, rescaled.
    const node = (uuid: string) => graph.node(uuid)!
    expect([...seeds.keys()].sort()).toEqual([node('A'), node('C')].sort())
    const total = 0.5 + 1 + 0.8 + 1
    const specific = 0.5 + 1 + 0.8 + 0.5
    expect(seeds.get(node('C'))).toBeCloseTo((1 / specific) * total)
    expect(seeds.get(node('A'))).toBeCloseTo((0.5 / specific) * total)
  })

  it('scales the entity seeds by the share of the passage seeds the graph holds', () => {
    const graph = chain()
    const entities = new Map([['C', 1]])
    // x has no entities (committed without extraction): a search whose best passages are outside the graph
    // does not walk into it from its word matches.
    const outside = walkFromSeeds(graph, { passages: new Map([['x', 1]]), entities }, exact)
    expect(outside.passages.get('p4')).toBeUndefined()
    expect(outside.passages.get('x')).toBe(1)
    const half = walkFromSeeds(
      graph,
      {
        passages: new Map([
          ['x', 1],
          ['p2', 1],
        ]),
        entities,
      },
      exact,
    )
    const whole = walkFromSeeds(graph, { passages: new Map([['p2', 1]]), entities }, exact)
    // Half the passage seeds' weight in the graph: C keeps half its weight against x's and p2's.
    expect(half.passages.get('p4')!).toBeGreaterThan(0)
    expect(half.passages.get('p4')! / half.passages.get('p2')!).toBeLessThan(
      whole.passages.get('p4')! / whole.passages.get('p2')!,
    )
  })

  it('ignores unknown and deleted entities', () => {
    const graph = chain()
    graph.apply({ deleteEntities: ['C'] })
    const r = walkFromSeeds(graph, {
      passages: new Map(),
      entities: new Map([
        ['C', 1],
        ['nope', 1],
      ]),
    })
    expect(r.passages.size).toBe(0)
  })

  it('follows an entity losing a source passage', () => {
    const graph = chain()
    graph.apply({ entities: [entity('A', ['p1'])] })
    const r = walkPassages(
      graph,
      { passages: new Map([['p1', 1]]), nodes: new Map() },
      { ...exact, relationWeight: 0 },
    )
    // p2 is still reachable through HUB, but no longer through A: less than before.
    const before = walkPassages(
      chain(),
      { passages: new Map([['p1', 1]]), nodes: new Map() },
      { ...exact, relationWeight: 0 },
    )
    expect(r.passages.get('p2')!).toBeLessThan(before.passages.get('p2')!)
  })
})
