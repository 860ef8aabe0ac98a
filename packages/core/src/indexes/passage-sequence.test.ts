import { describe, expect, it } from 'vitest'
import { PassageSequence, sequenceNeighbours } from './passage-sequence.js'

const passage = (
  id: string,
  at: string,
  o: { source?: string | null; position?: number; metadata?: Record<string, unknown> } = {},
) => ({
  id,
  insertedAt: `2025-01-01T00:00:${at}Z`,
  source: o.source ?? null,
  position: o.position ?? 0,
  metadata: o.metadata ?? {},
})

describe('PassageSequence', () => {
  it('orders the turns of a session by when they were written, whatever the arrival order', () => {
    const seq = new PassageSequence()
    seq.add(passage('t3', '03', { metadata: { session: 's1' } }))
    seq.add(passage('t1', '01', { metadata: { session: 's1' } }))
    seq.add(passage('t2', '02', { metadata: { session: 's1' } }))
    seq.add(passage('x1', '02', { metadata: { session: 's2' } }))
    expect(seq.neighbours('t2').sort()).toEqual(['t1', 't3'])
    expect(seq.neighbours('t1')).toEqual(['t2'])
    expect(seq.neighbours('x1')).toEqual([])
  })

  it('links the chunks of one ingested text by position, and prefers session_id to session', () => {
    const seq = new PassageSequence()
    seq.add(passage('c0', '01', { source: 'task-1', position: 0 }))
    seq.add(passage('c2', '01', { source: 'task-1', position: 2 }))
    seq.add(passage('c1', '01', { source: 'task-1', position: 1 }))
    expect(seq.neighbours('c1').sort()).toEqual(['c0', 'c2'])
    seq.add(passage('a', '01', { metadata: { session_id: 'A', session: 'B' } }))
    seq.add(passage('b', '02', { metadata: { session: 'B' } }))
    seq.add(passage('c', '03', { metadata: { session_id: 'A' } }))
    expect(seq.neighbours('a')).toEqual(['c'])
  })

  it("reads a passage's session alone with within: 'session'", () => {
    const seq = new PassageSequence()
    seq.add(passage('c0', '01', { source: 'task-1', position: 0, metadata: { session: 's' } }))
    seq.add(passage('c1', '01', { source: 'task-1', position: 1 }))
    seq.add(passage('t1', '02', { metadata: { session: 's' } }))
    expect(seq.neighbours('c0').sort()).toEqual(['c1', 't1'])
    expect(seq.neighbours('c0', 'session')).toEqual(['t1'])
    expect(seq.neighbours('c1', 'session')).toEqual([])
    expect([...sequenceNeighbours(seq, ['c0', 'c1'], 'session')]).toEqual([['c0', ['t1']]])
  })

  it('ignores a passage added twice and answers nothing for unknown ids', () => {
    const seq = new PassageSequence()
    seq.add(passage('t1', '01', { metadata: { session: 's' } }))
    seq.add(passage('t1', '01', { metadata: { session: 's' } }))
    seq.add(passage('t2', '02', { metadata: { session: 's' } }))
    expect(seq.size).toBe(2)
    expect(seq.neighbours('t2')).toEqual(['t1'])
    expect([...sequenceNeighbours(seq, ['t1', 'nope'])]).toEqual([['t1', ['t2']]])
  })
})

describe('PassageSequence in two sequences', () => {
  it('links a chunk of a conversation to its source and its session, and forgets it from both', () => {
    const seq = new PassageSequence()
    const inBoth = (id: string, at: string, position: number) =>
      passage(id, at, { source: 'doc', position, metadata: { session: 's' } })
    seq.add(inBoth('a', '01', 0))
    seq.add(passage('x', '02', { metadata: { session: 's' } }))
    seq.add(inBoth('b', '03', 1))
    seq.add(passage('y', '04', { metadata: { session: 's' } }))
    // Source first (a, then b), then the session (x before b, y after it), each once.
    expect(seq.neighbours('b')).toEqual(['a', 'x', 'y'])
    const restored = PassageSequence.fromParts(seq.toParts())
    expect(restored.neighbours('b')).toEqual(['a', 'x', 'y'])
    expect(restored.size).toBe(4)
    const bytes = restored.bytes()
    expect(restored.remove('b')).toBe(true)
    expect(restored.neighbours('a')).toEqual(['x'])
    expect(restored.neighbours('y')).toEqual(['x'])
    // Fewer entries, fewer bytes; the source's sequence goes with its last chunk.
    expect(restored.bytes()).toBeLessThan(bytes)
    expect(restored.remove('a')).toBe(true)
    expect(restored.neighbours('x')).toEqual(['y'])
    expect(restored.toParts().strings?.keys).toEqual(['session\u0000s'])
  })
})

describe('PassageSequence snapshot', () => {
  it('finds a passage in a long sequence, after moves and removals, and after a restore', () => {
    const seq = new PassageSequence()
    // 600 chunks of one source arriving shuffled; equal positions are ordered by id.
    const order = Array.from({ length: 600 }, (_, i) => (i * 367) % 600)
    for (const i of order) seq.add(passage(`c${i}`, '01', { source: 'doc', position: i >> 1 }))
    seq.add(passage('c10', '01', { source: 'doc', position: 1000 })) // moved to the end
    seq.remove('c300')
    const expected = Array.from({ length: 600 }, (_, i) => i)
      .filter((i) => i !== 300 && i !== 10)
      .map((i) => `c${i}`)
      .sort((a, b) => (Number(a.slice(1)) >> 1) - (Number(b.slice(1)) >> 1) || (a < b ? -1 : 1))
      .concat(['c10'])
    const restored = PassageSequence.fromParts(seq.toParts())
    for (const s of [seq, restored])
      expected.forEach((id, i) =>
        expect(s.neighbours(id).sort()).toEqual(
          [expected[i - 1], expected[i + 1]].filter((n) => n !== undefined).sort(),
        ),
      )
    expect(seq.neighbours('c300')).toEqual([])
  })

  it('restores in slices what it saved, the same as in one go', () => {
    const seq = new PassageSequence()
    for (let i = 0; i < 12_000; i++)
      seq.add(
        passage(`p${i}`, String(i % 60).padStart(2, '0'), {
          source: `text-${Math.floor(i / 40)}`,
          position: i % 40,
          metadata: { session: `s${i % 7}` },
        }),
      )
    const parts = seq.toParts()
    const work = PassageSequence.restore(parts)
    let yields = 0
    let step = work.next()
    for (; step.done !== true; step = work.next()) yields++
    const sliced = step.value
    // 12,000 passages in 300 texts and 7 sessions: a yield every 4,096 passages or so.
    expect(yields).toBeGreaterThanOrEqual(5)
    const whole = PassageSequence.fromParts(parts)
    for (const id of ['p0', 'p41', 'p5000', 'p11999']) {
      expect(sliced.neighbours(id).sort()).toEqual(seq.neighbours(id).sort())
      expect(whole.neighbours(id).sort()).toEqual(seq.neighbours(id).sort())
    }
    expect(sliced.toParts()).toEqual(parts)
  })
})
