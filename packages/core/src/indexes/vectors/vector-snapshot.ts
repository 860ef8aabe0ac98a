import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import hnswlib from 'hnswlib-node'
import { FlatVectors } from './flat-vectors.js'
import { VectorIndex, type VectorIndexSettings } from './vector-index.js'

const FORMAT = 1
const HNSW_FILE = 'hnsw.bin'
const VECTORS_FILE = 'vectors.f32'
const META_FILE = 'index.json'

interface SnapshotMeta {
  format: number
  settings: VectorIndexSettings
  /** Slots in use (live or free); equals the HNSW element count. */
  slots: number
  /** Id per slot; null for a free slot (marked deleted in the HNSW file). */
  ids: (string | null)[]
}

/**
 * Writes `index` into directory `dir` (created if needed): the HNSW graph through hnswlib's
 * `writeIndex` (`hnsw.bin`, delete marks included), the flat vectors (`vectors.f32`, float32 in
 * platform byte order) and the id per label with the settings (`index.json`). Each file is written
 * under a temporary name, then the three are renamed, `index.json` last. Loading checks that the
 * three agree, so a crash between renames is detected and the caller rebuilds from storage.
 */
export async function saveVectorIndex(index: VectorIndex, dir: string): Promise<void> {
  const { settings, hnsw, flat, ids } = index.parts()
  await mkdir(dir, { recursive: true })
  const slots = ids.length
  const meta: SnapshotMeta = { format: FORMAT, settings, slots, ids: ids.slice() }
  const tmp = (name: string) => join(dir, `${name}.tmp`)
  await hnsw.writeIndex(tmp(HNSW_FILE))
  await writeFile(tmp(VECTORS_FILE), flat.bytes(slots))
  await writeFile(tmp(META_FILE), JSON.stringify(meta))
  for (const name of [HNSW_FILE, VECTORS_FILE, META_FILE]) await rename(tmp(name), join(dir, name))
}

/**
 * Reads an index written by `saveVectorIndex`. `ef` overrides the saved search ef. Throws when the
 * directory holds no snapshot or its files disagree (the caller then rebuilds from storage).
 */
export async function loadVectorIndex(
  dir: string,
  options: { ef?: number } = {},
): Promise<VectorIndex> {
  const meta = JSON.parse(await readFile(join(dir, META_FILE), 'utf8')) as SnapshotMeta
  if (meta.format !== FORMAT)
    throw new Error(`Vector snapshot format ${meta.format} is not supported (expected ${FORMAT}).`)
  const { settings } = meta
  const hnsw = new hnswlib.HierarchicalNSW('cosine', settings.dimension)
  await hnsw.readIndex(join(dir, HNSW_FILE))
  const bytes = await readFile(join(dir, VECTORS_FILE))
  if (hnsw.getCurrentCount() !== meta.slots || meta.ids.length !== meta.slots)
    throw new Error(
      `Vector snapshot in ${dir} is inconsistent: ${hnsw.getCurrentCount()} graph nodes, ${meta.slots} slots.`,
    )
  if (bytes.byteLength !== meta.slots * settings.dimension * 4)
    throw new Error(`Vector snapshot in ${dir} is inconsistent: vectors file has the wrong size.`)
  const flat = FlatVectors.fromBytes(settings.dimension, hnsw.getMaxElements(), bytes)
  return new VectorIndex(
    { dimension: settings.dimension },
    { settings: { ...settings, ef: options.ef ?? settings.ef }, hnsw, flat, ids: meta.ids },
  )
}
