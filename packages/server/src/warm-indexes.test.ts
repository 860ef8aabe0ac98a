import { describe, expect, it } from 'vitest'
import { createEngine, memoryAdapter, type Logger } from '@engram/core'
import { hashingTestEmbedder, searchCorpus, searchCorpusBatch } from '@engram/core/testing'
import { warmIndexes } from './warm-indexes.js'

const embedder = hashingTestEmbedder()

function recordingLogger() {
  const lines: { msg: string; obj: Record<string, unknown> }[] = []
  const keep = (obj: object, msg = '') => lines.push({ msg, obj: obj as Record<string, unknown> })
  const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep }
  return { lines, logger }
}

async function engine(indexMemoryMb: number | undefined, brains: string[]) {
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 't',
    defaultBrain: null,
    embedder,
    ...(indexMemoryMb === undefined ? {} : { indexMemoryMb }),
  })
  await engram.start()
  for (const id of brains) {
    await engram.brains.create(id)
    await engram.commit(id, await searchCorpusBatch(searchCorpus(`${id}-`), embedder))
  }
  return engram
}

describe('warmIndexes', () => {
  const ids = ['a', 'b', 'c', 'd', 'e']

  it('builds every brain without a budget', async () => {
    const engram = await engine(undefined, ids)
    const { lines, logger } = recordingLogger()
    await warmIndexes(engram, logger, () => false)
    expect(engram.indexes.stats()).toMatchObject({ loadedBrains: 5, evictions: 0 })
    expect(lines.at(-1)).toMatchObject({ msg: 'brain indexes warm', obj: { brains: 5 } })
    await engram.stop()
  })

  it('stops once the index memory budget is full instead of evicting what it warmed', async () => {
    const probe = await engine(undefined, ['x'])
    const one = (await probe.indexes.get('x')).estimatedBytes()
    await probe.stop()
    const engram = await engine((2.5 * one) / 2 ** 20, ids)
    const { lines, logger } = recordingLogger()
    await warmIndexes(engram, logger, () => false)
    // The third brain went over the budget: the eviction it set off runs in the background.
    await engram.indexes.settled()
    const stats = engram.indexes.stats()
    expect(stats.loadedBrains).toBe(2)
    expect(stats.evictions).toBe(1)
    expect(lines.at(-1)).toMatchObject({
      msg: 'index warm-up stopped: the index memory budget is full',
      obj: { brains: 3 },
    })
    await engram.stop()
  })
})
