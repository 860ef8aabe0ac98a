import { availableParallelism } from 'node:os'
import { z } from 'zod'
import type { Embedder } from '../contracts/embedder.js'
import type { Extractor } from '../contracts/extractor.js'
import { scheduledEmbedder } from '../embedders/scheduled-embedder.js'
import { useLiteEmbedder } from '../embedders/use-lite/use-lite-embedder.js'
import { createEngine } from '../engine/create-engine.js'
import type { Engram } from '../engine/engine-types.js'
import { EngramError, isEngramError } from '../errors.js'
import { localExtractorPool } from '../ingest/extract/local-extractor-pool.js'
import { parseInput } from '../invalid-input.js'
import { BRAIN_ID_PATTERN } from '../model/brain-record.js'
import { coreVersion } from './core-version.js'
import { engramBrain, type EngramBrain } from './engram-brain.js'
import { engramOptions, type EngramOptions, type ResolvedEngramOptions } from './engram-options.js'
import { libraryBrains, type EngramBrains } from './library-brains.js'
import { createLibraryContext } from './library-context.js'

/**
 * An embedded Engram: the methods of {@link EngramBrain} on the default brain, the same methods on any
 * other brain, brain management, and `close()`. docs/library.md is its one-page guide.
 */
export interface EngramLibrary extends EngramBrain {
  /** The same methods on another brain (create it first with `brains.create`). */
  brain(id: string): EngramBrain
  /** Create, list, get and delete brains. */
  readonly brains: EngramBrains
  /** The engine underneath (`createEngine`'s), for what the library does not wrap. Yours to read. */
  readonly engine: Engram
  /**
   * Stops accepting calls, lets running tasks finish (up to `graceMs`, default 10 s; the rest resume
   * at the next start), saves index snapshots, closes the storage, and closes the workers createEngram
   * started (the `use-lite` embedder's, the `local` extractor's). An Embedder or Extractor passed in
   * stays open. Idempotent; every later call fails with SERVICE_UNAVAILABLE.
   */
  close(options?: { graceMs?: number }): Promise<void>
}

/** Something createEngram started and `close()` must stop. */
interface Owned {
  close(): Promise<void>
}

/** The server's default embedder (packages/server/src/embedder-from-config.ts), or the caller's. */
function embedderOf(choice: ResolvedEngramOptions['embedder'], owned: Owned[]): Embedder | null {
  if (choice === 'none') return null
  if (choice !== 'use-lite') return choice
  const workers = Math.min(2, availableParallelism())
  const embedder = scheduledEmbedder(useLiteEmbedder({ workers }), { concurrency: workers })
  owned.push(embedder)
  return embedder
}

/** The server's default extractor (extractor-from-config.ts: two worker threads), or the caller's. */
function extractorOf(choice: ResolvedEngramOptions['extractor'], owned: Owned[]): Extractor {
  if (choice !== 'local') return choice
  const pool = localExtractorPool({ workers: 2 })
  owned.push(pool)
  return pool
}

async function closeAll(owned: Owned[]): Promise<void> {
  await Promise.allSettled(owned.map((o) => o.close()))
}

const closeOptions = z.strictObject({ graceMs: z.number().int().min(0).optional() }).optional()
const brainId = z.string().regex(BRAIN_ID_PATTERN, 'must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$')

/**
 * Creates and starts an embedded Engram (the composition root `createEngine` underneath) and
 * ensures the default brain. Options are validated: an unknown key, a wrong type or a bad setting is
 * a VALIDATION_ERROR naming it, before anything starts.
 *
 * ```js
 * const engram = await createEngram({ storage: sqliteStorage({ dir: './engram-data' }) })
 * const task = await engram.ingest.text('Ada Lovelace met Charles Babbage in 1833.')
 * await task.done()
 * const { hits } = await engram.search('Babbage')
 * await engram.close()
 * ```
 */
export async function createEngram(options: EngramOptions): Promise<EngramLibrary> {
  const o = parseInput('createEngram', engramOptions, options, ['options'])
  const owned: Owned[] = []
  const embedder = embedderOf(o.embedder, owned)
  const extractor = extractorOf(o.extractor, owned)
  let engine: Engram
  try {
    engine = createEngine({
      storage: o.storage,
      version: o.version ?? coreVersion(),
      defaultBrain: o.defaultBrain,
      workers: o.workers,
      embedder,
      extractor,
      ...(o.logger !== undefined ? { logger: o.logger } : {}),
      ...(o.plugins !== undefined ? { plugins: o.plugins } : {}),
      ...(o.bm25 !== undefined ? { bm25: o.bm25 } : {}),
      ...(o.defaultFusion !== undefined ? { defaultFusion: o.defaultFusion } : {}),
      ...(o.graphChannels !== undefined ? { graphChannels: o.graphChannels } : {}),
      ...(o.indexMemoryMb !== undefined ? { indexMemoryMb: o.indexMemoryMb } : {}),
    })
  } catch (error) {
    await closeAll(owned)
    // A bad BM25 setting or plugin: the options' fault, reported as such.
    if (isEngramError(error)) throw error
    throw new EngramError('VALIDATION_ERROR', `createEngram: ${(error as Error).message}`, {
      status: 400,
      cause: error,
    })
  }
  try {
    await engine.start()
  } catch (error) {
    // Whatever opened before the failure (a pool, a catalog file) must not keep the process alive.
    await engine.stop({ graceMs: 0 }).catch(() => undefined)
    await closeAll(owned)
    if (isEngramError(error)) throw error
    throw new EngramError(
      'SERVICE_UNAVAILABLE',
      `createEngram: the storage could not be opened: ${(error as Error).message}`,
      {
        cause: error,
        resolution: 'Check the storage (directory permissions, database URL) and try again.',
      },
    )
  }

  let closing: Promise<void> | null = null
  const ctx = createLibraryContext(engine, o.maxFileBytes, () => closing !== null)
  return {
    ...engramBrain(ctx, o.defaultBrain),
    brain: (id) => engramBrain(ctx, parseInput('brain', brainId, id, ['id'])),
    brains: libraryBrains(ctx),
    engine,
    async close(raw) {
      const { graceMs } = parseInput('close', closeOptions, raw, ['options']) ?? {}
      closing ??= (async () => {
        try {
          await engine.stop(graceMs === undefined ? {} : { graceMs })
        } finally {
          await closeAll(owned)
        }
      })()
      return closing
    },
  }
}
