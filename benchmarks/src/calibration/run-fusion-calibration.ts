import { writeFileSync } from 'node:fs'
import { format, resolveConfig } from 'prettier'
import { join } from 'node:path'
import type { ChannelList, FusionCalibrationRecord } from '@engram/core'
import { indexText, type RetrievalDataset } from '../loaders/dataset-types.js'
import { loadBeir } from '../loaders/beir.js'
import { loadLocomo } from '../loaders/locomo.js'
import { loadMusique } from '../loaders/musique.js'
import { openEngineBrain } from '../systems/engine-brain.js'
import type { BenchVectors } from '../vectors/bench-vectors.js'
import { fusionGrid, type CalibrationSet } from './fusion-grid.js'
import { renderCalibrationTable, renderCalibrationReport } from './render-fusion-calibration.js'

/** The training and development splits the fusion is calibrated on (never a test split). */
const SETS: readonly {
  name: string
  load: (dataDir: string) => RetrievalDataset
  metric: string
  /** The benchmark configs' depth for the dataset (hits kept per query). */
  depth: number
}[] = [
  {
    name: 'scifact-train',
    load: (d) => loadBeir(join(d, 'scifact'), 'scifact', 'train'),
    metric: 'nDCG@10',
    depth: 100,
  },
  {
    name: 'locomo-dev',
    load: (d) => loadLocomo(join(d, 'locomo-dev'), 'locomo-dev'),
    metric: 'R@10',
    depth: 25,
  },
  {
    name: 'musique-100',
    load: (d) => loadMusique(join(d, 'musique-100'), 'musique-100'),
    metric: 'R@5',
    depth: 10,
  },
]

/** Candidates per channel a search of `depth` hits reads (`candidateDepth`: max(k, 50)). */
const channelDepth = (depth: number) => Math.max(depth, 50)

/**
 * The engine's BM25 and dense lists for every query of a dataset, taken once through the real engine
 * (documents committed with their cached vectors, `SearchService.candidates` with fusion `none`).
 */
async function retrieveLists(
  dataset: RetrievalDataset,
  depth: number,
  vectors: BenchVectors,
): Promise<Map<string, ChannelList[]>> {
  const embedder = vectors.embedder()
  const out = new Map<string, ChannelList[]>()
  const signal = AbortSignal.timeout(60 * 60_000)
  for (const group of dataset.groups) {
    const brain = await openEngineBrain({ embedder })
    try {
      const embedded = await embedder.embed(group.docs.map(indexText), signal)
      const byId = new Map(group.docs.map((d, i) => [d.id, embedded[i]!]))
      await brain.commitDocs(group.docs, (d) => byId.get(d.id)!)
      for (const q of group.queries) {
        const { lists } = await brain.search.candidates(brain.brainId, {
          query: q.text,
          channels: ['passages'],
          fusion: 'none',
          depth: channelDepth(depth),
        })
        out.set(q.id, lists)
      }
    } finally {
      await brain.close()
    }
  }
  return out
}

/**
 * A set as its two halves (queries alternately, in qrels order), so a weight is kept only when its gain
 * holds on each half of each set: the rule's worst gain then penalises a gain a few queries carry.
 */
export function halves(set: CalibrationSet): CalibrationSet[] {
  const ids = [...set.qrels.keys()]
  return ['a', 'b'].map((half, h) => {
    const keep = new Set(ids.filter((_, i) => i % 2 === h))
    return {
      ...set,
      name: `${set.name} ${half}`,
      lists: new Map([...set.lists].filter(([qid]) => keep.has(qid))),
      qrels: new Map([...set.qrels].filter(([qid]) => keep.has(qid))),
    }
  })
}

/**
 * `npm run bench -- --calibrate-fusion`: grids normalisation x dense share of `cc` over the engine's
 * own BM25 and dense lists on SciFact train, LoCoMo dev and MuSiQue-100, picks the row that is never
 * (or least) below BM25 on any set, and writes the grid (results/fusion-calibration.md and .json) and
 * the chosen weights into packages/core/src/search/fusion-calibration-table.ts under the embedder's name.
 */
export async function runFusionCalibration(
  dataDir: string,
  paths: { results: string; table: string },
  vectors: BenchVectors,
  log: (line: string) => void,
): Promise<FusionCalibrationRecord> {
  const sets: CalibrationSet[] = []
  for (const s of SETS) {
    const dataset = s.load(dataDir)
    log(`${s.name}: ${dataset.groups.reduce((n, g) => n + g.queries.length, 0)} queries`)
    await vectors.prepare(
      dataset.groups.flatMap((g) => [...g.docs.map(indexText), ...g.queries.map((q) => q.text)]),
      log,
    )
    const qrels = new Map(dataset.groups.flatMap((g) => [...g.qrels]))
    const lists = await retrieveLists(dataset, s.depth, vectors)
    sets.push(...halves({ name: s.name, metric: s.metric, depth: s.depth, lists, qrels }))
  }
  const grid = fusionGrid(sets)
  const best = grid.chosen
  const embedder = vectors.embedder().name
  const record: FusionCalibrationRecord = {
    normalization: best.normalization,
    denseShare: best.denseShare,
    // Passage lists only here: graph lists keep the neutral weight (docs/search-fusion.md).
    graphWeight: 0.5,
    tunedOn: SETS.map((s) => `${s.name} ${s.metric}`),
    date: new Date().toISOString().slice(0, 10),
  }
  const report = {
    embedder,
    chosen: record,
    bm25: grid.bm25,
    sets: sets.map(({ name, metric, depth }) => ({ name, metric, depth })),
    rows: grid.rows,
  }
  writeFileSync(
    join(paths.results, 'fusion-calibration.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  )
  writeFileSync(join(paths.results, 'fusion-calibration.md'), renderCalibrationReport(report))
  const source = renderCalibrationTable({ [embedder]: record })
  const options = (await resolveConfig(paths.table)) ?? {}
  writeFileSync(paths.table, await format(source, { ...options, filepath: paths.table }))
  log(
    `chosen for ${embedder}: ${record.normalization}, dense share ${record.denseShare} ` +
      `(worst gain over BM25 ${(best.worstGain * 100).toFixed(2)}%, mean ${(best.meanGain * 100).toFixed(2)}%)`,
  )
  return record
}
