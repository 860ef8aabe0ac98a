import type { WriteBatch } from '../../src/contracts/storage-adapter.js'
import type { Entity } from '../../src/model/entity.js'
import type { Relationship } from '../../src/model/relationship.js'
import { fixtures } from '../../testing/fixtures.js'

const AT = '2025-01-01T00:00:00.000Z'

export function fixtureEntity(
  uuid: string,
  name: string,
  labels: string[],
  description: string | null = null,
): Entity {
  return fixtures.entity({ uuid, name, description, labels, lastUpdated: AT })
}

export function fixtureRelationship(
  uuid: string,
  subjectUuid: string,
  name: string,
  objectUuid: string,
  options: Partial<Relationship> = {},
): Relationship {
  return fixtures.relationship({
    uuid,
    subjectUuid,
    objectUuid,
    name,
    description: null,
    lastUpdated: AT,
    ...options,
  })
}

/** Members of the software cluster and of the cooking cluster of {@link twoClusters}. */
export const SOFTWARE = ['alice', 'bob', 'typescript', 'node', 'vitest', 'engram']
export const COOKING = ['carol', 'dave', 'pasta', 'basil', 'tomato', 'trattoria']

/**
 * Two clearly separated clusters joined by one weak edge (Alice likes pasta): people who build a
 * TypeScript project, and people who cook pasta (with an event, a dinner at the trattoria). 23 edges.
 */
export function twoClusters(): WriteBatch {
  const r = fixtureRelationship
  return {
    entities: [
      fixtureEntity('alice', 'Alice', ['PERSON'], 'a software engineer'),
      fixtureEntity('bob', 'Bob', ['PERSON']),
      fixtureEntity('typescript', 'TypeScript', ['LANGUAGE'], 'a typed superset of JavaScript'),
      fixtureEntity('node', 'Node.js', ['RUNTIME']),
      fixtureEntity('vitest', 'Vitest', ['TOOL'], 'a unit testing framework'),
      fixtureEntity(
        'engram',
        'Engram',
        ['PROJECT'],
        'a memory and knowledge-graph retrieval engine',
      ),
      fixtureEntity('carol', 'Carol', ['PERSON'], 'a chef'),
      fixtureEntity('dave', 'Dave', ['PERSON']),
      fixtureEntity('pasta', 'Pasta', ['DISH'], 'Italian noodles'),
      fixtureEntity('basil', 'Basil', ['INGREDIENT']),
      fixtureEntity('tomato', 'Tomato', ['INGREDIENT']),
      fixtureEntity('trattoria', 'Trattoria Roma', ['PLACE']),
      fixtureEntity('dinner', 'dinner', ['EVENT']),
    ],
    relationships: [
      r('s1', 'alice', 'WRITES', 'typescript'),
      r('s2', 'bob', 'WRITES', 'typescript'),
      r('s3', 'alice', 'MAINTAINS', 'engram'),
      r('s4', 'bob', 'TESTS', 'engram'),
      r('s5', 'engram', 'USES', 'node'),
      r('s6', 'engram', 'USES', 'typescript'),
      r('s7', 'vitest', 'RUNS_ON', 'node'),
      r('s8', 'bob', 'USES', 'vitest'),
      r('s9', 'engram', 'TESTED_WITH', 'vitest', { description: 'Engram is tested with Vitest' }),
      r('s10', 'alice', 'KNOWS', 'bob'),
      r('c1', 'carol', 'COOKS', 'pasta'),
      r('c2', 'dave', 'COOKS', 'pasta'),
      r('c3', 'pasta', 'CONTAINS', 'basil'),
      r('c4', 'pasta', 'CONTAINS', 'tomato'),
      r('c5', 'carol', 'GROWS', 'basil'),
      r('c6', 'dave', 'OWNS', 'trattoria'),
      r('c7', 'trattoria', 'SERVES', 'pasta'),
      r('c8', 'carol', 'KNOWS', 'dave'),
      r('c9', 'carol', 'GROWS', 'tomato'),
      r('c10', 'trattoria', 'BUYS', 'tomato'),
      r('e1', 'carol', 'ATTENDED', 'dinner', { flowKey: 'f1' }),
      r('e2', 'dinner', 'AT', 'trattoria', { flowKey: 'f1' }),
      r('bridge', 'alice', 'LIKES', 'pasta'),
    ],
    observations: [
      {
        id: 'o1',
        resourceId: 'basil',
        text: 'Basil grows best in warm sun.',
        metadata: {},
        insertedAt: AT,
      },
    ],
  }
}
