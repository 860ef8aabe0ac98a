import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  CHANNEL_WEIGHTS,
  HISTORY_HALF_LIFE,
  MMR_LAMBDA,
  rankRecommendations,
  recommendChannels,
} from '@engram/core'
import { leaveLastOut, loadMovieLens } from '../loaders/movielens.js'
import { hitAtK } from '../metrics/hit-rate.js'
import { ndcgAtK } from '../metrics/ndcg.js'
import { fmt4 } from '../report/format.js'
import { captureEnvironment, environmentLine } from '../run/environment.js'
import { ingestMovieLens } from './engram-movielens.js'
import { evaluateRecommender } from './evaluate-recommender.js'
import { itemKnn, popularity } from './recsys-baselines.js'
import {
  chooseDefaults,
  knnName,
  validationDataPath,
  validationReport,
  type Tally,
  type ValidationData,
} from './movielens-validation-report.js'
import {
  HALF_LIFE_GRID,
  settingGrid,
  settingKey,
  settingLabel,
  settingTuning,
  type RecsysSetting,
} from './recsys-tuning.js'
import { validationFolds } from './validation-folds.js'

/** Validation folds: each adds 610 targets (one per user) and one ingestion of the graph. */
export const VALIDATION_FOLDS = 3
const K = 10

/**
 * MovieLens validation for issue 14's settings of `recommend` (`recsys-tuning.ts`). The test split's
 * held-out ratings are removed first and never read again; {@link VALIDATION_FOLDS} nested
 * leave-last-out folds are cut from what remains (`validationFolds`), each ingested as its own graph
 * (tags on any held-out pair left out). For every user of a fold, the channels are collected once per
 * history half-life (`recommendChannels`) and ranked under every multi-interest weight and MMR lambda
 * (`rankRecommendations`); popularity and item-kNN (plain and with every half-life) are scored on
 * the same folds. Saves the per-fold sums to `results/data/movielens-validation.json` and writes
 * `results/movielens-validation.md` with the choice of `chooseDefaults` (recsys.test.ts checks the
 * engine's defaults are that choice).
 */
export async function runMovieLensValidation(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
  folds = VALIDATION_FOLDS,
): Promise<void> {
  const env = captureEnvironment()
  const data = loadMovieLens(join(dataDir, 'movielens-small'))
  const outer = leaveLastOut(data.ratings)
  const splits = validationFolds(outer.train, folds)
  const grid = settingGrid()
  const engram = new Map(grid.map((s) => [settingKey(s), { hr: [], ndcg: [] } as Tally]))
  const baselines = new Map<string, Tally>()
  const targets: number[] = []

  for (let f = 0; f < splits.length; f++) {
    const split = splits[f]!
    const heldOut = [outer.test, ...splits.slice(0, f).map((s) => s.test)]
    const ml = await ingestMovieLens(data, split, heldOut)
    log(
      `validation fold ${f + 1}: ${split.train.length} train, ${split.test.size} held out; ${ml.entities} entities, ${ml.relationships} relationships (ingest ${(ml.ingestMs / 1000).toFixed(1)} s)`,
    )
    try {
      targets.push(split.test.size)
      const baseline = async (name: string, score: ReturnType<typeof evaluateRecommender>) => {
        const { hr, ndcg } = await score
        const tally = baselines.get(name) ?? { hr: [], ndcg: [] }
        baselines.set(name, tally)
        tally.hr.push(hr * split.test.size)
        tally.ndcg.push(ndcg * split.test.size)
      }
      await baseline('popularity', evaluateRecommender(popularity(split.train), split, K))
      for (const h of HALF_LIFE_GRID)
        await baseline(knnName(h), evaluateRecommender(itemKnn(split.train, 50, h), split, K))

      for (const tally of engram.values()) {
        tally.hr.push(0)
        tally.ndcg.push(0)
      }
      for (const user of [...split.test.keys()].sort((a, b) => a - b)) {
        const judged = new Map([[String(split.test.get(user)!.movieId), 1]])
        const deps = await ml.deps(user)
        const node = ml.userNode(user)!
        for (const historyHalfLife of HALF_LIFE_GRID) {
          const options = { topK: K, excludeSeen: true, labels: ['MOVIE'] }
          const collected = await recommendChannels(deps, ml.graph, node, {
            ...options,
            tuning: { historyHalfLife },
          })
          for (const setting of grid) {
            if (setting.historyHalfLife !== historyHalfLife) continue
            const ranked = rankRecommendations(ml.graph, collected, {
              ...options,
              tuning: settingTuning(setting),
            })
            const hits = ranked.flatMap((r, i) => {
              const movie = ml.movieOf(r.node)
              return movie === undefined ? [] : [{ id: String(movie), score: K - i }]
            })
            const tally = engram.get(settingKey(setting))!
            tally.hr[f]! += hitAtK(hits, judged, K)
            tally.ndcg[f]! += ndcgAtK(hits, judged, K, 'binary')
          }
        }
      }
      const defaults = engram.get(settingKey(engineDefaults()))
      if (defaults !== undefined)
        log(`fold ${f + 1}: engine defaults HR@10 ${fmt4(defaults.hr[f]! / split.test.size)}`)
    } finally {
      await ml.close()
    }
  }

  const measured: ValidationData = {
    targets,
    engram: Object.fromEntries(engram),
    baselines: Object.fromEntries(baselines),
    environment: environmentLine(env),
  }
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  writeFileSync(validationDataPath(resultsDir), validationJson(measured))
  const { chosen } = chooseDefaults(measured)
  log(`chosen: ${settingLabel(chosen.setting)} (HR@10 ${fmt4(chosen.hr)})`)
  writeFileSync(join(resultsDir, 'movielens-validation.md'), validationReport(measured))
  log(`wrote ${join(resultsDir, 'movielens-validation.md')} and ${validationDataPath(resultsDir)}`)
}

/** The saved data as JSON with one system or setting per line (small diffs when a rerun moves one). */
function validationJson(data: ValidationData): string {
  const block = (o: Record<string, Tally>) =>
    Object.entries(o)
      .map(([k, t]) => `    ${JSON.stringify(k)}: ${JSON.stringify(t)}`)
      .join(',\n')
  return [
    '{',
    `  "targets": ${JSON.stringify(data.targets)},`,
    `  "engram": {\n${block(data.engram)}\n  },`,
    `  "baselines": {\n${block(data.baselines)}\n  },`,
    `  "environment": ${JSON.stringify(data.environment)}`,
    '}',
    '',
  ].join('\n')
}

/** The engine's own defaults as a setting (they must be one of the grid's). */
export function engineDefaults(): RecsysSetting {
  return {
    historyHalfLife: HISTORY_HALF_LIFE,
    multiInterestWeight: CHANNEL_WEIGHTS.multi_interest,
    mmrLambda: MMR_LAMBDA,
  }
}
