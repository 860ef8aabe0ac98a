import type { EngramClient } from '@engram/client'

/** Passages read per `GET /sources/{source_id}` page while looking for a hit's passage. */
const PAGE = 200
/** Passages read per source at most; a passage further in keeps its snippet. */
const MAX_READ = 1_000

interface SourceReading {
  texts: Map<string, string>
  read: number
  done: boolean
  /** The reads of this source, one after the other. */
  queue: Promise<void>
}

/**
 * The full text of passage hits (a hit carries a snippet of at most 240 characters with its lines
 * joined, which loses a list's or a heading's markup). Reads the hit's source a page at a time, in
 * text order (`GET /sources/{source_id}`), only as far as needed, once per source and search: the
 * hits of one source share its pages.
 */
export function passageTexts(client: EngramClient, signal: AbortSignal) {
  const sources = new Map<string, SourceReading>()

  async function readUntil(reading: SourceReading, sourceId: string, passageId: string) {
    while (!reading.texts.has(passageId) && !reading.done) {
      const { passages, total } = await client.sources.get(sourceId, {
        limit: PAGE,
        skip: reading.read,
        signal,
      })
      for (const p of passages) reading.texts.set(p.id, p.text)
      reading.read += passages.length
      reading.done = passages.length === 0 || reading.read >= total || reading.read >= MAX_READ
    }
  }

  return {
    /** The passage's text, or null when its source does not hold it (forgotten, or too far in). */
    async text(sourceId: string, passageId: string): Promise<string | null> {
      let reading = sources.get(sourceId)
      if (reading === undefined) {
        reading = { texts: new Map(), read: 0, done: false, queue: Promise.resolve() }
        sources.set(sourceId, reading)
      }
      const current = reading
      current.queue = current.queue.then(() => readUntil(current, sourceId, passageId))
      await current.queue
      return current.texts.get(passageId) ?? null
    },
  }
}
