import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { cosine, useLiteEmbedder, type UseLitePrecision } from '@engram/core'
import {
  pieceRows,
  sparseBatch,
} from '../../../packages/core/src/embedders/use-lite/use-lite-batch.js'
import { useLiteOnnxRuntime } from '../../../packages/core/src/embedders/use-lite/use-lite-onnx-runtime.js'
import { useLiteModelDir } from '../../../packages/core/src/embedders/use-lite/use-lite-pool.js'
import {
  USE_LITE_MAX_TOKENS,
  UseLiteTokenizer,
  type Vocabulary,
} from '../../../packages/core/src/embedders/use-lite/use-lite-tokenizer.js'
import { loadBeir } from '../loaders/beir.js'
import { loadLocomo } from '../loaders/locomo.js'
import { loadMusique } from '../loaders/musique.js'
import { captureEnvironment, environmentLine } from '../run/environment.js'

/**
 * use-lite's two precisions (issue 27 item 3, docs/embedders.md), every figure docs/embedders.md gives:
 * how far each int8 vector is from the float one, by pieces per text (the model's int8 graph on every
 * text, then the embedder as shipped, which runs texts of one to three pieces on its float session),
 * what a model run costs in each, and what the embedder embeds per second with two workers.
 * `npm run bench -- --use-lite-precision` writes benchmarks/results/use-lite-precision.md.
 */

