import { banner, mdTable } from '../report/format.js'
import { environmentLine, type Environment } from '../run/environment.js'
import type { IngestRunResult } from './run-ingest-tasks.js'

export interface IngestRun {
  readonly label: string
  readonly result: IngestRunResult
}

export interface IngestReportInput {
  readonly command: string
  readonly environment: Environment
  readonly corpus: { conversations: number; sessions: number; turns: number }
  readonly runs: readonly IngestRun[]
  /** The session run with use-lite and the embedder's own throughput on the same texts; null when not run. */
  readonly embedding: {
    run: IngestRun
    own: { texts: number; ms: number; perSecond: number }
    loadMs: number[]
    workers: number
  } | null
  readonly embeddingMissing: string | null
  readonly poolExported: boolean
}

const perSecond = (n: number, ms: number) => ((n / ms) * 1000).toFixed(1)
const per1000 = (n: number, turns: number) => ((n / turns) * 1000).toFixed(0)
const int = (n: number) => n.toLocaleString('en-US')

/** Issue 3's targets. */
const PASSAGES_PER_SECOND = 500
const EMBEDDER_SHARE = 0.8

/** results/ingest.md from the runs of `npm run bench -- --ingest`. */
export function ingestReport(input: IngestReportInput): string {
  const { runs, corpus } = input
  const tokens = runs[0]?.result.tokens ?? 0
  const lines = [
    banner(input.command),
    '',
    '# Ingestion throughput (issue 3)',
    '',
    environmentLine(input.environment),
    '',
    `Corpus: LoCoMo dev (\`../shared/datasets/locomo-dev\`), ${corpus.conversations} conversations, ${corpus.sessions} sessions, ` +
      `${int(corpus.turns)} turns, ${int(tokens)} whitespace tokens (\`speaker: text\` per turn, as the retrieval loader builds them). ` +
      'One brain per conversation.',
    '',
    'How: the real pipeline in one process: `createEngram` on the SQLite adapter in a fresh temp dir, ' +
      '`registerIngestion(engram, { components: defaultIngestionComponents() })` (local extractor, 256/32-token chunks, ' +
      'engine default of 2 concurrent tasks), every task submitted with `engram.tasks.submit({ kind: "ingest_text" })` ' +
      '(each stored durably first), timed from the first submit until `engram.tasks.idle()`. Session tasks join a ' +
      "session's turns with newlines; `source_timestamp` is the session date. The default components run the local " +
      'extractor on the main thread, so extraction uses one of the 2 cores. `load` is the 1-minute load average when the ' +
      'run started: above 2, other processes on this shared machine competed for the CPU.',
    '',
    '## Pipeline throughput',
    '',
    mdTable(
      [
        'run',
        'tasks',
        'passages',
        'wall s',
        'passages/s',
        'turns/s',
        'tokens/s',
        'submit s',
        'failed tasks',
        'load',
      ],
      runs.map(({ label, result: r }) => [
        label,
        int(r.tasks),
        int(r.passages),
        (r.wallMs / 1000).toFixed(2),
        perSecond(r.passages, r.wallMs),
        perSecond(r.turns, r.wallMs),
        perSecond(r.tokens, r.wallMs),
        (r.submitMs / 1000).toFixed(2),
        String(r.failed),
        r.load1.toFixed(1),
      ]),
    ),
    '',
    input.poolExported
      ? 'The worker-thread run passes `localExtractorPool({ workers: 2 })` (exported by `@engram/core`) as the ' +
        'extractor to `defaultIngestionComponents`; the engine still runs 2 tasks at once, so at most 2 extractions ' +
        'are in flight, and chunking, resolution and the SQLite writes stay on the main thread.'
      : '`localExtractorPool` (packages/core/src/ingest/extract/local-extractor-pool.ts, the extractor on worker ' +
        'threads) is not exported from `@engram/core` and not used by `defaultIngestionComponents`, so it is not ' +
        'measured here.',
    '',
    '## Records produced per 1,000 turns',
    '',
    'Counted in the stores after the run. Entities exclude `EVENT` nodes, which are counted as events.',
    '',
    mdTable(
      ['run', 'entities', 'events (label EVENT)', 'relationships', 'observations', 'passages'],
      runs
        .filter((r) => !r.label.includes('skip_enrichment'))
        .map(({ label, result: r }) => [
          label,
          per1000(r.entities, r.turns),
          per1000(r.events, r.turns),
          per1000(r.relationships, r.turns),
          per1000(r.observations, r.turns),
          per1000(r.passages, r.turns),
        ]),
    ),
    '',
    '## With the use-lite embedder',
    '',
  ]
  const e = input.embedding
  if (e === null) {
    lines.push(`Pending: ${input.embeddingMissing ?? 'not run'}.`, '')
  } else {
    const r = e.run.result
    const pipelineTexts = (r.embedded / r.wallMs) * 1000
    const share = pipelineTexts / e.own.perSecond
    lines.push(
      `USE-lite (\`useLiteEmbedder({ cacheSize: 0 })\`, ${e.workers} worker threads, model load ` +
        `${e.loadMs.map((ms) => ms.toFixed(0)).join(' / ')} ms per worker, excluded from both timings). The pipeline ` +
        'embeds passages and entities (name: description) of each task in one call. "Embedder alone" embeds exactly ' +
        'the texts the pipeline sent it, in one call, with a fresh instance (cache off in both). The share compares ' +
        'embedded texts per second.',
      '',
      mdTable(
        ['measure', 'texts embedded', 'passages', 'wall s', 'texts/s', 'passages/s'],
        [
          [
            `pipeline: ${e.run.label}`,
            int(r.embedded),
            int(r.passages),
            (r.wallMs / 1000).toFixed(2),
            pipelineTexts.toFixed(1),
            perSecond(r.passages, r.wallMs),
          ],
          [
            'embedder alone, same texts',
            int(e.own.texts),
            '-',
            (e.own.ms / 1000).toFixed(2),
            e.own.perSecond.toFixed(1),
            '-',
          ],
        ],
      ),
      '',
      `Pipeline share of the embedder's own throughput: **${(share * 100).toFixed(0)}%** (target >= ${EMBEDDER_SHARE * 100}%).`,
      '',
    )
  }
  const best = Math.max(
    0,
    ...runs
      .filter((r) => !r.label.includes('skip_enrichment') && !r.label.includes('use-lite'))
      .map((r) => (r.result.passages / r.result.wallMs) * 1000),
  )
  lines.push(
    '## Against issue 3',
    '',
    `- Pipeline throughput without embedding >= ${PASSAGES_PER_SECOND} passages/s on 2 cores: best full-pipeline run ` +
      `${best.toFixed(1)} passages/s here: ${best >= PASSAGES_PER_SECOND ? 'met' : 'NOT met'}.`,
    e === null
      ? `- With use-lite >= ${EMBEDDER_SHARE * 100}% of the embedder's own throughput: pending (see above).`
      : `- With use-lite >= ${EMBEDDER_SHARE * 100}% of the embedder's own throughput: ` +
          `${(((e.run.result.embedded / e.run.result.wallMs) * 1000 * 100) / e.own.perSecond).toFixed(0)}%: ` +
          `${(e.run.result.embedded / e.run.result.wallMs) * 1000 >= EMBEDDER_SHARE * e.own.perSecond ? 'met' : 'NOT met'}.`,
    '- Entities, events and observations per 1,000 LoCoMo dev turns: in the table above.',
    '',
  )
  return lines.join('\n')
}
