import { banner, mdTable } from '../report/format.js'
import { environmentLine } from '../run/environment.js'
import { minMedianMax } from './min-median-max.js'
import type {
  PostgresStart,
  PostgresStartMode,
  StartupPostgresResult,
} from './startup-postgres-result.js'

const s = (ms: number) => (ms / 1000).toFixed(2)
const int = (n: number) => n.toLocaleString('en-US')
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0)

/** The run with the median time to searchable since process start (the lower middle of an even count). */
export function medianStart(runs: readonly PostgresStart[]): PostgresStart {
  if (runs.length === 0) throw new Error('no start to take the median of')
  return [...runs].sort((a, b) => a.sinceProcessStartMs - b.sinceProcessStartMs)[
    Math.floor((runs.length - 1) / 2)
  ]!
}

const COLUMNS: readonly [PostgresStartMode, string][] = [
  ['snapshot', 'snapshots at the feed head'],
  ['tail', 'snapshots + 1,000 writes to apply'],
  ['rebuild', 'no snapshot directory'],
]

/** min / median / max of process start -> searchable, s. */
function spread(runs: readonly PostgresStart[]): string {
  const { min, median, max } = minMedianMax(runs.map((r) => r.sinceProcessStartMs))
  return runs.length === 1 ? s(median) : `${s(min)} / ${s(median)} / ${s(max)}`
}

