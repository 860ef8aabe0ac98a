import { describe, expect, it } from 'vitest'
import { fixtures as f } from '../../testing/fixtures.js'
import { memoryAdapter } from '../memory-adapter/memory-adapter.js'
import { batchFromSummary, summarizeBatch } from './write-summary.js'

async function brain() {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create(f.brain('alpha'))
  return adapter.brain('alpha')
}

describe('write summary', () => {
  it('carries forgetting deletes to a follower, which reads the survivors back', async () => {
    const store = await brain()
    await store.apply({
      passages: [f.passage({ id: 'p1' }), f.passage({ id: 'p2' })],
      observations: [f.observation({ id: 'o1' })],
    })
    const forget = {
      passages: [f.passage({ id: 'p3' })],
      deletePassages: ['p1', 'p1'],
      deleteObservations: ['o1'],
      deleteStructured: ['s1'],
      deleteSources: ['src'],
      redactChangelog: [{ id: 'c1', change: { type: 'redacted' } }],
      erasePayloads: ['t1'],
    }
    await store.apply(forget)
    const summary = summarizeBatch(forget)
    // Records the indexes do not hold (structured, sources, history) stay out of the feed.
    expect(summary).toEqual({
      passages: ['p3'],
      deletePassages: ['p1'],
      deleteObservations: ['o1'],
    })
    expect(await batchFromSummary(store, summary!)).toEqual({
      passages: [f.passage({ id: 'p3' })],
      deletePassages: ['p1'],
      deleteObservations: ['o1'],
    })
  })

  it('has nothing to announce for a batch of sources, evidence and redactions', () => {
    expect(
      summarizeBatch({
        sources: [f.source()],
        evidence: [{ kind: 'entity', recordId: 'e1', evidenceId: 'p1' }],
        redactChangelog: [{ id: 'c1', change: {} }],
        erasePayloads: ['t1'],
        deleteSources: ['src'],
      }),
    ).toBeNull()
  })
})
