import { describe, expect, it } from 'vitest'
import { captureEnvironment } from '../run/environment.js'
import { ingestReport } from './ingest-report.js'
import type { IngestRunResult } from './run-ingest-tasks.js'

const result = (over: Partial<IngestRunResult> = {}): IngestRunResult => ({
  tasks: 10,
  turns: 2000,
  tokens: 40_000,
  wallMs: 4000,
  submitMs: 100,
  completed: 10,
  failed: 0,
  passages: 2000,
  entities: 3000,
  events: 500,
  relationships: 1000,
  observations: 700,
  citations: 2500,
  embedded: 0,
  load1: 1.5,
  cpuMs: 6000,
  mainCpuMs: 1500,
  ...over,
})

describe('ingestReport', () => {
  const base = {
    command: 'npm run bench -- --ingest',
    environment: captureEnvironment(new Date(0)),
    corpus: { conversations: 1, sessions: 10, turns: 2000 },
    extractorWarmUpMs: [700, 720],
    warmUpTasks: 300,
    tasksAtOnce: [],
    server: { workers: 4, extractorWorkers: 2 },
  }

  it('reports rates, CPU per passage, records per 1,000 turns and a pending embedder by name', () => {
    const text = ingestReport({
      ...base,
      runs: [
        { label: 'one task per turn', result: result() },
        {
          label: 'one 5 MiB text',
          result: result({ tasks: 1, turns: 0, passages: 3000, wallMs: 30_000, maxStallMs: 612 }),
        },
      ],
      embedding: null,
      embeddingMissing: 'no embedder',
    })
    expect(text).toContain('GENERATED FILE')
    // 2,000 passages in 4 s; 40,000 tokens in 4 s; 6,000 ms of CPU (1,500 on the main thread) for 2,000 passages.
    expect(text).toContain(
      '| one task per turn | 10 | 2,000 | 4.00 | 500.0 | 500.0 | 10000.0 | 3.00 | 0.75 | 0.10 | 0 | 1.5 |',
    )
    // The headline is the first run; a document run has no turns and stays out of the per-turn table.
    expect(text).toContain('| one task per turn | 1500 | 250 | 500 | 350 | 1000 |')
    const perTurn = text.slice(text.indexOf('## Records'), text.indexOf('## With the use-lite'))
    expect(perTurn).toContain('| one task per turn |')
    expect(perTurn).not.toContain('one 5 MiB text')
    expect(text).toContain('longest event-loop stall 612 ms')
    expect(text).toContain('Pending: no embedder.')
    expect(text).toContain(
      'one task per turn (server defaults) 500.0 passages/s at load 1.5: met; 3.00 ms of CPU per passage',
    )
    expect(text).toContain('A 5 MB text file ingests: completed in 30.0 s (one 5 MiB text)')
  })

  it('lists the runs at several tasks at once and says whether their records agree', () => {
    const at = (workers: number, citations: number) => ({
      workers,
      run: { label: 'conv-26', result: result({ citations, wallMs: 4000 / workers }) },
    })
    const same = ingestReport({
      ...base,
      runs: [],
      embedding: null,
      embeddingMissing: null,
      tasksAtOnce: [at(1, 2500), at(2, 2500)],
    })
    // 2,000 passages in 2 s; 6,000 ms of CPU (1,500 on the main thread).
    expect(same).toContain('| 2 | 1000.0 | 3.00 | 0.75 | 3,000 | 1,000 | 2,500 | 0 | 1.5 |')
    expect(same).toContain('are the same at every count')
    const lost = ingestReport({
      ...base,
      runs: [],
      embedding: null,
      embeddingMissing: null,
      tasksAtOnce: [at(1, 2500), at(2, 2490)],
    })
    expect(lost).toContain('DIFFER')
  })

  it("compares the pipeline's embedded texts per second with the embedder alone", () => {
    const text = ingestReport({
      ...base,
      runs: [],
      embedding: {
        run: { label: 'with use-lite', result: result({ embedded: 300, wallMs: 10_000 }) },
        own: { texts: 300, ms: 5000, perSecond: 60 },
        loadMs: [100, 120],
        workers: 2,
      },
      embeddingMissing: null,
    })
    expect(text).toContain('**50%**')
    expect(text).toContain('50%: NOT met')
  })
})
