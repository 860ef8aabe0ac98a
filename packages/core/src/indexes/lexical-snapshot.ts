import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js'
import type { LexicalIndexes } from './lexical-indexes.js'
import { decodeSnapshot, encodeSnapshot, type SnapshotParts } from './snapshot-codec.js'
import { fsyncDir, fsyncPath } from './vectors/vector-snapshot.js'

const FILE = 'lexical.bin'

/**
 * Writes the lexical indexes into directory `dir` as one file (`snapshot-codec.ts`), encoded
 * synchronously (the indexes cannot change meanwhile), written under a temporary name, synced, then
 * renamed and the directory synced: the file is complete or absent. 0700 / 0600 as every file of a
 * brain (`private-files.ts`).
 */
export async function saveLexicalSnapshot(lexical: LexicalIndexes, dir: string): Promise<void> {
  const bytes = encodeSnapshot(lexical.toParts())
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const tmp = join(dir, `${FILE}.tmp`)
  await writeFile(tmp, bytes, { mode: PRIVATE_FILE_MODE })
  await fsyncPath(tmp)
  await rename(tmp, join(dir, FILE))
  await fsyncDir(dir)
}

/** The parts `saveLexicalSnapshot` wrote; throws on a missing, foreign or cut-short file. */
export async function loadLexicalSnapshot(dir: string): Promise<SnapshotParts> {
  return decodeSnapshot(await readFile(join(dir, FILE)))
}
