import { banner, mdTable } from '../report/format.js'
import type { ForgetLatencyResult, MemoryReading } from './forget-latency.js'
import {
  FORGET_BRAIN_PASSAGES,
  FORGET_BULK,
  FORGET_P50_TARGET_MS,
  type ForgettingResult,
} from './forgetting-result.js'
import { ghostHitCount, ghostOutcomes, ghostsSection, graphDiffKinds } from './ghosts-report.js'

const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1))
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1)
const int = (v: number) => v.toLocaleString('en')
const loads = (l: readonly number[]) => l.map((v) => v.toFixed(2)).join(' / ')
const CONDITION: Record<ForgetLatencyResult['condition'], string> = {
  none: 'no vectors (`EMBEDDER=none`)',
  vectors: 'SYNTHETIC 512-d vectors (HNSW)',
}

/** One verdict row: what, measured, target, OK or FAIL. */
export interface ForgettingVerdict {
  readonly check: string
  readonly measured: string
  readonly target: string
  readonly ok: boolean
}

/** The issue's checks that this run measures, each with its verdict. */
export function forgettingVerdicts(r: ForgettingResult): ForgettingVerdict[] {
  const rows: ForgettingVerdict[] = r.latency.map((l) => ({
    check: `forget a one-passage source in a ${int(l.size)}-passage brain, ${CONDITION[l.condition]}: until search no longer returns it, p50`,
    measured: `${ms(l.unsearchable.p50)} ms`,
    target: `<= ${FORGET_P50_TARGET_MS} ms`,
    ok: l.unsearchable.p50 <= FORGET_P50_TARGET_MS,
  }))
  for (const g of r.ghosts) {
    for (const o of ghostOutcomes(g)) {
      const sameRanking = o.counts.identical + o.counts['scores-differ']
      rows.push({
        check: `no ghosts, \`EMBEDDER=${g.embedder}\`, ${o.mode === 'default' ? 'default search' : '`expand=neighbors`'}: kept-session questions whose top 10 of A ranks as B’s`,
        measured: `${sameRanking} / ${o.questions} (${o.counts.identical} with equal scores)`,
        target: 'all',
        ok: sameRanking === o.questions,
      })
    }
    rows.push({
      check: `no ghosts, \`EMBEDDER=${g.embedder}\`: hits of a forgotten session, every question, both searches`,
      measured: String(ghostHitCount(g)),
      target: '0',
      ok: ghostHitCount(g) === 0,
    })
  }
  return rows
}

function memoryRows(l: ForgetLatencyResult, runs: number): string[][] {
  const moments: [string, MemoryReading][] = [
    [`after the seed (${int(l.size)} passages)`, l.before],
    [`after ${runs} sources ingested and forgotten one by one`, l.afterCycles],
    [`${l.bulk} more sources ingested`, l.bulkIngested],
    [`those ${l.bulk} forgotten`, l.bulkForgotten],
  ]
  return moments.map(([moment, m]) => [
    CONDITION[l.condition],
    moment,
    int(m.passages),
    int(m.vectors),
    mb(m.indexBytes),
    mb(m.parts.passagesBm25),
    mb(m.parts.lexical - m.parts.passagesBm25),
    mb(m.parts.dense),
    m.rssMb.toFixed(0),
    m.heapMb.toFixed(0),
  ])
}

