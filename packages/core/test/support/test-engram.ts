import { localExtractor } from '../../src/ingest/extract/local-extractor.js'
import { createEngram, type EngramLibrary } from '../../src/library/create-engram.js'
import type { EngramOptions } from '../../src/library/engram-options.js'
import { memoryStorage } from '../../src/library/memory-storage.js'

/**
 * A library handle for the library's own tests: memory storage, no embedder (no model to load) and the
 * local extractor in this thread (no worker pool to start or close), unless `options` say otherwise.
 * The caller closes it.
 */
export function testEngram(options: Partial<EngramOptions> = {}): Promise<EngramLibrary> {
  return createEngram({
    storage: memoryStorage(),
    embedder: 'none',
    extractor: localExtractor(),
    ...options,
  })
}