/** Texts per set, by dataset: the first of each (no sampling, so a rerun measures the same texts). */
function textSets(dataDir: string): Record<string, string[]> {
  const turns = loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev').groups.flatMap((g) =>
    g.docs.map((d) => d.text),
  )
  const words = (text: string, n: number) => text.split(/\s+/).slice(0, n).join(' ')
  const counts = new Map<string, number>()
  for (const turn of turns)
    for (const w of turn.toLowerCase().match(/[a-z']+/g) ?? [])
      counts.set(w, (counts.get(w) ?? 0) + 1)
  const frequent = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3000)
    .map(([w]) => w)
  const musique = loadMusique(join(dataDir, 'musique-100'), 'musique-100').groups[0]!.docs
  const scifact = loadBeir(join(dataDir, 'scifact'), 'scifact').groups[0]!.docs
  return {
    'LoCoMo dev turns (first 800)': turns.slice(0, 800),
    'their first three words': turns.slice(0, 800).map((t) => words(t, 3)),
    "LoCoMo dev's 3,000 most frequent words": frequent,
    'MuSiQue-100 paragraphs (first 400, title and text)': musique
      .slice(0, 400)
      .map((d) => `${d.title}\n${d.text}`),
    'MuSiQue-100 titles and eight words': musique
      .slice(0, 400)
      .map((d) => `${d.title}: ${words(d.text, 8)}`),
    'SciFact abstracts (400, whole)': scifact.slice(3000, 3400).map((d) => d.text),
    'odd inputs': ODD,
  }
}

const ODD = [
  '',
  ' ',
  'a',
  'I',
  '?',
  '42',
  '3.14159',
  '2023-05-08',
  'ok',
  '😀',
  '🎉🎉🎉',
  'ÄÖÜ ß',
  '東京',
  'Москва',
  'if (x) { return y }',
  'of(entityUuid',
  '#### Heading',
  '[link](http://x.y/z)',
  'the the the the the the the',
  'x'.repeat(2000),
  'word '.repeat(600),
  ...Array.from({ length: 100 }, (_, i) => String(i * 7919)),
]

/** Pieces-per-text buckets of the cosine table: 1 to 8, then 9 or more. */
const BUCKETS = 9
const bucketOf = (pieces: number) => Math.min(pieces, BUCKETS)

interface Runtime {
  run(texts: string[], onFloat?: boolean): Promise<Float32Array[]>
}

/** The worker's runtime in this process: the model's graph in one session (and a float one for int8). */
async function runtime(precision: UseLitePrecision, tokenizer: UseLiteTokenizer): Promise<Runtime> {
  const model = await useLiteOnnxRuntime(useLiteModelDir(), precision)
  return {
    async run(texts, onFloat = false) {
      const flat = await model.run(
        ...sparseBatch(pieceRows(tokenizer, texts, USE_LITE_MAX_TOKENS)),
        onFloat,
      )
      return texts.map((_, i) => flat.slice(i * 512, (i + 1) * 512))
    },
  }
}

interface SetRow {
  name: string
  texts: number
  min: number
  mean: number
  /** Lowest over texts of four or more pieces (the others run on the float session); null: none. */
  shippedMin: number | null
}

export async function runUseLitePrecision(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const environment = captureEnvironment()
  const vocabulary = JSON.parse(
    readFileSync(join(useLiteModelDir(), 'vocab.json'), 'utf8'),
  ) as Vocabulary
  const tokenizer = new UseLiteTokenizer(vocabulary)
  const [fp32, int8] = [await runtime('fp32', tokenizer), await runtime('int8', tokenizer)]
  const sets = textSets(dataDir)

  // 1. Cosine to the float model: the int8 graph on every text, and as shipped (texts of at most three
  // pieces on the float session, as use-lite-worker.ts does).
  const byPieces = Array.from({ length: BUCKETS + 1 }, () => ({ texts: 0, min: 1 }))
  const rows: SetRow[] = []
  for (const [name, texts] of Object.entries(sets)) {
    let min = 1
    let sum = 0
    let shippedMin: number | null = null
    for (let i = 0; i < texts.length; i += 8) {
      const batch = texts.slice(i, i + 8)
      const [a, b] = [await fp32.run(batch), await int8.run(batch)]
      batch.forEach((text, r) => {
        const c = cosine(a[r]!, b[r]!)
        const pieces = Math.max(1, tokenizer.encode(text, USE_LITE_MAX_TOKENS).length)
        const bucket = byPieces[bucketOf(pieces)]!
        bucket.texts++
        bucket.min = Math.min(bucket.min, c)
        min = Math.min(min, c)
        sum += c
        if (pieces > 3) shippedMin = Math.min(shippedMin ?? 1, c)
      })
    }
    rows.push({ name, texts: texts.length, min, mean: sum / texts.length, shippedMin })
    log(`use-lite precision: ${name}: min ${min.toFixed(5)}`)
  }
  // The embedder as shipped, end to end (worker threads, length batches, the float route).
  const all = [...new Set(Object.values(sets).flat())]
  const shipped = await embedAll('int8', all)
  const reference = await embedAll('fp32', all)
  const shippedMin = Math.min(...shipped.vectors.map((v, i) => cosine(v, reference.vectors[i]!)))

  // 2. A model run, in this process on one thread: LoCoMo turns in batches of 1, 4 and 16, the two
  // precisions alternating, median of the rounds.
  const turns = sets['LoCoMo dev turns (first 800)']!
  const runs: { rows: number; fp32: number; int8: number }[] = []
  for (const size of [1, 4, 16]) {
    const batches = Array.from({ length: 40 }, (_, i) => turns.slice(i * size, (i + 1) * size))
    const times: Record<'fp32' | 'int8', number[]> = { fp32: [], int8: [] }
    for (let round = 0; round < 6; round++)
      for (const [name, rt] of [
        ['fp32', fp32],
        ['int8', int8],
      ] as const) {
        const started = performance.now()
        for (const batch of batches) await rt.run(batch)
        times[name].push((performance.now() - started) / batches.length)
      }
    runs.push({ rows: size, fp32: median(times.fp32), int8: median(times.int8) })
  }

  const fmt = (n: number, d: number) => n.toFixed(d)
  const lines = [
    '<!-- GENERATED FILE: do not edit. Regenerate with `npm run bench -- --use-lite-precision`. -->',
    '# use-lite: int8 against float (issue 27 item 3)',
    '',
    environmentLine(environment),
    '',
    "The model's ONNX graph with `precision: 'fp32'` (its own arithmetic) and `'int8'` (`runsOnInt8`'s products on 8-bit integers, a scale per weight column and per token), on ONNX Runtime's CPU kernels; docs/embedders.md explains the route. \"int8 graph\" runs every text on the int8 graph; \"as shipped\" is what use-lite returns, which runs texts of one to three pieces on the model's float products (their vectors are the float ones).",
    '',
    '## Cosine to the float vector, by text set',
    '',
    '| texts | count | int8 graph: lowest | int8 graph: mean | as shipped: lowest |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.texts.toLocaleString('en')} | ${fmt(r.min, 5)} | ${fmt(r.mean, 5)} | ${r.shippedMin === null ? '1 (all on the float session)' : fmt(r.shippedMin, 5)} |`,
    ),
    '',
    '## Lowest cosine by pieces per text (every set above)',
    '',
    '| pieces | texts | int8 graph: lowest | as shipped |',
    '|---:|---:|---:|---|',
    ...byPieces.flatMap((b, pieces) =>
      pieces === 0 || b.texts === 0
        ? []
        : [
            `| ${pieces === BUCKETS ? `${BUCKETS}+` : pieces} | ${b.texts.toLocaleString('en')} | ${fmt(b.min, 5)} | ${pieces <= 3 ? 'float session' : fmt(b.min, 5)} |`,
          ],
    ),
    '',
    `End to end, \`useLiteEmbedder()\` (int8, two workers) against \`useLiteEmbedder({ precision: 'fp32' })\` on the ${all.length.toLocaleString('en')} distinct texts above: lowest cosine **${fmt(shippedMin, 5)}**; ${fmt(shipped.textsPerSecond, 0)} against ${fmt(reference.textsPerSecond, 0)} texts/s (cache off).`,
    '',
    '## One model run (one thread, this process)',
    '',
    '| LoCoMo turns per run | fp32 ms | int8 ms | speed-up |',
    '|---:|---:|---:|---:|',
    ...runs.map(
      (r) => `| ${r.rows} | ${fmt(r.fp32, 2)} | ${fmt(r.int8, 2)} | ${fmt(r.fp32 / r.int8, 2)}x |`,
    ),
    '',
    'Medians of 6 alternating rounds of 40 runs each (turns 1-40, 1-160, 1-640 of LoCoMo dev).',
    '',
  ]
  const path = join(resultsDir, 'use-lite-precision.md')
  writeFileSync(path, lines.join('\n'))
  log(`wrote ${path}`)
}

/** Every text through a fresh use-lite embedder of that precision (2 workers, cache off). */
async function embedAll(precision: UseLitePrecision, texts: string[]) {
  const embedder = useLiteEmbedder({ precision, cacheSize: 0 })
  try {
    await embedder.warmUp()
    const started = performance.now()
    const vectors = await embedder.embed(texts, AbortSignal.timeout(3_600_000))
    return { vectors, textsPerSecond: texts.length / ((performance.now() - started) / 1000) }
  } finally {
    await embedder.close()
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