/** results/forgetting.md. */
export function forgettingReport(r: ForgettingResult, command: string): string {
  const env = r.environment
  const verdicts = forgettingVerdicts(r)
  const out: string[] = [
    banner(command),
    '',
    '# Forgetting (issue 26)',
    '',
    `Run ${env.date}. Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGb} GB, Node ${env.node}, ${env.os}. Load average (1 / 5 / 15 min) ${loads(r.loadBefore)} before, ${loads(r.loadAfter)} after. The machine is shared. Wall time: ${Object.entries(
      r.wallMs,
    )
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)} s`)
      .join(', ')}.`,
    '',
    'The marker test (the word in no endpoint, file or `pg_dump` after a forget) is a test, not a measurement: `test/http/forget-marker.test.ts`.',
    '',
    '## Verdicts',
    '',
    mdTable(
      ['check', 'measured', 'target', 'verdict'],
      verdicts.map((v) => [v.check, v.measured, v.target, v.ok ? '**OK**' : '**FAIL**']),
    ),
    '',
    verdicts.every((v) => v.ok) ? 'Every check is met.' : 'Not every check is met: see below.',
    '',
    `## Forget latency (${int(FORGET_BRAIN_PASSAGES)} passages)`,
    '',
    'In process: `createEngine` on the SQLite adapter (the embedded default) in a fresh temp dir, one brain. The passages are the scale curve’s SYNTHETIC ones (`syntheticPassages`, Zipf words, 40-120 each) committed with `engram.commit` in batches of 1,000; with vectors, each gets a SYNTHETIC 512-d unit vector and the engine embeds with `syntheticEmbedder` (instant, so query embedding is not in the figures), and searches are hybrid. Every index is built before the first cycle. Then, after 3 untimed cycles, each timed cycle ingests a one-passage source (`ingest_text` with a `sourceId`, the local extractor as the server runs it: 5 entities each) whose text carries a word no other passage has, checks that search (server defaults: passages, `k` 10, `cc`) returns its passage, and forgets it with `engram.sources.forget`, the call `DELETE /sources/{id}` makes. Times run from that call:',
    '',
    '- **cascade applied**: until the cascade’s commit had been applied to the in-memory indexes (a commit listener registered after the index manager’s: listeners run in order under the brain’s write lock);',
    '- **unsearchable**: until, after that, a search for the word no longer returned the passage (searched at once; `extra searches` counts searches that still found it: none means the commit is the moment);',
    '- **task**: until the forget task settled, which adds the redaction of history and the storage purge (a WAL checkpoint with truncation on SQLite).',
    '',
    mdTable(
      [
        'condition',
        'seed commit s',
        'index build s',
        'forget call returns, ms p50',
        'cascade applied, ms p50 / p95',
        'unsearchable, ms p50 / p95 / max',
        'task, ms p50 / p95 / max',
        'extra searches',
        'load at start',
      ],
      r.latency.map((l) => [
        CONDITION[l.condition],
        (l.seedMs / 1000).toFixed(1),
        (l.indexMs / 1000).toFixed(1),
        ms(l.submit.p50),
        `${ms(l.committed.p50)} / ${ms(l.committed.p95)}`,
        `${ms(l.unsearchable.p50)} / ${ms(l.unsearchable.p95)} / ${ms(Math.max(...l.runs.map((x) => x.unsearchableMs)))}`,
        `${ms(l.task.p50)} / ${ms(l.task.p95)} / ${ms(Math.max(...l.runs.map((x) => x.taskMs)))}`,
        String(l.runs.reduce((n, x) => n + x.extraSearches, 0)),
        l.load1.toFixed(2),
      ]),
    ),
    '',
    `${r.runs} timed cycles per condition. Every run, unsearchable in ms: ${r.latency
      .map((l) => `${l.condition}: ${l.runs.map((x) => ms(x.unsearchableMs)).join(', ')}`)
      .join('; ')}.`,
    '',
    `## Index memory before and after forgetting`,
    '',
    `Read after a full GC at four moments: after the seed, after the ${r.runs} timed cycles, after ${FORGET_BULK} more one-passage sources were ingested, and after those ${FORGET_BULK} were forgotten (their forget tasks submitted at once and awaited; ${r.latency.map((l) => `${CONDITION[l.condition]}: ${(l.bulkForgetMs / 1000).toFixed(1)} s, ${ms(l.bulkForgetMs / l.bulk)} ms per source`).join('; ')}). “Index estimate” is \`BrainIndexes.estimatedBytes()\`, what \`INDEX_MEMORY_MB\` budgets; the BM25 columns split it (passages, and entities, events, observations with the entity attributes), HNSW is hnswlib’s native memory as estimated.`,
    '',
    mdTable(
      [
        'condition',
        'moment',
        'passages',
        'vectors',
        'index estimate MB',
        'BM25 passages MB',
        'BM25 graph records MB',
        'HNSW MB',
        'RSS MB',
        'JS heap MB',
      ],
      r.latency.flatMap((l) => memoryRows(l, r.runs)),
    ),
    '',
    memoryNote(r),
    '',
    '## No ghosts (LoCoMo dev)',
    '',
    'LoCoMo dev (`../shared/datasets/locomo-dev`, 5 conversations), one brain per conversation as in the retrieval configs. Brain A ingests every session, each one source (`session_<n>`, an `ingest_text` task whose text is the session’s turns, `speaker: text`, as paragraphs, so chunks end at turn boundaries; `source_timestamp` the session date), then forgets every other session (the 2nd, 4th, ...), all forget tasks completed. Brain B ingests only the kept sessions, in the same order. Both run in process on the SQLite adapter with the local extractor, one task at a time (entity resolution reads what earlier tasks wrote), with the same task ids (ids of passages and graph records derive from them, so BM25 ties, broken by id, break alike). A “kept-session question” is one whose every evidence turn is in a kept session; each is searched in both brains with the server’s default request (`k` 10) and with `expand=neighbors`, and the top 10 compared by passage text (or channel and snippet for other hits). Every question of the conversation is also searched in A both ways: a hit whose source is a forgotten session, whose text is a forgotten passage’s, or which quotes a turn (of 40 characters or more) found only in forgotten sessions counts as a ghost.',
    '',
    ...r.ghosts.map((g) => ghostsSection(g)),
    '### Why A and B differ where they do',
    '',
    whyNote(r),
    '',
    '## Reproduce',
    '',
    `\`${command} [runs]\` (default 20 timed cycles; needs the LoCoMo dev dataset, \`--data-dir\` to point elsewhere). Raw numbers: \`results/data/forgetting.json\`. Code: \`benchmarks/src/forgetting/\`.`,
    '',
  ]
  return out.join('\n')
}

