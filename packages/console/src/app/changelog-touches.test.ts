import type { Changelog } from '@engram/client'
import { describe, expect, it } from 'vitest'
import { changelogTouches, newestFirst } from './changelog-touches.js'

const node = (uuid: string, name: string) => ({
  uuid,
  name,
  description: '',
  labels: ['PERSON'],
  properties: {},
})

const entry = (id: string, timestamp: string, change: Changelog['change']): Changelog => ({
  id,
  timestamp,
  type: change.type,
  change,
})

describe('changelogTouches', () => {
  it('names a relationship’s subject, predicate and object', () => {
    const touches = changelogTouches(
      entry('c1', '2026-01-01T00:00:00Z', {
        type: 'relationship_created',
        subject: node('u1', 'Ada'),
        predicate: { uuid: 'p1', name: 'MET', description: '', properties: {} },
        object: node('u2', 'Charles'),
      }),
    )
    expect(touches.nodes).toEqual([
      { role: 'subject', uuid: 'u1', name: 'Ada', labels: ['PERSON'] },
      { role: 'object', uuid: 'u2', name: 'Charles', labels: ['PERSON'] },
    ])
    expect(touches.predicate).toBe('MET')
  })

  it('lists the properties a node update changed', () => {
    const touches = changelogTouches(
      entry('c2', '2026-01-01T00:00:00Z', {
        type: 'node_properties_updated',
        node: node('u1', 'Ada'),
        properties: [{ property: 'born', new_value: 1815 }],
      }),
    )
    expect(touches).toEqual({
      nodes: [{ role: 'node', uuid: 'u1', name: 'Ada', labels: ['PERSON'] }],
      predicate: null,
      properties: ['born'],
    })
  })
})

describe('newestFirst', () => {
  it('sorts by time, newest first', () => {
    const sorted = newestFirst([
      entry('a', '2026-01-01T00:00:00Z', { type: 'node_created' }),
      entry('b', '2026-01-03T00:00:00Z', { type: 'node_created' }),
      entry('c', '2026-01-02T00:00:00Z', { type: 'node_created' }),
    ])
    expect(sorted.map((e) => e.id)).toEqual(['b', 'c', 'a'])
  })

  it('keeps the given order of entries with the same time', () => {
    const same = '2026-01-01T00:00:00.000Z'
    const sorted = newestFirst([
      entry('x2', same, { type: 'node_created' }),
      entry('x1', same, { type: 'node_created' }),
      entry('x3', same, { type: 'node_created' }),
    ])
    expect(sorted.map((e) => e.id)).toEqual(['x2', 'x1', 'x3'])
  })
})
