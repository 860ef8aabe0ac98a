import { chmod, mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import hnswlib from 'hnswlib-node'
import { loopYielder } from '../../loop-yielder.js'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../private-files.js'
import { FlatVectors } from './flat-vectors.js'
import { VectorIndex, type VectorIndexSettings } from './vector-index.js'

const FORMAT = 2
const HNSW_FILE = 'hnsw.bin'
const VECTORS_FILE = 'vectors.f32'
const META_FILE = 'index.json'
/** Bytes of the flat vectors copied out of the index per write (a copy of 16 MB takes a few ms). */
const WRITE_CHUNK = 2 ** 24
/** Event-loop turns while queued graph writes are replayed before a save (as builds do). */
const SLICE_MS = 20

interface SnapshotMeta {
  format: number
  /** Caller's name for this snapshot (`saveVectorIndex` option `id`); '' when none was given. */
  id: string
  settings: VectorIndexSettings
  /** Slots in use (live or free); equals the HNSW element count. */
  slots: number
  /** Sizes of the two data files, checked at load (a truncated file is refused). */
  hnswBytes: number
  vectorsBytes: number
  /** Id per slot; null for a free slot (marked deleted in the HNSW file). */
  ids: (string | null)[]
}

/**
 * Writes `index` into directory `dir` (created if needed): the HNSW graph through hnswlib's
 * `writeIndex` (`hnsw.bin`, delete marks included), the flat vectors (`vectors.f32`, float32 in
 * platform byte order) and the id per label with the settings (`index.json`). Each file is written
 * under a temporary name, then the three are renamed, `index.json` last. Loading checks that the
 * three agree, so a crash between renames is detected and the caller rebuilds from storage. The
 * directory is created 0700 and the files are 0600 (they hold a brain's data; `private-files.ts`).
 *
 * `writeIndex` reads the graph on a libuv thread while this thread goes on: the caller must not
 * change `index` until the returned promise settles. The event loop keeps turning throughout: the
 * graph writes the index still queues are replayed with turns in between (`flushGraph`), and the
 * flat vectors are copied out and written 16 MB at a time. A graph still being read from a snapshot
 * is waited for. The files are written, not synced; call `syncVectorSnapshot` before trusting them
 * across a power loss.
 */
export async function saveVectorIndex(
  index: VectorIndex,
  dir: string,
  options: { id?: string } = {},
): Promise<void> {
  await index.graphReady
  await index.flushGraph(loopYielder(SLICE_MS))
  const { settings, hnsw, flat, ids } = index.parts()
  const slots = ids.length
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const tmp = (name: string) => join(dir, `${name}.tmp`)
  await hnsw.writeIndex(tmp(HNSW_FILE))
  const vectorsBytes = await writeVectors(tmp(VECTORS_FILE), flat, slots)
  const meta: SnapshotMeta = {
    format: FORMAT,
    id: options.id ?? '',
    settings,
    slots,
    hnswBytes: (await stat(tmp(HNSW_FILE))).size,
    vectorsBytes,
    ids,
  }
  await writeFile(tmp(META_FILE), JSON.stringify(meta), { mode: PRIVATE_FILE_MODE })
  // hnswlib creates its file with the process umask, and `writeFile` keeps the mode of a temporary
  // file a crash left behind: set each one before it takes its final name.
  for (const name of [HNSW_FILE, VECTORS_FILE, META_FILE]) {
    await chmod(tmp(name), PRIVATE_FILE_MODE)
    await rename(tmp(name), join(dir, name))
  }
}

/**
 * Writes the first `slots` vectors of `flat` to `path` in chunks of {@link WRITE_CHUNK} bytes, each a
 * copy taken just before its write (one copy of the whole matrix, 200 MB for 100,000 x 512-d, held the
 * event loop for a tenth of a second and doubled the memory for the write). Returns the bytes written.
 */
async function writeVectors(path: string, flat: FlatVectors, slots: number): Promise<number> {
  const total = slots * flat.dimension * 4
  const handle = await open(path, 'w', PRIVATE_FILE_MODE)
  try {
    for (let at = 0; at < total;) {
      const chunk = flat.byteRange(at, Math.min(total, at + WRITE_CHUNK))
      for (let done = 0; done < chunk.length;) {
        const { bytesWritten } = await handle.write(chunk, done, chunk.length - done, at + done)
        done += bytesWritten
      }
      at += chunk.length
    }
  } finally {
    await handle.close()
  }
  return total
}

/**
 * Flushes a snapshot written by `saveVectorIndex` to disk (fsync of each file, then of the directory
 * so the renames are durable too), so that a snapshot recorded as valid after this call survives a
 * power loss. Runs on libuv threads; the index may change meanwhile.
 */
export async function syncVectorSnapshot(dir: string): Promise<void> {
  for (const name of [HNSW_FILE, VECTORS_FILE, META_FILE]) await fsyncPath(join(dir, name))
  await fsyncDir(dir)
}

/**
 * Writes `data` as `dir/name`, complete or not at all: under a temporary name (0600, `dir` made 0700
 * if missing, as every file of a brain: `private-files.ts`), synced, renamed over the old file, and the
 * directory synced so the rename is durable too.
 */
export async function writeFileDurably(dir: string, name: string, data: string | Uint8Array) {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const tmp = join(dir, `${name}.tmp`)
  await writeFile(tmp, data, { mode: PRIVATE_FILE_MODE })
  await fsyncPath(tmp)
  await rename(tmp, join(dir, name))
  await fsyncDir(dir)
}

/** fsync of a directory, so renames in it are durable. */
export async function fsyncDir(dir: string): Promise<void> {
  await fsyncPath(dir).catch((error: NodeJS.ErrnoException) => {
    // Windows cannot open a directory for syncing; there the renames are as durable as NTFS makes them.
    if (error.code !== 'EISDIR' && error.code !== 'EPERM') throw error
  })
}

/** Reads the file's first `into.length` bytes into `into`; throws if it holds fewer. */
async function readExactly(path: string, into: Uint8Array): Promise<void> {
  const handle = await open(path, 'r')
  try {
    for (let at = 0; at < into.length;) {
      const { bytesRead } = await handle.read(into, at, Math.min(into.length - at, 2 ** 26), at)
      if (bytesRead === 0) throw new Error(`${path} ended after ${at} bytes`)
      at += bytesRead
    }
  } finally {
    await handle.close()
  }
}

/** fsync of one file. */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * The element capacity and count from the header of a file hnswlib's `saveIndex` wrote: it begins
 * with three size_t (offsetLevel0, max_elements, cur_element_count; hnswalg.h `saveIndex`), 64-bit and
 * little-endian on every platform hnswlib-node ships for. `readIndex` sizes the graph to this capacity.
 */
async function readHnswHeader(path: string): Promise<{ capacity: number; count: number }> {
  const header = Buffer.alloc(24)
  await readExactly(path, header)
  return { capacity: Number(header.readBigUInt64LE(8)), count: Number(header.readBigUInt64LE(16)) }
}

/** hnswlib's `readIndex` of `path` (on a libuv thread), checked against the snapshot's meta. */
async function readGraph(
  path: string,
  dimension: number,
  header: { capacity: number; count: number },
): Promise<hnswlib.HierarchicalNSW> {
  const hnsw = new hnswlib.HierarchicalNSW('cosine', dimension)
  await hnsw.readIndex(path)
  if (hnsw.getCurrentCount() !== header.count || hnsw.getMaxElements() !== header.capacity)
    throw new Error(
      `Vector snapshot graph ${path} is inconsistent: ${hnsw.getCurrentCount()} nodes of ` +
        `${hnsw.getMaxElements()}, ${header.count} of ${header.capacity} in its header.`,
    )
  return hnsw
}

/**
 * Reads an index written by `saveVectorIndex`. `ef` and `exactBelow` override the saved search-time
 * settings (the graph's build-time ones, m and efConstruction, are what they were); `id`, when given,
 * must be the id the snapshot was saved with. Throws when the directory holds no snapshot, another
 * one, or files that disagree (the caller then rebuilds from storage).
 *
 * `graphInBackground`: resolve once the flat vectors and ids are read, while hnswlib still reads the
 * graph (the larger file: 220 MB for 100,000 x 512-d vectors); the index searches exactly until its
 * `graphReady` resolves. Sizes and counts are checked before it resolves;
 * a graph file that hnswlib then refuses rejects `graphReady` instead (the index stays exact).
 */
export async function loadVectorIndex(
  dir: string,
  options: { ef?: number; exactBelow?: number; id?: string; graphInBackground?: boolean } = {},
): Promise<VectorIndex> {
  const meta = JSON.parse(await readFile(join(dir, META_FILE), 'utf8')) as SnapshotMeta
  if (meta.format !== FORMAT)
    throw new Error(`Vector snapshot format ${meta.format} is not supported (expected ${FORMAT}).`)
  if (options.id !== undefined && meta.id !== options.id)
    throw new Error(`Vector snapshot in ${dir} is '${meta.id}', not '${options.id}'.`)
  const { settings } = meta
  const hnswBytes = (await stat(join(dir, HNSW_FILE))).size
  if (hnswBytes !== meta.hnswBytes)
    throw new Error(
      `Vector snapshot in ${dir} is inconsistent: graph file of ${hnswBytes} bytes, ${meta.hnswBytes} expected.`,
    )
  const header = await readHnswHeader(join(dir, HNSW_FILE))
  const vectorsBytes = (await stat(join(dir, VECTORS_FILE))).size
  if (header.count !== meta.slots || meta.ids.length !== meta.slots || header.capacity < meta.slots)
    throw new Error(
      `Vector snapshot in ${dir} is inconsistent: ${header.count} graph nodes, ${meta.slots} slots.`,
    )
  if (vectorsBytes !== meta.vectorsBytes || vectorsBytes !== meta.slots * settings.dimension * 4)
    throw new Error(`Vector snapshot in ${dir} is inconsistent: vectors file has the wrong size.`)
  // The graph is read on a libuv thread while the flat vectors are (on others).
  const graph = readGraph(join(dir, HNSW_FILE), settings.dimension, header)
  graph.catch(() => {}) // seen through `graphReady`, or dropped with the index when the read below fails
  const flat = await FlatVectors.fromReader(
    settings.dimension,
    header.capacity,
    vectorsBytes,
    (into) => readExactly(join(dir, VECTORS_FILE), into),
  )
  const index = new VectorIndex(
    { dimension: settings.dimension },
    {
      settings: {
        ...settings,
        ef: options.ef ?? settings.ef,
        exactBelow: options.exactBelow ?? settings.exactBelow,
      },
      hnsw: graph,
      flat,
      ids: meta.ids,
    },
  )
  if (options.graphInBackground !== true) await index.graphReady
  return index
}