/** What the memory table shows, from its numbers. */
function memoryNote(r: ForgettingResult): string {
  const parts = r.latency.map((l) => {
    const perSource = (l.afterCycles.indexBytes - l.before.indexBytes) / r.runs
    const bulkLeft = l.bulkForgotten.indexBytes - l.afterCycles.indexBytes
    const back =
      l.bulkForgotten.passages === l.before.passages && l.bulkForgotten.vectors === l.before.vectors
    return `${CONDITION[l.condition]}: ${back ? 'passages and vectors are back to the seed’s counts' : '**passage or vector counts differ from the seed’s**'}; the estimate kept ${int(Math.round(perSource))} bytes per forgotten source after the cycles, and ${mb(bulkLeft)} MB after the ${l.bulk} sources were forgotten`
  })
  return [
    `${parts.join('. ')}.`,
    'Forgetting removes a passage from every index at once but does not hand its memory back at once: the BM25 index marks the document dead and drops each term no live document holds from its dictionary (the forgotten word is no key of the index), while the dead document’s postings (numbers: document number and frequency) stay until compaction, which runs once dead documents are more than 1,000 and a quarter of the index (`Bm25Index.remove`); the entities, events and observations a forgotten source alone supported leave their BM25 indexes the same way. HNSW overwrites a deleted vector and frees its slot for the next insert; its capacity does not shrink. RSS follows the JS heap and the allocator, not the estimate.',
  ].join('\n\n')
}

/** The reasons for the differences the ghosts sections show, read from the numbers. */
function whyNote(r: ForgettingResult): string {
  const lines: string[] = []
  for (const g of r.ghosts) {
    const graphConversations = g.conversations
      .filter((c) => Object.keys(c.graphDiff.counts).length > 0)
      .map((c) => c.conversation)
    for (const o of ghostOutcomes(g)) {
      const notIdentical = o.questions - o.counts.identical
      const head = `- \`EMBEDDER=${g.embedder}\`, ${o.mode === 'default' ? 'default search' : '`expand=neighbors`'}:`
      if (notIdentical === 0) {
        lines.push(
          `${head} every kept-session question has the same top 10 with the same scores in A and B.`,
        )
        continue
      }
      const outside = o.conversations.filter((c) => !graphConversations.includes(c))
      lines.push(
        `${head} ${notIdentical} of ${o.questions} questions differ (${o.counts['scores-differ']} only in a score, largest gap ${o.maxDiff.toExponential(1)}; ${o.counts['order-differs']} in order; ${o.counts['hits-differ']} in hits), in ${o.conversations.join(', ')}; ${outside.length === 0 ? 'each of them a conversation whose stored graph differs between A and B' : `**${outside.join(', ')} with no stored graph difference**`}.`,
      )
    }
    for (const k of graphDiffKinds(g))
      lines.push(
        `  - \`${k.kind}\` (${k.count} ${k.count === 1 ? 'record' : 'records'}${k.example === null ? '' : `, e.g. ${k.example}`}): ${k.reason}.`,
      )
  }
  const gap = Math.max(...r.ghosts.flatMap((g) => ghostOutcomes(g).map((o) => o.maxDiff)))
  lines.push(
    '',
    `Passages, their BM25 statistics and their vectors come out of the cascade as if never ingested. The graph is rewritten from provenance, not re-extracted (docs/forgetting.md, “What is not as if never ingested”), and the kinds above are those the page lists. Neighbour expansion, which the default search includes (so its two rows agree), scores a hit from the graph around it, so an entity spelled, identified or merged otherwise moves the scores of the hits near it (by up to ${gap.toExponential(1)} here) and now and then a hit across a neighbour in the ranking or across the cut at 10. With use-lite, entity resolution also merges by embedding similarity, so a mention that met a forgotten entity merged where B, which never had it, kept the mention apart: that is most of the use-lite differences.`,
  )
  return lines.join('\n')
}
