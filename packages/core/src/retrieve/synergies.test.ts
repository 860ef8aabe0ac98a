import { describe, expect, it } from 'vitest'
import type { VectorReader } from '../contracts/search-plugins.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { BrainIndexes } from '../indexes/brain-indexes.js'
import type { RetrieveDeps } from './retrieve-deps.js'
import { synergies } from './synergies.js'
import { builtinCandidateSource } from '../search/search-candidates.js'

const AT = '2025-01-01T00:00:00.000Z'
const entity = (uuid: string, name: string, labels: string[]): Entity => ({
  uuid,
  name,
  description: null,
  labels,
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: AT,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
})
const rel = (s: string, name: string, o: string): Relationship => ({
  uuid: `${s}-${name}-${o}`,
  subjectUuid: s,
  objectUuid: o,
  name,
  description: null,
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey: null,
  level: null,
  properties: {},
  happenedAt: null,
  lastUpdated: AT,
  sourcePassageIds: [],
})

/**
 * Alice, Bob and Carol work at Acme; Dave works at Initech; Alice and Dave did something in 2023. Bob's
 * vector is Alice's, Carol's is not.
 */
const VECTORS: Record<string, number[]> = {
  alice: [1, 0, 0],
  bob: [1, 0, 0],
  carol: [0, 1, 0],
  dave: [0.9, 0.1, 0],
  acme: [0, 0, 1],
  initech: [0, 0.1, 1],
}

function vectorReader(): VectorReader {
  const unit = (v: number[]) => {
    const n = Math.hypot(...v)
    return Float32Array.from(v.map((x) => x / n))
  }
  const all = new Map(Object.entries(VECTORS).map(([id, v]) => [id, unit(v)]))
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0)
  return {
    async search(_space, vector, k, filter) {
      return [...all]
        .filter(([id]) => filter?.(id) ?? true)
        .map(([id, v]) => ({ id, score: dot(vector, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k)
    },
    async get(_space, ids) {
      return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id)!] as const] : [])))
    },
  }
}

async function brain(withVectors: boolean): Promise<RetrieveDeps> {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create({
    id: 'b',
    nameKey: 'b',
    tokenHash: 'x',
    tokenLast4: 'xxxx',
    createdAt: AT,
  })
  const store = await adapter.brain('b')
  await store.apply({
    entities: [
      entity('alice', 'Alice', ['PERSON']),
      entity('bob', 'Bob', ['PERSON']),
      entity('carol', 'Carol', ['PERSON']),
      entity('dave', 'Dave', ['PERSON']),
      entity('acme', 'Acme', ['COMPANY']),
      entity('initech', 'Initech', ['COMPANY']),
      entity('y2023', '2023', ['DATE']),
    ],
    relationships: [
      rel('alice', 'WORKS_AT', 'acme'),
      rel('bob', 'WORKS_AT', 'acme'),
      rel('carol', 'WORKS_AT', 'acme'),
      rel('dave', 'WORKS_AT', 'initech'),
      // Alice and Dave each did something in 2023: no association.
      rel('alice', 'OCCURRED_ON', 'y2023'),
      rel('dave', 'OCCURRED_ON', 'y2023'),
    ],
  })
  const indexes = await BrainIndexes.build(store)
  return {
    brainId: 'b',
    store,
    indexes,
    candidates: builtinCandidateSource({
      brainId: 'b',
      store,
      indexes,
      vectors: null,
      embed: null,
    }),
    embed: null,
    vectors: withVectors ? vectorReader() : null,
  }
}

const names = (r: { synergies: { node: Entity }[] }) => r.synergies.map((s) => s.node.name)

describe('synergies', () => {
  it('without vectors, colleagues tie on the shared company (ties by uuid)', async () => {
    const result = await synergies(await brain(false), 'Alice', { anchors: true })
    expect(names(result)).toEqual(['Bob', 'Carol'])
    expect(result.synergies[0]!.associationScore).toBe(result.synergies[1]!.associationScore)
    expect(result.synergies[0]!.connectedBy.map((e) => e.name)).toEqual(['Acme'])
    expect(result.anchors.map((e) => e.name)).toEqual(['Acme'])
    expect(result.potentialAnchors).toEqual([])
  })

  it('compares the candidate entity vector with the target entity vector (tn)', async () => {
    const result = await synergies(await brain(true), 'Alice', { directOnly: true })
    expect(names(result)).toEqual(['Bob', 'Carol'])
    expect(result.synergies[0]!.associationScore).toBeGreaterThan(
      result.synergies[1]!.associationScore,
    )
  })

  it('reaches remote seeds by vector similarity unless direct-only, and reports them', async () => {
    const deps = await brain(true)
    const remote = await synergies(deps, 'Alice', { potentialAnchors: true })
    expect(remote.potentialAnchors.map((e) => e.name)).toEqual(['Initech'])
    expect(names(remote)).toContain('Dave')
    const dave = remote.synergies.find((s) => s.node.name === 'Dave')!
    expect(dave.connectedBy.map((e) => e.name)).toEqual(['Initech'])
    expect(dave.associationScore).toBeLessThan(remote.synergies[0]!.associationScore)
    const direct = await synergies(deps, 'Alice', { directOnly: true, potentialAnchors: true })
    expect(names(direct)).not.toContain('Dave')
    expect(direct.potentialAnchors.map((e) => e.name)).toEqual(['Initech'])
  })
})
