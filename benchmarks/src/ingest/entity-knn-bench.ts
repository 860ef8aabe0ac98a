/**
 * Issue 27 item 3: exact entity kNN as entity resolution runs it (k = 5 per candidate, 512-d unit
 * vectors), the previous and the current `FlatVectors` side by side in one process, on the same data
 * and queries, alternating rounds so both meet the same load. Checks that both return the same labels
 * in the same order, and reports the largest score difference.
 *   npx tsx --conditions=source benchmarks/src/ingest/entity-knn-bench.ts /tmp/engram-before [sizes] [queries]
 */
import { performance } from 'node:perf_hooks'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { mulberry32 } from '../scale/synthetic-corpus.js'

interface Store {
  set(label: number, vector: ArrayLike<number>): void
  search(
    q: Float32Array,
    k: number,
    slots: number,
    idOf: (l: number) => string | null,
  ): { label: number; score: number }[]
}
type StoreClass = new (dimension: number, capacity: number) => Store

const FILE = 'packages/core/src/indexes/vectors/flat-vectors.ts'
const [beforeRoot = '/tmp/engram-before', sizesArg = '5000,50000', queriesArg = '1000'] =
  process.argv.slice(2)
const DIM = 512
const K = 5 // NEAREST in ingest/resolve/similar-entities.ts

const load = async (root: string) =>
  ((await import(pathToFileURL(join(resolve(root), FILE)).href)) as { FlatVectors: StoreClass })
    .FlatVectors

// Seeded, so every run sees the same vectors.
const random = mulberry32(27)
const vector = () => Float32Array.from({ length: DIM }, () => random() - 0.5)
const unit = (v: Float32Array) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0))
  return v.map((x) => x / n)
}

const Before = await load(beforeRoot)
const After = await load('.')
for (const n of sizesArg.split(',').map(Number)) {
  const queries = Array.from({ length: Number(queriesArg) }, () => unit(vector()))
  const ids = Array.from({ length: n }, (_, i) => `e${i}`)
  const idOf = (l: number) => ids[l] ?? null
  const before = new Before(DIM, n)
  const after = new After(DIM, n)
  for (let l = 0; l < n; l++) {
    const v = vector()
    before.set(l, v)
    after.set(l, v)
  }
  const ms = { before: 0, after: 0 }
  let mismatches = 0
  let maxDiff = 0
  for (let round = 0; round < 2; round++) {
    const results: Record<string, { label: number; score: number }[][]> = {}
    for (const [name, store] of [
      ['before', before],
      ['after', after],
    ] as const) {
      const t = performance.now()
      results[name] = queries.map((q) => store.search(q, K, n, idOf))
      if (round === 1) ms[name] = (performance.now() - t) / queries.length
    }
    results.before!.forEach((b, i) => {
      const a = results.after![i]!
      if (a.map((h) => h.label).join() !== b.map((h) => h.label).join()) mismatches++
      b.forEach((h, j) => (maxDiff = Math.max(maxDiff, Math.abs(h.score - (a[j]?.score ?? 0)))))
    })
  }
  console.log(
    `n=${n} d=${DIM} k=${K} queries=${queries.length}: before ${ms.before.toFixed(3)} ms/query, ` +
      `after ${ms.after.toFixed(3)} ms/query (${(ms.before / ms.after).toFixed(1)}x); ` +
      `rankings differing ${mismatches}, max |score diff| ${maxDiff.toExponential(1)}`,
  )
}
