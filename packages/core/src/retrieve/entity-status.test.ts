import { describe, expect, it } from 'vitest'
import { memoryRetrieveDeps } from '../../test/support/memory-retrieve-deps.js'
import { fixtureEntity, fixtureRelationship } from '../../test/support/two-clusters-fixture.js'
import { fixtures as f } from '../../testing/fixtures.js'
import { entityStatus } from './entity-status.js'

/** Ada founded Acme and works at Acme; Bob only works there; Acme is in Berlin. */
const fixture = () =>
  memoryRetrieveDeps({
    entities: [
      fixtureEntity('ada', 'Ada', ['PERSON']),
      fixtureEntity('bob', 'Bob', ['PERSON']),
      fixtureEntity('acme', 'Acme', ['COMPANY']),
      fixtureEntity('berlin', 'Berlin', ['CITY']),
    ],
    relationships: [
      fixtureRelationship('r1', 'ada', 'FOUNDED', 'acme'),
      fixtureRelationship('r2', 'ada', 'WORKS_AT', 'acme'),
      fixtureRelationship('r3', 'bob', 'WORKS_AT', 'acme'),
      fixtureRelationship('r4', 'acme', 'LOCATED_IN', 'berlin'),
    ],
  })

const names = (status: Awaited<ReturnType<typeof entityStatus>>) =>
  status.relationships.map(([r, e]) => `${r.name}:${e.name}`).sort()

describe('entityStatus types', () => {
  it('a relationship type filters the relationships and never decides existence', async () => {
    const deps = await fixture()
    const founded = await entityStatus(deps, 'Ada', ['FOUNDED'])
    expect(founded).toMatchObject({ exists: true, hasRelationships: true })
    expect(founded.node?.uuid).toBe('ada')
    expect(names(founded)).toEqual(['FOUNDED:Acme'])
    // Bob exists and has relationships, none of them FOUNDED.
    const bob = await entityStatus(deps, 'Bob', ['FOUNDED'])
    expect(bob).toMatchObject({ exists: true, hasRelationships: false, relationships: [] })
    expect(bob.node?.uuid).toBe('bob')
  })

  it('matches relationship types as the writes normalise them (any case, spaces)', async () => {
    const deps = await fixture()
    expect(names(await entityStatus(deps, 'Ada', ['works at']))).toEqual(['WORKS_AT:Acme'])
    expect(names(await entityStatus(deps, 'Ada', ['founded', 'Works_At']))).toEqual([
      'FOUNDED:Acme',
      'WORKS_AT:Acme',
    ])
  })

  it('an entity label still decides existence, alone or beside relationship types', async () => {
    const deps = await fixture()
    expect((await entityStatus(deps, 'Ada', ['person'])).exists).toBe(true)
    expect((await entityStatus(deps, 'Ada', ['city'])).exists).toBe(false)
    const both = await entityStatus(deps, 'Ada', ['PERSON', 'FOUNDED'])
    expect(both.exists).toBe(true)
    expect(names(both)).toEqual(['FOUNDED:Acme'])
    expect(await entityStatus(deps, 'Ada', ['COMPANY', 'FOUNDED'])).toEqual({
      exists: false,
      hasRelationships: false,
      node: null,
      observations: [],
      relationships: [],
    })
  })

  it('reads a value that is no label of the brain as a relationship type', async () => {
    const deps = await fixture()
    // No entity is a FOUNDER and no relationship is FOUNDER: still not a question of existence.
    expect(await entityStatus(deps, 'Ada', ['FOUNDER'])).toMatchObject({
      exists: true,
      hasRelationships: false,
      relationships: [],
    })
  })

  it('without types, every live relationship; blank types are ignored', async () => {
    const deps = await fixture()
    const all = await entityStatus(deps, 'Acme', ['', '  '])
    expect(all.exists).toBe(true)
    expect(names(all)).toEqual(['FOUNDED:Ada', 'LOCATED_IN:Berlin', 'WORKS_AT:Ada', 'WORKS_AT:Bob'])
  })
})

describe('entityStatus observations', () => {
  it("its own, then its source passages' that name it, in the passages' order, newest first", async () => {
    const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString()
    const observation = (id: string, resourceId: string, text: string, i: number) =>
      f.observation({ id, resourceId, text, insertedAt: at(i) })
    const batch = {
      entities: [{ ...fixtureEntity('ada', 'Ada', ['PERSON']), sourcePassageIds: ['p2', 'p1'] }],
      observations: [
        observation('own', 'ada', 'A mathematician', 1),
        observation('p1-old', 'p1', 'Ada wrote notes', 2),
        observation('p1-new', 'p1', 'Ada met Babbage', 3),
        observation('p1-other', 'p1', 'The weather was cold', 4),
        observation('p2-only', 'p2', 'Ada moved to London', 5),
      ],
    }
    const expected = ['own', 'p2-only', 'p1-new', 'p1-old']
    const deps = await memoryRetrieveDeps(batch)
    expect((await entityStatus(deps, 'Ada', [])).observations.map((o) => o.id)).toEqual(expected)
    // The same through an adapter without `ofResources` (one list per resource).
    const fallback = await memoryRetrieveDeps(batch)
    delete (fallback.store.observations as { ofResources?: unknown }).ofResources
    expect((await entityStatus(fallback, 'Ada', [])).observations.map((o) => o.id)).toEqual(
      expected,
    )
  })
})
