import { open } from 'node:fs/promises'

/** Bytes before the level-0 data in a file of hnswlib's `saveIndex` (hnswalg.h): 13 fields. */
const HEADER_BYTES = 96

/**
 * Tests only: overwrites the link lists of an hnswlib index file (everything after its header and
 * level-0 data) with 0xFF, keeping its size, so that size checks pass and hnswlib's `readIndex`
 * refuses the file ("Index seems to be corrupted").
 */
export async function damageLinkLists(path: string): Promise<void> {
  const file = await open(path, 'r+')
  try {
    const header = Buffer.alloc(32)
    await file.read(header, 0, 32, 0)
    // offsetLevel0, max_elements, cur_element_count, size_data_per_element: size_t each.
    const count = Number(header.readBigUInt64LE(16))
    const perElement = Number(header.readBigUInt64LE(24))
    const from = HEADER_BYTES + count * perElement
    const { size } = await file.stat()
    await file.write(Buffer.alloc(size - from, 0xff), 0, size - from, from)
  } finally {
    await file.close()
  }
}
