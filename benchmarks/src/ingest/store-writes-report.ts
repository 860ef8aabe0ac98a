import { banner, mdTable } from '../report/format.js'
import { environmentLine } from '../run/environment.js'
import { minMedianMax } from '../startup/min-median-max.js'
import type { StoreWritesResult } from './store-writes-result.js'

const int = (n: number) => n.toLocaleString('en-US')

/** `min / median / max` of `values`, `digits` decimals. */
function spread(values: readonly number[], digits: number): string {
  const { min, median, max } = minMedianMax(values)
  return [min, median, max].map((v) => v.toFixed(digits)).join(' / ')
}

/** results/store-writes.md, rendered from its saved data (results/data/store-writes.json). */
export function storeWritesReport(result: StoreWritesResult): string {
  const { writes, replays, frames } = result
  const all = writes.applies + writes.creates + writes.puts
  const batches = frames.commits.find((c) => c.kind === 'batch (store.apply)')!
  const treeTotal = frames.trees.reduce((n, t) => n + t.frames, 0)
  return [
    banner(result.command),
    '',
    '# What ingestion writes cost SQLite',
    '',
    environmentLine(result.environment),
    '',
    `LoCoMo dev's turns as ${int(result.tasks)} ingestion tasks (one turn each, the server's default ` +
      `extractor pool, no embedder) over ${result.brains} brains (one per conversation) on SQLite: ` +
      `${int(result.passages)} passages. Every write the engine handed a brain's store was recorded: ` +
      `${int(writes.applies)} batches (\`store.apply\`: a task's passages, entities, relationships, ` +
      `changelog, evidence links and its final task record, one transaction each), ${int(writes.creates)} ` +
      `task records created (\`tasks.create\`, at submission) and ${int(writes.puts)} updated ` +
      `(\`tasks.put\`, when a task starts). Those ${int(all)} writes, in the order the engine made ` +
      'them, replayed into a fresh data directory through the SQLite adapter as the server runs it ' +
      '(WAL, checkpoints on its worker thread): the storage part of ingestion alone, without ' +
      'extraction, resolution or the indexes.',
    '',
    mdTable(
      ['min / median / max', 'wall, ms', 'CPU (user + system), ms', 'wall per task, ms'],
      [
        [
          `replay of the ${int(all)} writes (${replays.length} runs)`,
          spread(
            replays.map((r) => r.wallMs),
            0,
          ),
          spread(
            replays.map((r) => r.cpuMs),
            0,
          ),
          spread(
            replays.map((r) => r.wallMs / result.tasks),
            3,
          ),
        ],
      ],
    ),
    '',
    `## WAL frames per commit (brain \`${frames.brain}\`)`,
    '',
    'A commit writes each page it changed to the WAL as one frame (a 4 KiB page and a 24-byte header, ' +
      'two `pwrite` calls), so the frames a commit writes are most of its cost on a host where system ' +
      "calls are dear. The brain's writes again, one at a time after the WAL was checkpointed and " +
      "truncated, each commit's frames read from the WAL file and mapped to their table or index " +
      "through SQLite's `dbstat`.",
    '',
    mdTable(
      ['commit', 'commits', 'frames', 'frames per commit'],
      frames.commits.map((c) => [
        c.kind,
        int(c.commits),
        int(c.frames),
        c.commits === 0 ? '-' : (c.frames / c.commits).toFixed(1),
      ]),
    ),
    '',
    `Frames of the ${int(batches.commits)} batch commits by table or index (SQLite's names: ` +
      '`sqlite_autoindex_<table>_1` is the index of a text primary key or `UNIQUE` column):',
    '',
    mdTable(
      ['table or index', 'frames', 'per batch', 'share'],
      frames.trees.map((t) => [
        t.name,
        int(t.frames),
        batches.commits === 0 ? '-' : (t.frames / batches.commits).toFixed(2),
        treeTotal === 0 ? '-' : `${((100 * t.frames) / treeTotal).toFixed(1)}%`,
      ]),
    ),
    '',
  ].join('\n')
}