/** results/startup-postgres.md, rendered from its saved data (results/data/startup-postgres.json). */
export function startupPostgresReport(result: StartupPostgresResult): string {
  const { seed, tailWrites, settle, starts } = result
  const med = Object.fromEntries(
    COLUMNS.map(([mode]) => [mode, medianStart(starts[mode])]),
  ) as Record<PostgresStartMode, PostgresStart>
  const row = (label: string, value: (t: PostgresStart) => string) => [
    label,
    ...COLUMNS.map(([mode]) => value(med[mode])),
  ]
  const total = seed.passages + tailWrites.passages
  const snap = med.snapshot
  const load = result.loadAfter.map((v) => v.toFixed(2)).join(' / ')
  return [
    banner(result.command),
    '',
    '# Start-up of a 100,000-passage PostgreSQL brain with INDEX_SNAPSHOT_DIR (issue 29 item 3)',
    '',
    `${environmentLine(result.environment)} PostgreSQL ${result.postgres} on the same machine.`,
    '',
    `\`--startup-large\`'s corpus (the scale curve's Zipf text, each passage with a SYNTHETIC random ` +
      `${seed.dimension}-d unit vector; timing only) in a fresh PostgreSQL database, dropped at the end. One ` +
      `process (\`postgresAdapter({ snapshotDir })\`) committed the first ${int(seed.passages)} passages through ` +
      `\`engram.commit\`, 1,000 a batch (${s(seed.commitMs)} s), built every index from PostgreSQL ` +
      `(${s(seed.indexMs)} s, nearly all of it HNSW inserts) and saved the snapshots ` +
      `(${mb(seed.snapshotBytes)} MB in the snapshot directory; ${s(seed.save.ms)} s, of which the vector ` +
      `snapshot ${s(seed.save.writeMs)} s writing and ${s(seed.save.syncMs)} s fsync, the lexical one ` +
      `${s(seed.lexicalSave.writeMs + seed.lexicalSave.syncMs)} s; longest event-loop stall ` +
      `${seed.save.maxStallMs.toFixed(0)} ms). Another process without a snapshot directory then committed the ` +
      `last ${int(tailWrites.passages)} as ${int(tailWrites.commits)} writes of ` +
      `${tailWrites.passages / tailWrites.commits} passages with their vectors (${s(tailWrites.ms)} s), one ` +
      `write-feed entry each. A copy of the snapshot directory was brought to the feed's head by one untimed ` +
      `start that applied those writes and saved (${s(settle.saveMs)} s). The database holds ` +
      `${mb(result.databaseBytes)} MB. The brain has no entities, so no graph snapshot (its figures: ` +
      '[graph-snapshot.md](graph-snapshot.md)).',
    '',
    'Then, each in a new Node process running the built JavaScript (`node benchmarks/dist/...`, importing ' +
      'the built `@engram/core` and `@engram/adapter-postgres`; no tsx), a new engine on the same database: ' +
      '`createEngine` + `start()`, `engram.indexes.get(brainId)`, and the first search (BM25 + dense over ' +
      'passages, rrf, k = 10; the query embedder is SYNTHETIC and instant). Three ways to get the indexes: the ' +
      "snapshots at the feed's head (nothing to apply); a fresh copy of the first process's snapshots, " +
      `labelled ${int(tailWrites.commits)} feed entries back, which the start reads back from PostgreSQL and ` +
      'applies before the brain serves; no snapshot directory (every index rebuilt from PostgreSQL). The ' +
      `first two ran ${starts.snapshot.length} times each, interleaved; the rebuild takes minutes and ran ` +
      `${starts.rebuild.length === 1 ? 'once' : `${starts.rebuild.length} times`}. Every start ends with the ` +
      `same ${int(total)}-passage brain, and checks where its indexes came from (snapshot or storage) and how ` +
      'many feed entries it applied. Each column is the run with the median time to searchable since ' +
      'process start.',
    '',
    mdTable(
      ['step', ...COLUMNS.map(([, label]) => `${label}, s`)],
      [
        row('engine start (pool, schema check, brain ensured, write follower)', (t) =>
          s(t.engineStartMs),
        ),
        row(
          `engram.indexes.get(brainId) (${int(snap.passages)} passages, ${int(snap.vectors)} vectors)`,
          (t) => s(t.indexesMs),
        ),
        row('- of which: snapshots read (manifest, flat vectors and ids, lexical)', (t) =>
          s(t.snapshotLoadMs),
        ),
        row('- of which: BM25 and entity indexes rebuilt from PostgreSQL', (t) => s(t.lexicalMs)),
        row('- of which: vectors re-inserted into HNSW', (t) => s(t.vectorRebuildMs)),
        row('- of which: the rest (feed entries read back and applied)', (t) => s(t.otherMs)),
        row('feed entries applied', (t) => int(t.feedReplayed)),
        row(
          'longest event-loop stall from engine start until the graph is in',
          (t) => `${t.indexesMaxStallMs.toFixed(0)} ms`,
        ),
        row('first search', (t) => s(t.firstSearchMs)),
        row('- its dense part', (t) =>
          t.graphAtFirstSearch ? 'HNSW' : 'exact scan (graph still loading)',
        ),
        row('engine start -> searchable', (t) => s(t.searchableMs)),
        row(
          '**process start -> searchable** (node, built JavaScript, module loading included)',
          (t) => `**${s(t.sinceProcessStartMs)}**`,
        ),
        row('engine start -> HNSW graph in', (t) => s(t.graphReadyMs)),
        row('a search once the graph is in (another query)', (t) => s(t.graphSearchMs)),
        row('CPU time of the process by then (user + system, all threads), s', (t) => s(t.cpuMs)),
        row('resident memory once searchable, MB', (t) => t.rssMb.toFixed(0)),
        row('1-minute load average when the process began', (t) => t.load1.toFixed(1)),
      ],
    ),
    '',
    'Process start -> searchable, s (min / median / max), and every start:',
    '',
    ...COLUMNS.map(
      ([mode, label]) =>
        `- ${label}: ${spread(starts[mode])} (${starts[mode].map((t) => `${s(t.sinceProcessStartMs)} at load ${t.load1.toFixed(1)}`).join(', ')})`,
    ),
    '',
    `Load average (1 / 5 / 15 min) at the end: ${load}. The machine has ${result.environment.cores} cores; ` +
      'PostgreSQL runs on it too, so a start reading from it competes for them.',
    '',
    '## Summary',
    '',
    `- From the snapshots: searchable ${s(snap.sinceProcessStartMs)} s after process start (median of ` +
      `${starts.snapshot.length}), against ${s(med.rebuild.sinceProcessStartMs)} s rebuilding from PostgreSQL.`,
    `- With ${int(med.tail.feedReplayed)} writes of another process to apply first: ` +
      `${s(med.tail.sinceProcessStartMs)} s (median of ${starts.tail.length}); the entries carry ` +
      `${int(tailWrites.passages)} passages with vectors, each applied as the write follower would ` +
      '(HNSW inserts included).',
    '',
  ].join('\n')
}
