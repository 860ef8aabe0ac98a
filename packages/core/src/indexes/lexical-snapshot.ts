import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LexicalIndexes } from './lexical-indexes.js'
import { loopYielder } from '../loop-yielder.js'
import type { Pause } from './index-component.js'
import { decodeSnapshotSliced, encodeSnapshot, type SnapshotParts } from './snapshot-codec.js'
import { runSliced } from './sliced-work.js'
import { writeFileDurably } from './vectors/vector-snapshot.js'

const FILE = 'lexical.bin'

/**
 * Writes the lexical indexes into directory `dir` as one file (`snapshot-codec.ts`), encoded
 * synchronously (the indexes cannot change meanwhile), written under a temporary name, synced, then
 * renamed and the directory synced: the file is complete or absent. 0700 / 0600 as every file of a
 * brain (`private-files.ts`).
 */
export async function saveLexicalSnapshot(lexical: LexicalIndexes, dir: string): Promise<void> {
  await writeFileDurably(dir, FILE, encodeSnapshot(lexical.toParts()))
}

/**
 * The parts `saveLexicalSnapshot` wrote; throws on a missing, foreign or cut-short file. Decoded in
 * slices, calling `pause` between them (by default a turn of the event loop every ~10 ms).
 */
export async function loadLexicalSnapshot(
  dir: string,
  pause: Pause = loopYielder(),
): Promise<SnapshotParts> {
  return runSliced(decodeSnapshotSliced(await readFile(join(dir, FILE))), pause)
}
