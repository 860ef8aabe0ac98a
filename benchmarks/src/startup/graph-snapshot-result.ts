import type { Environment } from '../run/environment.js'

/** One `GraphIndex.build(store)` of the brain: what a start without a graph snapshot does on first use. */
export interface GraphBuildRun {
  readonly wallMs: number
  /** User + system CPU of the process (all threads) during the build. */
  readonly cpuMs: number
  /** Heap (`heapUsed + arrayBuffers`) after a full collection, the graph held, minus before it. */
  readonly heapMb: number
  readonly load1: number
}

/** One `saveGraphSnapshot` of the built graph (encode, SHA-256, write, fsync, rename). */
export interface GraphSaveRun {
  readonly wallMs: number
  readonly cpuMs: number
  readonly bytes: number
  /**
   * As `GraphLoadRun.stallMs`, during the save (encoded in slices since; absent from results saved
   * before the probe ran beside saves).
   */
  readonly stallMs?: number
}

/** One `loadGraphSnapshot`, with where its time goes (measured again, step by step, after it). */
export interface GraphLoadRun extends GraphBuildRun {
  readonly readMs: number
  readonly sha256Ms: number
  readonly decodeMs: number
  /** `graphFromParts`: the arrays and maps of the index from the decoded parts. */
  readonly assembleMs: number
  /**
   * The longest the event loop went without a turn during the load (`loopStallProbe`: a 5 ms timer's
   * largest gap, minus 5 ms): how long every other brain's requests on the process waited.
   */
  readonly stallMs: number
}

/** One load of the brain's lexical snapshot (`loadLexicalSnapshot`, then the indexes restored). */
export interface LexicalLoadRun {
  readonly wallMs: number
  readonly cpuMs: number
  /** As `GraphLoadRun.stallMs`. */
  readonly stallMs: number
  readonly load1: number
}

/** What `npm run bench -- --graph-snapshot` saves in results/data/graph-snapshot.json. */
export interface GraphSnapshotResult {
  readonly command: string
  readonly environment: Environment
  readonly graph: {
    readonly entities: number
    readonly relationships: number
    readonly nodes: number
    readonly edges: number
  }
  /** The records stored in the SQLite brain (`store.apply`, 5,000 a batch). */
  readonly storeMs: number
  readonly sqliteBytes: number
  readonly builds: readonly GraphBuildRun[]
  readonly saves: readonly GraphSaveRun[]
  readonly loads: readonly GraphLoadRun[]
  /** The loaded index holds what the built one does (every field but the time views and change count). */
  readonly loadedEqualsBuilt: boolean
  /**
   * The brain's lexical indexes (`LexicalIndexes`, built once from the store): documents per BM25
   * index, snapshot bytes, and `runs` loads of the snapshot, the first compared with the built indexes.
   */
  readonly lexical: {
    readonly documents: { readonly entities: number; readonly events: number }
    readonly bytes: number
    readonly buildMs: number
    readonly loads: readonly LexicalLoadRun[]
    readonly loadedEqualsBuilt: boolean
  }
  readonly loadAfter: readonly number[]
}
