import { describe, expect, it } from 'vitest'
import type { RetrievalDataset } from '../loaders/dataset-types.js'
import { countTokens, locomoTasks, parseLocomoDate } from './locomo-tasks.js'
import { runIngestTasks } from './run-ingest-tasks.js'

const dataset: RetrievalDataset = {
  name: 'locomo',
  notes: [],
  groups: [
    {
      name: 'conv-1',
      queries: [],
      qrels: new Map(),
      docs: [
        {
          id: 'conv-1/D1:1',
          text: 'Emily: I organized the AI Ethics Meetup in London yesterday.',
          metadata: { dia_id: 'D1:1', session: 1, session_date: '1:56 pm on 8 May, 2023' },
        },
        {
          id: 'conv-1/D1:2',
          text: 'Tom: Great, I met Sarah there.',
          metadata: { dia_id: 'D1:2', session: 1, session_date: '1:56 pm on 8 May, 2023' },
        },
        {
          id: 'conv-1/D2:1',
          text: 'Emily: Paris next week!',
          metadata: { dia_id: 'D2:1', session: 2, session_date: '9:05 am on 25 May, 2023' },
        },
      ],
    },
  ],
}

describe('LoCoMo ingestion tasks', () => {
  it('parses session dates as UTC and refuses other shapes', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z')
    expect(parseLocomoDate('12:05 am on 1 January, 2024')).toBe('2024-01-01T00:05:00.000Z')
    expect(parseLocomoDate('yesterday')).toBeNull()
  })

  it('makes one task per session (turns joined by newlines) or one per turn', () => {
    const sessions = locomoTasks(dataset, 'session')
    expect(sessions.map((t) => t.turns)).toEqual([2, 1])
    expect(sessions[0]!.brainId).toBe('conv-1')
    expect(sessions[0]!.payload.text).toBe(
      'Emily: I organized the AI Ethics Meetup in London yesterday.\nTom: Great, I met Sarah there.',
    )
    expect(sessions[0]!.payload.sourceTimestamp).toBe('2023-05-08T13:56:00.000Z')
    const turns = locomoTasks(dataset, 'turn')
    expect(turns).toHaveLength(3)
    expect(turns[2]!.payload.metaKeys).toMatchObject({ dia_id: 'D2:1', session: 2 })
    expect(countTokens(turns[0]!.payload.text!)).toBe(10)
  })

  it('runs the tasks through the real pipeline and counts what it wrote', async () => {
    const r = await runIngestTasks(locomoTasks(dataset, 'turn'))
    expect(r).toMatchObject({
      tasks: 3,
      turns: 3,
      completed: 3,
      failed: 0,
      passages: 3,
      embedded: 0,
    })
    expect(r.entities).toBeGreaterThan(0)
    expect(r.wallMs).toBeGreaterThan(0)
  })
})
