import { join } from 'node:path'
import {
  analyzer,
  BM25_VARIANTS,
  Bm25Index,
  ENGLISH_STOPWORDS,
  NLTK_ENGLISH_STOPWORDS,
  type Bm25Variant,
} from '@engram/core'
import { loadBeir } from '../loaders/beir.js'
import { indexText, type RetrievalDataset } from '../loaders/dataset-types.js'
import { loadLocomo } from '../loaders/locomo.js'
import { loadMusique } from '../loaders/musique.js'
import { evaluateRun } from '../metrics/evaluate.js'
import type { Hit } from '../metrics/ranking.js'

/** The grid `--tune-bm25` searches per analysis chain: every variant x k1 x b (default deltas). */
export const TUNE_GRID = {
  variants: BM25_VARIANTS,
  k1: [0.6, 0.8, 0.9, 1.0, 1.2, 1.5, 2.0],
  b: [0.3, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0],
} as const

/**
 * Analysis chains compared: the previous BM25 chain (Lucene's stop set, no split), each change alone,
 * and both (`analyzeBm25`, the engine's BM25 chain).
 */
export const TUNE_ANALYSES: Record<string, (text: string) => string[]> = {
  'lucene-stop': analyzer({ stopwords: ENGLISH_STOPWORDS, splitLettersDigits: false }),
  'lucene-stop+split': analyzer({ stopwords: ENGLISH_STOPWORDS, splitLettersDigits: true }),
  'nltk-stop': analyzer({ stopwords: NLTK_ENGLISH_STOPWORDS, splitLettersDigits: false }),
  'nltk-stop+split': analyzer({ stopwords: NLTK_ENGLISH_STOPWORDS, splitLettersDigits: true }),
}

/** The engine's setting before tuning: Pyserini's BEIR BM25 (Lucene, k1 0.9, b 0.4) on `lucene-stop`. */
const BASELINE = { analysis: 'lucene-stop', variant: 'lucene', k1: 0.9, b: 0.4 } as const

interface TuneSet {
  readonly name: string
  readonly metric: string
  readonly depth: number
  readonly dataset: RetrievalDataset
}

export interface TuneSetting {
  readonly analysis: string
  readonly variant: Bm25Variant
  readonly k1: number
  readonly b: number
}

export interface TuneRow {
  readonly setting: TuneSetting
  /** SciFact train nDCG@10: what the rows are ranked on. */
  readonly train: number
  /** The development sets' metric (LoCoMo dev R@10, MuSiQue-100 R@5). */
  readonly dev: Readonly<Record<string, number>>
}

/**
 * One `Bm25Index` per group (as each brain has its own) per analysis chain; every setting is scored by
 * reconfiguring it, since BM25 settings only weigh postings.
 */
function scorer(set: TuneSet, analyze: (text: string) => string[]) {
  const groups = set.dataset.groups.map((g) => {
    const index = new Bm25Index({ analyze })
    for (const d of g.docs) index.add(d.id, indexText(d))
    return { group: g, index }
  })
  const qrels = new Map(groups.flatMap(({ group }) => [...group.qrels]))
  return (setting: Omit<TuneSetting, 'analysis'>): number => {
    const run = new Map<string, Hit[]>()
    for (const { group, index } of groups) {
      index.configure(setting)
      for (const q of group.queries) run.set(q.id, index.search(q.text, set.depth))
    }
    return evaluateRun(run, qrels, [set.metric])[set.metric]!
  }
}

/**
 * Grid search of analysis chain x BM25 variant x k1 x b, ranked on SciFact TRAIN (qrels/train.tsv, 809
 * queries, nDCG@10); LoCoMo dev (R@10) and MuSiQue-100 (R@5) are scored at every setting as
 * development checks. SciFact test is never read.
 */
export function tuneBm25(dataDir: string, log: (line: string) => void): TuneRow[] {
  const sets: TuneSet[] = [
    {
      name: 'scifact-train',
      metric: 'nDCG@10',
      depth: 10,
      dataset: loadBeir(join(dataDir, 'scifact'), 'scifact', 'train'),
    },
    {
      name: 'locomo-dev',
      metric: 'R@10',
      depth: 10,
      dataset: loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev'),
    },
    {
      name: 'musique-100',
      metric: 'R@5',
      depth: 5,
      dataset: loadMusique(join(dataDir, 'musique-100'), 'musique-100'),
    },
  ]
  const rows: TuneRow[] = []
  for (const [analysis, analyze] of Object.entries(TUNE_ANALYSES)) {
    const [train, ...dev] = sets.map((s) => ({ name: s.name, score: scorer(s, analyze) }))
    for (const variant of TUNE_GRID.variants) {
      for (const k1 of TUNE_GRID.k1) {
        for (const b of TUNE_GRID.b) {
          const setting = { variant, k1, b }
          rows.push({
            setting: { analysis, ...setting },
            train: train!.score(setting),
            dev: Object.fromEntries(dev.map((d) => [d.name, d.score(setting)])),
          })
        }
      }
    }
    log(
      `  ${analysis}: ${TUNE_GRID.variants.length * TUNE_GRID.k1.length * TUNE_GRID.b.length} settings`,
    )
  }
  return rows.sort((a, b) => b.train - a.train)
}

