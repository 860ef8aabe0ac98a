import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { VECTOR_INDEX_DEFAULTS, VectorIndex } from '@engram/core'
import { loadBeir } from '../loaders/beir.js'
import { indexText, type RetrievalDataset } from '../loaders/dataset-types.js'
import { loadLocomo } from '../loaders/locomo.js'
import { loadMusique } from '../loaders/musique.js'
import { cacheDir } from '../paths.js'
import { benchVectors, vectorCacheDir } from './bench-vectors.js'
import { captureEnvironment, environmentLine } from '../run/environment.js'

/**
 * Issue 29 item 3: HNSW construction parameters chosen by measured recall@10 against exact search on
 * real vectors. Every passage of SciFact, MuSiQue-100 and LoCoMo dev is embedded by the default
 * embedder (use-lite, through the benchmark vector cache), and each efConstruction builds an index of
 * all of them with the engine's `VectorIndex` (m and the search ef as the engine's defaults); the
 * three sets' questions are the queries, their exact top 10 (`exactSearch`) the truth.
 * `npm run bench -- --hnsw-construction` writes benchmarks/results/hnsw-construction.md.
 */
const SWEEP = [200, 128, 100, 64, 48, 32]
const K = 10
const BAR = 0.98

export async function runHnswConstruction(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const sets: RetrievalDataset[] = [
    loadBeir(join(dataDir, 'scifact'), 'scifact'),
    loadMusique(join(dataDir, 'musique-100'), 'musique-100'),
    loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev'),
  ]
  const docs = sets.flatMap((s) => s.groups.flatMap((g) => g.docs.map(indexText)))
  const questions = sets.flatMap((s) => s.groups.flatMap((g) => g.queries.map((q) => q.text)))
  const vectors = benchVectors({ cacheDir: vectorCacheDir(cacheDir) })
  await vectors.prepare([...docs, ...questions], log)
  const embed = (texts: string[]) => vectors.embedder().embed(texts, AbortSignal.timeout(3_600_000))
  const [docVectors, queryVectors] = [await embed(docs), await embed(questions)]
  await vectors.close()

  interface Row {
    efConstruction: number
    buildS: number
    usPerInsert: number
    recall: number
  }
  const rows: Row[] = []
  const environment = captureEnvironment()
  for (const efConstruction of SWEEP) {
    const index = new VectorIndex({ dimension: 512, efConstruction, exactBelow: 0 })
    const started = performance.now()
    docVectors.forEach((v, i) => index.add(`d${i}`, v))
    index.approximateSearch(queryVectors[0]!, K) // replays the queued inserts: part of the build
    const buildMs = performance.now() - started
    let found = 0
    for (const q of queryVectors) {
      const truth = new Set(index.exactSearch(q, K).map((h) => h.id))
      for (const hit of index.approximateSearch(q, K)) if (truth.has(hit.id)) found++
    }
    const row = {
      efConstruction,
      buildS: buildMs / 1000,
      usPerInsert: (buildMs / docVectors.length) * 1000,
      recall: found / (queryVectors.length * K),
    }
    rows.push(row)
    log(`efConstruction ${efConstruction}: ${JSON.stringify(row)}`)
  }

  const fmt = (n: number, d: number) => n.toFixed(d)
  const lines = [
    '<!-- GENERATED FILE: do not edit. Regenerate with `npm run bench -- --hnsw-construction`. -->',
    '# HNSW construction parameters on real vectors (issue 29 item 3)',
    '',
    environmentLine(environment),
    '',
    `Every passage of SciFact, MuSiQue-100 and LoCoMo dev (${docVectors.length.toLocaleString('en')} texts) embedded by use-lite (512-d), inserted into the engine's \`VectorIndex\` (hnswlib; m ${VECTOR_INDEX_DEFAULTS.m}, search ef ${VECTOR_INDEX_DEFAULTS.ef}) at each efConstruction; the sets' ${queryVectors.length.toLocaleString('en')} questions are the queries and their exact top ${K} (a scan of every vector) the truth. recall@${K} = share of the exact top ${K} the graph returns.`,
    '',
    `| efConstruction | build s | µs per insert | recall@${K} |`,
    '|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.efConstruction}${r.efConstruction === VECTOR_INDEX_DEFAULTS.efConstruction ? ' (default)' : ''} | ${fmt(r.buildS, 2)} | ${fmt(r.usPerInsert, 0)} | ${fmt(r.recall, 4)} |`,
    ),
    '',
    `The issue's bar: recall@${K} at least ${BAR}. The row marked (default) is the engine's efConstruction (\`VECTOR_INDEX_DEFAULTS\`).`,
    '',
  ]
  writeFileSync(join(resultsDir, 'hnsw-construction.md'), lines.join('\n'))
  log(`wrote ${join(resultsDir, 'hnsw-construction.md')}`)
}
