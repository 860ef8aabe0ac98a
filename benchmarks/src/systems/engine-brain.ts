import {
  createEngine,
  memoryAdapter,
  type Bm25Settings,
  type Embedder,
  type Engram,
  type Passage,
  type SearchPlugin,
  type SearchService,
  type StorageAdapter,
  type VectorRecord,
} from '@engram/core'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'

/** Passages committed per batch (one transaction each, as an ingestion task would). */
export const COMMIT_BATCH = 500

/** A benchmark document as the passage ingestion would store (its id kept, so run files name dataset ids). */
export function docToPassage(doc: BenchDoc, position: number, insertedAt: string): Passage {
  const text = indexText(doc)
  return {
    id: doc.id,
    text,
    metadata: { ...(doc.metadata ?? {}) },
    insertedAt,
    brainVersion: 'bench',
    source: null,
    position,
    start: 0,
    end: text.length,
  }
}

export interface EngineBrain {
  readonly engram: Engram
  readonly search: SearchService
  readonly brainId: string
  /**
   * Commits documents as passages through `engram.commit` (indexes follow through the commit listener, as
   * in the server); `vector` adds each passage's vector in the `passages` space in the same batch.
   */
  commitDocs(docs: readonly BenchDoc[], vector?: (doc: BenchDoc) => Float32Array): Promise<void>
  close(): Promise<void>
}

export interface EngineBrainOptions {
  /** Default: the in-memory adapter. */
  readonly storage?: StorageAdapter
  /** Query embedder for dense retrieval; null for lexical only. */
  readonly embedder?: Embedder | null
  readonly brainId?: string
  /** Build the (empty) indexes before the first commit, so commits update them incrementally. */
  readonly warmIndexes?: boolean
  /** Search plugins registered beside the built-ins (`plugin:<name>` channels, fusions, stages). */
  readonly plugins?: readonly SearchPlugin[]
  /** BM25 settings of the engine (`EngineOptions.bm25`); default: the engine's defaults. */
  readonly bm25?: Bm25Settings
}

/** The real engine (`createEngine`) on one brain, for in-process measurements. */
export async function openEngineBrain(options: EngineBrainOptions = {}): Promise<EngineBrain> {
  const brainId = options.brainId ?? 'bench'
  const engram = createEngine({
    storage: options.storage ?? memoryAdapter(),
    version: 'bench',
    defaultBrain: brainId,
    workers: 1,
    embedder: options.embedder ?? null,
    plugins: [...(options.plugins ?? [])],
    ...(options.bm25 === undefined ? {} : { bm25: options.bm25 }),
  })
  await engram.start()
  const search = engram.search
  if (options.warmIndexes !== false) await engram.indexes.get(brainId)
  return {
    engram,
    search,
    brainId,
    async commitDocs(docs, vector) {
      const now = new Date().toISOString()
      for (let i = 0; i < docs.length; i += COMMIT_BATCH) {
        const slice = docs.slice(i, i + COMMIT_BATCH)
        const passages = slice.map((d, j) => docToPassage(d, i + j, now))
        const vectors: VectorRecord[] | undefined = vector
          ? slice.map((d) => ({ space: 'passages', id: d.id, vector: vector(d) }))
          : undefined
        await engram.commit(brainId, { passages, ...(vectors ? { vectors } : {}) })
      }
    },
    close: () => engram.stop({ graceMs: 0 }),
  }
}
