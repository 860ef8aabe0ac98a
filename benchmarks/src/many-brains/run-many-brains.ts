import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { indexText } from '../loaders/dataset-types.js'
import { cacheDir } from '../paths.js'
import { captureEnvironment } from '../run/environment.js'
import { runChild } from '../run/tsx-child.js'
import { benchVectors, vectorCacheDir } from '../vectors/bench-vectors.js'
import { CALIBRATION_SIZES, type CalibrationPoint } from './calibrate-index-bytes.js'
import {
  loadScifact,
  MANY_BRAINS_BUDGET_MB,
  writeQueryVectors,
  type ManyBrainsShape,
} from './many-brains-corpus.js'
import { manyBrainsReport, type ManyBrainsReportInput } from './many-brains-report.js'
import type { ManyBrainsSeed } from './seed-many-brains.js'
import type { ManyBrainsServe } from './serve-many-brains.js'

const MAIN = fileURLToPath(new URL('./many-brains-main.ts', import.meta.url))
const HOUR_MS = 3_600_000

/**
 * The serving process and the calibration run under glibc's default malloc, then with a fixed mmap
 * threshold: every block of 128 KiB or more (hnswlib's graph, the flat vector copies) is then its own
 * mapping, returned to the system when an evicted brain's indexes are freed, where the default's
 * threshold grows after the first such free and later blocks come from, and stay in, the heap.
 */
export const ALLOCATORS = [
  { label: 'glibc malloc defaults', env: {} },
  { label: 'MALLOC_MMAP_THRESHOLD_=131072', env: { MALLOC_MMAP_THRESHOLD_: '131072' } },
] as const

export const manyBrainsCommand = (shape: ManyBrainsShape, defaults: boolean) =>
  `npm run bench -- --many-brains${defaults ? '' : ` ${shape.brains},${shape.passages}`}`

/**
 * Issue 13's check: `shape.brains` brains of `shape.passages` SciFact passages each on SQLite, served
 * by one process with an index memory budget of 512 MB while every brain is searched in turn. Vectors
 * first (use-lite over the distinct texts, through the on-disk cache), then three kinds of child
 * process: the seeding, the measured serving process, and one calibration of the index estimate per
 * brain size. Writes results/many-brains.md.
 */
export async function runManyBrains(
  shape: ManyBrainsShape,
  defaults: boolean,
  datasetsDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  if (process.env.MALLOC_MMAP_THRESHOLD_ !== undefined)
    throw new Error('--many-brains compares malloc settings itself: unset MALLOC_MMAP_THRESHOLD_')
  const environment = captureEnvironment()
  const { docs, queries } = loadScifact(datasetsDir)
  const vectors = benchVectors({ cacheDir: vectorCacheDir(cacheDir) })
  let embedder: { name: string; dimension: number }
  const queryTexts = [...new Set(queries.map((q) => q.text))]
  let queryVectors: Float32Array[]
  try {
    const summary = await vectors.prepare([...docs.map(indexText), ...queryTexts], log)
    embedder = { name: summary.embedder, dimension: summary.dimension }
    // All cached by now: read here, handed to the serving process (`writeQueryVectors`).
    queryVectors = await vectors.embedder().embed(queryTexts, AbortSignal.timeout(HOUR_MS))
  } finally {
    await vectors.close()
  }
  const progress = (text: string) => {
    for (const line of text.split('\n')) if (line.trim() !== '') log(line)
  }
  const options = { timeoutMs: 4 * HOUR_MS, onStderr: progress }
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-many-brains-'))
  try {
    writeQueryVectors(dir, queryTexts, queryVectors)
    const counts = [String(shape.brains), String(shape.passages)]
    log(`many-brains: seeding ${shape.brains} brains of ${shape.passages} passages (SQLite) ...`)
    const seed = await runChild<ManyBrainsSeed>(
      MAIN,
      ['seed', dir, datasetsDir, ...counts, embedder.name, String(embedder.dimension)],
      {},
      options,
    )
    log(`many-brains: seeded in ${(seed.ms / 1000).toFixed(0)} s`)
    const serves: ManyBrainsReportInput['serves'][number][] = []
    for (const allocator of ALLOCATORS) {
      log(`many-brains: serving (${allocator.label}) ...`)
      const serve = await runChild<ManyBrainsServe>(
        MAIN,
        ['serve', dir, datasetsDir, ...counts, String(MANY_BRAINS_BUDGET_MB)],
        allocator.env,
        options,
      )
      serves.push({ allocator: allocator.label, serve })
    }
    const calibration: ManyBrainsReportInput['calibration'][number][] = []
    for (const allocator of ALLOCATORS)
      for (const passages of CALIBRATION_SIZES) {
        log(`many-brains: calibrating at ${passages} passages per brain (${allocator.label}) ...`)
        const point = await runChild<CalibrationPoint>(
          MAIN,
          ['calibrate', datasetsDir, String(passages)],
          allocator.env,
          options,
        )
        calibration.push({ allocator: allocator.label, point })
      }
    const file = join(resultsDir, 'many-brains.md')
    writeFileSync(
      file,
      manyBrainsReport({
        command: manyBrainsCommand(shape, defaults),
        environment,
        shape,
        embedder,
        seed,
        serves,
        calibration,
      }),
    )
    log(`wrote ${file}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
