import { describe, expect, it } from 'vitest'
import { localExtractor } from './local-extractor.js'
import { localExtractorPool } from './local-extractor-pool.js'

const input = (text: string, id: string) => ({
  passages: [{ id, text }],
  sourceTimestamp: '2024-04-10T09:00:00.000Z',
  observateFor: [],
})
const signal = () => new AbortController().signal
const TEXTS = [
  'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
  'Yesterday Bob bought a new bike from Acme Corp for $450. He loved it.',
  'Thomas Bevan (c.1796 – 31 January 1819) was a Welsh missionary.',
  'He was commander of St. Vincent from 1794 to 1796.',
]

describe('local extractor pool, recycling its workers', () => {
  it('replaces a worker once it has read recycleAfterChars, and extracts as before', async () => {
    const started: number[] = []
    const pool = localExtractorPool({
      workers: 1,
      recycleAfterChars: 100,
      onWorkerStart: (id) => started.push(id),
    })
    const inThread = localExtractor()
    try {
      for (const [i, text] of TEXTS.entries()) {
        const id = `p${i}`
        expect(await pool.extract(input(text, id), { signal: signal() })).toEqual(
          await inThread.extract(input(text, id), { signal: signal() }),
        )
      }
      // The first worker reads the first two texts (64 + 69 characters) and is replaced; the second
      // reads the other two.
      expect(new Set(started).size).toBe(2)
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('keeps its workers by default', async () => {
    const started: number[] = []
    const pool = localExtractorPool({ workers: 1, onWorkerStart: (id) => started.push(id) })
    try {
      for (const [i, text] of TEXTS.entries())
        await pool.extract(input(text, `p${i}`), { signal: signal() })
      expect(started).toHaveLength(1)
    } finally {
      await pool.close()
    }
  }, 60_000)
})
