import type { Changelog } from '@engram/client'
import { describe, expect, it } from 'vitest'
import { changelogBatches, typeCounts } from './changelog-batches.js'

const entry = (id: string, type: string, timestamp: string, change: Record<string, unknown> = {}) =>
  ({ id, type, timestamp, change: { type, ...change } }) as Changelog

describe('changelogBatches', () => {
  it('puts an ingestion’s entries under its marker and direct writes apart', () => {
    // Newest first, as GET /retrieve/changelogs lists them (times of a real run).
    const page = [
      entry('m2', 'source_ingested', '2026-11-28T21:14:37.963Z', {
        task_id: 't2',
        source_id: 's2',
      }),
      entry('a', 'relationship_created', '2026-11-28T21:14:37.963Z'),
      entry('b', 'node_created', '2026-11-28T21:14:37.962Z'),
      entry('w', 'node_properties_updated', '2026-11-28T21:10:00.000Z'),
      entry('m1', 'source_ingested', '2026-11-28T21:05:37.148Z', {
        task_id: 't1',
        source_id: 'notes-1',
      }),
      entry('c', 'relationship_invalidated', '2026-11-28T21:05:37.148Z'),
      entry('d', 'node_created', '2026-11-28T21:05:37.145Z'),
      entry('e', 'node_created', '2026-11-28T21:05:37.145Z'),
    ]
    const batches = changelogBatches(page)
    expect(batches.map((b) => [b.kind, b.taskId, b.sourceId, b.entries.map((e) => e.id)])).toEqual([
      ['ingestion', 't2', 's2', ['a', 'b']],
      ['writes', null, null, ['w']],
      ['ingestion', 't1', 'notes-1', ['c', 'd', 'e']],
    ])
    expect(batches[2]!.oldest).toBe('2026-11-28T21:05:37.145Z')
    expect(typeCounts(batches[2]!)).toEqual([
      ['node_created', 2],
      ['relationship_invalidated', 1],
    ])
  })

  it('splits entries without a marker where they are further apart than the gap', () => {
    const page = [
      entry('x', 'node_created', '2026-01-01T00:00:10.000Z'),
      entry('y', 'node_created', '2026-01-01T00:00:09.500Z'),
      entry('z', 'node_created', '2026-01-01T00:00:01.000Z'),
      entry('f', 'source_forgotten', '2026-01-01T00:00:00.500Z', { task_id: 'tf', source_id: 's' }),
    ]
    expect(changelogBatches(page).map((b) => [b.kind, b.entries.length])).toEqual([
      ['writes', 2],
      ['writes', 1],
      ['forget', 0],
    ])
  })

  it('takes exactly the entries a marker counts, however close a direct write is', () => {
    // A direct /model write 1 ms before the ingestion's entries: within the gap, but not its batch.
    const page = [
      entry('m', 'source_ingested', '2026-01-01T00:00:00.900Z', { task_id: 't', entries: 2 }),
      entry('a', 'node_created', '2026-01-01T00:00:00.900Z'),
      entry('b', 'node_created', '2026-01-01T00:00:00.899Z'),
      entry('w', 'node_properties_updated', '2026-01-01T00:00:00.898Z'),
      entry('f', 'source_forgotten', '2026-01-01T00:00:00.500Z', { task_id: 'tf', entries: 0 }),
      entry('x', 'node_deleted', '2026-01-01T00:00:00.499Z'),
    ]
    const grouped = (complete: boolean) =>
      changelogBatches(page, undefined, complete).map((b) => [b.kind, b.entries.map((e) => e.id)])
    expect(grouped(true)).toEqual([
      ['ingestion', ['a', 'b']],
      ['writes', ['w']],
      ['forget', []],
      ['writes', ['x']],
    ])
    // Under a type filter the counts do not apply: by time, as for a marker without a count.
    expect(grouped(false)).toEqual([
      ['ingestion', ['a', 'b', 'w']],
      ['forget', ['x']],
    ])
  })
})
