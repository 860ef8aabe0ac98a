import { banner, mdTable } from '../report/format.js'
import { environmentLine } from '../run/environment.js'
import type { GraphSnapshotResult } from './graph-snapshot-result.js'
import { minMedianMax } from './min-median-max.js'

const int = (n: number) => n.toLocaleString('en-US')
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)

/** `min / median / max` of `values`, `digits` decimals. */
function spread(values: readonly number[], digits = 0): string {
  const { min, median, max } = minMedianMax(values)
  return [min, median, max].map((v) => v.toFixed(digits)).join(' / ')
}

/** results/graph-snapshot.md, rendered from its saved data (results/data/graph-snapshot.json). */
export function graphSnapshotReport(result: GraphSnapshotResult): string {
  const { graph, builds, saves, loads, lexical } = result
  // Results saved before the probe ran beside saves have no save stalls.
  const saveStalls = saves.every((s) => s.stallMs !== undefined)
    ? saves.map((s) => s.stallMs!)
    : null
  const runs = builds.length
  const ratio =
    minMedianMax(builds.map((b) => b.wallMs)).median /
    minMedianMax(loads.map((l) => l.wallMs)).median
  const sizes = [...new Set(saves.map((s) => s.bytes))]
  return [
    banner(result.command),
    '',
    '# Graph index snapshot: MovieLens-small built from SQLite vs loaded (issue 29 item 3)',
    '',
    environmentLine(result.environment),
    '',
    `MovieLens ml-latest-small as a graph of records in a SQLite brain: users, movies, genres and tags as ` +
      `entities, each rating an event entity between \`user -RATED-> rating -TARGETED-> movie\`, plus ` +
      `\`HAS_GENRE\` and \`HAS_TAG\` edges: ${int(graph.entities)} entities and ${int(graph.relationships)} ` +
      `relationships, stored through the adapter (\`store.apply\`, 5,000 a batch; ${(result.storeMs / 1000).toFixed(1)} s, ` +
      `${mib(result.sqliteBytes)} MiB of SQLite), a graph index of ${int(graph.nodes)} nodes and ` +
      `${int(graph.edges)} edges. Then ${runs} runs in one process (\`tsx\`, from the sources), each in turn: ` +
      'the graph index built from the store (`GraphIndex.build`, what a brain without a valid graph snapshot ' +
      'does on its first graph request), its snapshot saved (`saveGraphSnapshot`: encode, SHA-256, write, ' +
      'fsync, rename) and loaded (`loadGraphSnapshot`: read, SHA-256 checked, decoded, the arrays and maps ' +
      'assembled, with a turn of the event loop every ~10 ms), the built index released before the load. Heap is `heapUsed + arrayBuffers` after a full ' +
      'collection with the index held, minus before (the CSR arrays are typed arrays, outside `heapUsed`). ' +
      `The first load was compared field by field with the built index: ${result.loadedEqualsBuilt ? 'equal' : 'DIFFERENT'}.`,
    '',
    mdTable(
      [
        'min / median / max',
        'wall, ms',
        'CPU (user + system), ms',
        'heap held, MiB',
        'longest event-loop stall, ms',
      ],
      [
        [
          'build from SQLite (`GraphIndex.build`)',
          spread(builds.map((b) => b.wallMs)),
          spread(builds.map((b) => b.cpuMs)),
          spread(builds.map((b) => b.heapMb)),
          '',
        ],
        [
          'load of the snapshot (`loadGraphSnapshot`)',
          spread(loads.map((l) => l.wallMs)),
          spread(loads.map((l) => l.cpuMs)),
          spread(loads.map((l) => l.heapMb)),
          spread(loads.map((l) => l.stallMs)),
        ],
        ['- of which: read the file', spread(loads.map((l) => l.readMs)), '', '', ''],
        ['- of which: SHA-256', spread(loads.map((l) => l.sha256Ms)), '', '', ''],
        ['- of which: decode the parts', spread(loads.map((l) => l.decodeMs)), '', '', ''],
        ['- of which: arrays and maps', spread(loads.map((l) => l.assembleMs)), '', '', ''],
        [
          'save of the snapshot (`saveGraphSnapshot`)',
          spread(saves.map((s) => s.wallMs)),
          spread(saves.map((s) => s.cpuMs)),
          '',
          saveStalls === null ? '' : spread(saveStalls),
        ],
        [
          'load of the lexical snapshot (`loadLexicalSnapshot`, indexes restored)',
          spread(lexical.loads.map((l) => l.wallMs)),
          spread(lexical.loads.map((l) => l.cpuMs)),
          '',
          spread(lexical.loads.map((l) => l.stallMs)),
        ],
      ],
    ),
    '',
    saveStalls === null
      ? 'Longest event-loop stall: a 5 ms interval timer runs beside each load and records its largest gap ' +
        'between two runs, minus 5 ms (`loopStallProbe`): how long any other request on the process ' +
        'waited, at worst, while the snapshot loaded (the steps below are timed separately and have no probe).'
      : 'Longest event-loop stall: a 5 ms interval timer runs beside each save and load and records its ' +
        'largest gap between two runs, minus 5 ms (`loopStallProbe`): how long any other request on the ' +
        'process waited, at worst, while the snapshot was saved (encoded and hashed in slices, a turn of ' +
        'the event loop every ~10 ms) or loaded (the steps below are timed separately and have no probe).',
    '',
    `The brain's lexical indexes (\`LexicalIndexes\`: ${int(lexical.documents.entities)} entities and ` +
      `${int(lexical.documents.events)} events in their BM25 indexes, no passages or observations) were ` +
      `built once from the store (${(lexical.buildMs / 1000).toFixed(1)} s), their snapshot saved ` +
      `(${mib(lexical.bytes)} MiB) and loaded once per run after the graph's, as a restart restores ` +
      `them. The first load was compared with the built indexes (their snapshot parts): ` +
      `${lexical.loadedEqualsBuilt ? 'equal' : 'DIFFERENT'}.`,
    '',
    `The snapshot file: ${sizes.map((b) => `${mib(b)} MiB (${int(b)} bytes)`).join(', ')}. The load's steps ` +
      'were timed again one by one after each load, on the same file, each in one go (no turns).',
    '',
    `1-minute load average when each build began: ${builds.map((b) => b.load1.toFixed(2)).join(', ')}; each ` +
      `load: ${loads.map((l) => l.load1.toFixed(2)).join(', ')}; at the end (1 / 5 / 15 min): ` +
      `${result.loadAfter.map((v) => v.toFixed(2)).join(' / ')}. The machine has ` +
      `${result.environment.cores} cores.`,
    '',
    `Median build / median load: ${ratio.toFixed(1)}x.`,
    '',
  ].join('\n')
}
