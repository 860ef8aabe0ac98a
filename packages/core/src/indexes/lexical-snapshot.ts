import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LexicalIndexes } from './lexical-indexes.js'
import { loopYielder } from '../loop-yielder.js'
import type { Pause } from './index-component.js'
import { runSlicedUnlessChanged } from './changed-during-save.js'
import {
  decodeSnapshotSliced,
  encodeSnapshot,
  encodeSnapshotSliced,
  type SnapshotParts,
} from './snapshot-codec.js'
import { runSliced } from './sliced-work.js'
import { writeFileDurably } from './vectors/vector-snapshot.js'

const FILE = 'lexical.bin'

/**
 * Writes the lexical indexes into directory `dir` as one file (`snapshot-codec.ts`), written under a
 * temporary name, synced, then renamed and the directory synced: the file is complete or absent.
 * 0700 / 0600 as every file of a brain (`private-files.ts`).
 *
 * Without `sliced`, encoded in one go. With it, the parts (views of the indexes' arrays, taken in one
 * go: ~8 ms for 100,000 passages) are encoded in slices, calling `sliced.pause` between them: the
 * encode took 60-110 ms in one go for 100,000 passages. The indexes do not count their writes, so the
 * caller says what "changed" means (`sliced.changed`, `index-snapshots.ts`: the part's epoch, bumped
 * by every write that touches the lexical indexes before it is applied); when it answers true after a
 * pause, the save stops with a `ChangedDuringSaveError` (`changed-during-save.ts`), writing nothing.
 */
export async function saveLexicalSnapshot(
  lexical: LexicalIndexes,
  dir: string,
  sliced?: { pause: Pause; changed: () => boolean },
): Promise<void> {
  const parts = lexical.toParts()
  const bytes =
    sliced === undefined
      ? encodeSnapshot(parts)
      : await runSlicedUnlessChanged(
          encodeSnapshotSliced(parts),
          sliced.pause,
          sliced.changed,
          'lexical indexes',
        )
  await writeFileDurably(dir, FILE, bytes)
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
