import { describe, expect, it } from 'vitest'
import {
  countDocument,
  emptyCounts,
  extractionScores,
  goldKeys,
  matchNodes,
} from './extraction-metrics.js'
import { falseMerges } from './false-merges.js'
import { rebuildText, type RedocredDoc } from './redocred.js'

const doc: RedocredDoc = {
  id: 'd1',
  title: 't',
  text: '',
  entities: [
    { index: 0, type: 'PER', names: ['Wilfried "Willi" Schneider', 'Schneider'] },
    { index: 1, type: 'LOC', names: ['Mediaș'] },
    { index: 2, type: 'ORG', names: ['FIBT'] },
  ],
  relatedPairs: [
    [0, 1],
    [0, 2],
  ],
}

/** `doc` and Berlin, which the gold set relates to nothing. */
const withBerlin: RedocredDoc = {
  ...doc,
  entities: [...doc.entities, { index: 3, type: 'LOC', names: ['Berlin'] }],
}
/** Nodes of Schneider (0), Mediaș (1) and Berlin (3), and a concept the gold set does not annotate. */
const things = [
  { uuid: 'a', names: ['Schneider'], labels: ['PERSON'] },
  { uuid: 'm', names: ['Mediaș'], labels: ['PLACE'] },
  { uuid: 'b', names: ['Berlin'], labels: ['PLACE'] },
  { uuid: 'x', names: ['racer'], labels: ['CONCEPT'] },
]

describe('extraction measures', () => {
  it('rebuilds text from tokens', () => {
    expect(
      rebuildText([
        'Wilfried',
        '"',
        'Willi',
        '"',
        'Schneider',
        '(',
        'born',
        ')',
        ',',
        'Mediaș',
        '.',
      ]),
    ).toBe('Wilfried "Willi" Schneider (born), Mediaș.')
  })

  it('matches names exactly, without a quoted nickname, and by a fragment of one entity', () => {
    expect(goldKeys('Wilfried "Willi" Schneider')).toEqual([
      'wilfried willi schneider',
      'wilfried schneider',
    ])
    const m = matchNodes(
      [
        { uuid: 'a', names: ['Wilfried Schneider'], labels: ['PERSON'] },
        { uuid: 'b', names: ['Willi'], labels: ['PERSON'] },
        { uuid: 'c', names: ['skeleton'], labels: ['CONCEPT'] },
      ],
      doc.entities,
    )
    expect(m.get('a')!.map((e) => e.index)).toEqual([0])
    expect(m.get('b')!.map((e) => e.index)).toEqual([0])
    expect(m.get('c')).toEqual([])
  })

  it('scores types, fragmentation, precision and pairs joined through an event', () => {
    const counts = emptyCounts()
    countDocument(counts, doc, {
      nodes: [
        { uuid: 'a', names: ['Wilfried Schneider'], labels: ['PERSON'] },
        { uuid: 'b', names: ['Schneider'], labels: ['PERSON'] },
        { uuid: 'm', names: ['Mediaș'], labels: ['CONCEPT'] },
        { uuid: 'x', names: ['racer'], labels: ['CONCEPT'] },
        { uuid: 'e', names: ['born'], labels: ['EVENT'] },
      ],
      edges: [
        { subject: 'a', object: 'e' },
        { subject: 'e', object: 'm' },
      ],
    })
    const s = extractionScores(counts)
    expect(s['PER-P']).toBe(1)
    expect(s['PER-R']).toBe(1)
    expect(s['LOC-R']).toBe(0)
    expect(s['NE-R']).toBeCloseTo(2 / 3)
    expect(s['nodes-per-entity']).toBe(1.5)
    expect(s['node-P']).toBe(0.75)
    expect(s['pair-R']).toBe(0.5)
  })

  it('judges an event by whether its actor and target are a pair the gold set relates', () => {
    const counts = emptyCounts()
    const event = (uuid: string) => ({ uuid, names: [uuid], labels: ['EVENT'] })
    countDocument(counts, withBerlin, {
      nodes: [...things, event('born'), event('visited'), event('was')],
      edges: [
        // Related in gold (0, 1), and the unrelated Berlin only as another leg.
        { subject: 'a', object: 'born', name: 'BORN' },
        { subject: 'born', object: 'm', name: 'TARGETED' },
        { subject: 'born', object: 'b', name: 'OCCURRED_IN' },
        // Not related in gold (0, 3), though Mediaș takes part.
        { subject: 'a', object: 'visited', name: 'VISITED' },
        { subject: 'visited', object: 'b', name: 'TARGETED' },
        { subject: 'visited', object: 'm', name: 'INVOLVED' },
        // A target the gold set does not annotate: not judged.
        { subject: 'a', object: 'was', name: 'WAS' },
        { subject: 'was', object: 'x', name: 'TARGETED' },
      ],
    })
    const s = extractionScores(counts)
    expect(s['events-judged']).toBe(2)
    expect(s['event-P']).toBe(0.5)
  })

  it('judges relationships between two gold entities by whether gold relates them', () => {
    const counts = emptyCounts()
    countDocument(counts, withBerlin, {
      nodes: [...things, { uuid: 'e', names: ['born'], labels: ['EVENT'] }],
      edges: [
        // Related in gold (0, 1).
        { subject: 'a', object: 'm', name: 'LIVES_IN' },
        // Not related in gold (1, 3).
        { subject: 'm', object: 'b', name: 'LOCATED_IN' },
        // Not judged: one side annotates nothing, or is an event.
        { subject: 'a', object: 'x', name: 'IS' },
        { subject: 'a', object: 'e', name: 'BORN' },
      ],
    })
    const s = extractionScores(counts)
    expect(s['relationships-judged']).toBe(2)
    expect(s['relationship-P']).toBe(0.5)
  })

  it('counts a node standing for two people of different full names as a false merge', () => {
    const other: RedocredDoc = {
      ...doc,
      id: 'd2',
      entities: [{ index: 0, type: 'PER', names: ['Romy Schneider', 'Schneider'] }],
    }
    const docs = new Map([
      ['d1', doc],
      ['d2', other],
    ])
    const node = { uuid: 'n', names: ['Schneider'], labels: ['PERSON'] }
    expect(falseMerges([{ ...node, docs: ['d1', 'd2'] }], docs)).toHaveLength(1)
    expect(falseMerges([{ ...node, docs: ['d1'] }], docs)).toHaveLength(0)
  })

  it('counts no false merge where the gold set names one person two ways', () => {
    const pope = (id: string, names: string[]): RedocredDoc => ({
      ...doc,
      id,
      entities: [{ index: 0, type: 'PER', names }],
    })
    const docs = new Map([
      ['d1', pope('d1', ['Joseph Cardinal Ratzinger', 'Benedict XVI'])],
      ['d2', pope('d2', ['Benedict XVI'])],
    ])
    const node = { uuid: 'n', names: ['Benedict XVI'], labels: ['PERSON'], docs: ['d1', 'd2'] }
    expect(falseMerges([node], docs)).toEqual([])
  })
})
