import { describe, expect, it } from 'vitest'
import { ingestThroughput, spreadOverBrains, type TaskWire } from './http-ingest.js'

const task = (
  id: string,
  status: TaskWire['status'],
  updatedAt: string,
  passages: number | null,
  error = '',
): TaskWire => ({
  id,
  status,
  result: passages === null ? null : { passages, entities: passages * 10 },
  error,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: updatedAt,
})

describe('ingestThroughput', () => {
  it("times from the first POST to the last task's terminal update and counts what completed", () => {
    const start = Date.parse('2026-11-24T10:00:00.000Z')
    const r = ingestThroughput(
      [
        task('a', 'completed', '2026-11-24T10:00:01.000Z', 2),
        task('b', 'completed', '2026-11-24T10:00:04.000Z', 3),
        task('c', 'failed', '2026-11-24T10:00:02.000Z', null, 'extractor crashed'),
        task('d', 'partial_failed', '2026-11-24T10:00:03.000Z', 1),
      ],
      start,
    )
    expect(r).toEqual({
      docs: 4,
      completed: 2,
      failed: 2,
      passages: 6,
      entities: 60,
      wallMs: 4000,
      docsPerSec: 1,
      passagesPerSec: 1.5,
      firstError: 'extractor crashed',
    })
  })

  it('gives zero rates rather than infinities for an empty or instant run', () => {
    const r = ingestThroughput([], 1000)
    expect(r).toMatchObject({ docs: 0, wallMs: 0, docsPerSec: 0, firstError: null })
  })
})

describe('spreadOverBrains', () => {
  it('deals the documents out in turn, in corpus order', () => {
    expect(spreadOverBrains(['a', 'b', 'c'], ['x', 'y'])).toEqual([
      { brain: 'x', text: 'a' },
      { brain: 'y', text: 'b' },
      { brain: 'x', text: 'c' },
    ])
  })
})
