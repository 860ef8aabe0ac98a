/**
 * Estimated resident bytes of the in-memory index structures, from counts they keep anyway (terms,
 * postings, slots, nodes): O(1) per structure, so the index manager can refresh a brain's estimate on
 * every request and after every batch. The constants were fitted on SciFact text and 512-d vectors
 * with `node --expose-gc` (growth of `heapUsed + arrayBuffers` for the JS parts, of RSS for hnswlib's
 * native memory), one structure at a time, in fresh processes:
 *
 * - BM25: postings, the forward index and per-term and per-document statistics are typed arrays, counted
 *   at their byte length (`Bm25Index.bytes`); on top, a term costs its dictionary `Map` entry and token
 *   string, a term number its slot in the token array, and a document its id string, `Map` entry, array
 *   slot and the query caches (8 bytes of length norm, 9 of score buffers with their slack). Fitted on
 *   SciFact abstracts (1,000 and 5,183), three-word titles (5,183) and synthetic passages (20,000 and
 *   100,000), with the analyser's stem memo filled beforehand: within 4% of the heap growth for 1,000
 *   documents or more; it underestimates a few hundred short texts (0.55 to 0.8), where hash-table
 *   slack dominates.
 * - Vectors: hnswlib (0.8, in hnswlib-node 3.0.0) allocates per slot its level-0 links (2M + 1 ints),
 *   the vector itself, a label, a mutex, a level and a visited-list mark, and per index 65,536 label
 *   mutexes (40 bytes each on Linux): 2.6 MB however small the index. The flat copy beside it is
 *   `slots x dimension` float32. Both are counted at their allocated capacity, not their use: an
 *   allocation that reuses memory freed by an evicted brain is resident whether it is written or not.
 * - Graph: 1,000 to 10,000 entities, 0 to 30,000 relationships, strings fresh from JSON as an adapter
 *   returns them.
 *
 * Whole brains (`npm run bench -- --many-brains`, `benchmarks/results/many-brains.md`, 2026-11-25):
 * estimate / heap growth (`heapUsed + arrayBuffers`) is 1.4 to 2.4, the rest being hnswlib's native
 * memory; estimate / RSS growth is 0.9 to 1.9 in a fresh process (0.9 at 1,000 passages of 512-d
 * vectors, 1.4 at 200: untouched capacity is not resident yet) and 0.6 to 1.1 after one eviction cycle
 * under glibc's default malloc (freed memory retained), 0.7 to 1.8 with `MALLOC_MMAP_THRESHOLD_=131072`.
 * Serving 2,000 brains of 200 passages under a 512 MB budget with that setting, RSS above the baseline
 * was 534 MB for 509 MB of estimates (0.95).
 */
export const INDEX_BYTES = {
  /** `index`: an index's fixed cost, its maps and a dozen small typed arrays with their buffers. */
  bm25: { index: 3700, term: 50, termSlot: 8, document: 60 },
  /** Label and event time per entity (`LexicalIndexes.entityInfo`). */
  entityInfo: 150,
  vectors: {
    /** hnswlib's `label_op_locks_`: 65,536 `std::mutex`. */
    hnswFixed: 65_536 * 40,
    /** Per slot beside the links and the vector: label 8, mutex 40, level 4, link-list pointer 8, visited mark 2, label map ~44. */
    hnswPerSlot: 106,
    /** Per vector on the JS heap: the id, its slot in `ids`, its entry in the label map. */
    perVector: 110,
  },
  /**
   * `walkScratch`: per node of the passage walk's space (entities and cited passages), its scratch
   * arrays, kept between walks (`passage-walk.ts`: three float64 and one byte, 25% slack); counted for
   * every graph, since the default search walks it.
   */
  graph: { node: 600, edge: 300, walkScratch: 32 },
  /**
   * Passages in reading order (`PassageSequence`): per passage its entry, id and `Map` entry and its
   * slot in one or two sequences; per sequence its key, list and `Map` entry. Fitted on 100,000
   * synthetic passages with fresh strings as an adapter returns them, 5 per source (236 bytes per
   * passage) and 20 per session (210), with `node --expose-gc` (2026-11-29).
   */
  sequence: { passage: 200, sequence: 170 },
  /** Per community member (uuid reference, centrality) and per community (summary, hubs, labels). */
  communities: { member: 40, community: 300 },
} as const

/**
 * A BM25 inverted index (`Bm25Index`): `terms` in the dictionary, `termSlots` term numbers given out,
 * `documents` document numbers given out, and `typedBytes` in its typed arrays.
 */
export function bm25Bytes(
  terms: number,
  termSlots: number,
  documents: number,
  typedBytes: number,
): number {
  const b = INDEX_BYTES.bm25
  return b.index + terms * b.term + termSlots * b.termSlot + documents * b.document + typedBytes
}

/**
 * One dense index (`VectorIndex`): hnswlib's graph with its own copy of the vectors, the flat copy,
 * and the ids. `slots` is the allocated capacity; links per node at level 0 are 2m (plus a count),
 * and the upper levels add (4m + 4) / (m - 1) bytes per slot on average.
 */
export function vectorIndexBytes(
  slots: number,
  vectors: number,
  dimension: number,
  m: number,
): number {
  const v = INDEX_BYTES.vectors
  const level0 = 2 * m * 4 + 4
  const upper = (4 * m + 4) / Math.max(1, m - 1)
  const hnsw = v.hnswFixed + slots * (level0 + upper + dimension * 4 + v.hnswPerSlot)
  return Math.round(hnsw + slots * dimension * 4 + vectors * v.perVector)
}