const same = (a: TuneSetting, b: TuneSetting) =>
  a.analysis === b.analysis && a.variant === b.variant && a.k1 === b.k1 && a.b === b.b

/**
 * Train rows this close to the best are taken as tied: far below the noise of an 809-query mean (the
 * top 15 settings span 0.001 of nDCG@10).
 */
export const TRAIN_TIE = 0.001

/**
 * The rule the default follows: among the rows within `TRAIN_TIE` of the best SciFact train nDCG@10
 * whose development metrics are all at least the previous default's (LoCoMo and MuSiQue must not get
 * worse), the one with the best mean development metric.
 */
export function chooseBm25(rows: readonly TuneRow[]): { chosen: TuneRow; baseline: TuneRow } {
  const baseline = rows.find((r) => same(r.setting, BASELINE))!
  const mean = (r: TuneRow) => Object.values(r.dev).reduce((a, b) => a + b, 0) / 2
  const tied = rows.filter(
    (r) =>
      r.train >= rows[0]!.train - TRAIN_TIE &&
      Object.entries(baseline.dev).every(([name, value]) => r.dev[name]! >= value),
  )
  const chosen = tied.reduce((best, r) => (mean(r) > mean(best) ? r : best), tied[0]!)
  return { chosen, baseline }
}

/** The tuning table as Markdown (results/bm25-tuning.md). */
export function tuningReport(rows: readonly TuneRow[], command: string, top = 25): string {
  const f = (x: number) => x.toFixed(4)
  const line = (r: TuneRow, note = '') =>
    `| ${rows.indexOf(r) + 1}${note} | ${r.setting.analysis} | ${r.setting.variant} | ${r.setting.k1} | ${r.setting.b} | ${f(r.train)} | ${f(r.dev['locomo-dev']!)} | ${f(r.dev['musique-100']!)} |`
  const head = [
    '| rank | analysis | variant | k1 | b | SciFact train nDCG@10 | LoCoMo dev R@10 | MuSiQue-100 R@5 |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ]
  const { chosen, baseline } = chooseBm25(rows)
  const bestOf = (keep: (r: TuneRow) => boolean) => rows.find(keep)!
  const at = (s: Omit<TuneSetting, 'analysis'>, analysis: string) =>
    rows.find((r) => same(r.setting, { ...s, analysis }))!
  const n = TUNE_GRID.variants.length * TUNE_GRID.k1.length * TUNE_GRID.b.length
  return [
    '# BM25 tuning',
    '',
    `Generated by \`${command}\` (deterministic). Grid per analysis chain: variant (${TUNE_GRID.variants.join(', ')}) x k1 (${TUNE_GRID.k1.join(', ')}) x b (${TUNE_GRID.b.join(', ')}), ${n} settings (bm25l delta 0.5, bm25+ delta 1); ${rows.length} rows in all.`,
    'Ranked on SciFact **train** (qrels/train.tsv, 809 queries, nDCG@10, title + text, one index). LoCoMo dev (R@10, one index per conversation) and MuSiQue-100 (R@5) are development checks scored at every setting. SciFact test is not read.',
    '',
    "Analysis chains (all: `tokenize`, Porter2): `lucene-stop` is the previous BM25 chain (Lucene's 33-word stop set); `nltk-stop` uses NLTK's English list; `+split` also indexes the letter and digit runs of mixed tokens (`p53` -> `p53 p 53`).",
    '',
    `Rule: among the rows within ${TRAIN_TIE} of the best SciFact train nDCG@10 (ties, given the noise of 809 queries) whose LoCoMo dev and MuSiQue-100 numbers are both at least the previous default's (${BASELINE.analysis}, ${BASELINE.variant}, k1 ${BASELINE.k1}, b ${BASELINE.b}), the one with the best mean of the two development metrics.`,
    '',
    '## Chosen default and the previous one',
    '',
    ...head,
    line(chosen, ' (chosen)'),
    line(baseline, ' (previous)'),
    '',
    `## Top ${top} on SciFact train`,
    '',
    ...head,
    ...rows.slice(0, top).map((r) => line(r)),
    '',
    '## Best row per analysis chain and variant',
    '',
    ...head,
    ...Object.keys(TUNE_ANALYSES).flatMap((analysis) =>
      TUNE_GRID.variants.map((variant) =>
        line(bestOf((r) => r.setting.analysis === analysis && r.setting.variant === variant)),
      ),
    ),
    '',
    '## Analysis chains at the chosen and the previous parameters',
    '',
    ...head,
    ...Object.keys(TUNE_ANALYSES).map((a) => line(at(chosen.setting, a))),
    ...Object.keys(TUNE_ANALYSES).map((a) => line(at(baseline.setting, a))),
    '',
  ].join('\n')
}
