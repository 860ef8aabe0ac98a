import { join } from 'node:path'
import { banner, fmt4, mdTable } from '../report/format.js'
import {
  canBeDefault,
  chooseSetting,
  HALF_LIFE_GRID,
  MMR_LAMBDA_GRID,
  MULTI_INTEREST_WEIGHT_GRID,
  settingGrid,
  settingKey,
  settingLabel,
  type RecsysSetting,
  type ScoredSetting,
} from './recsys-tuning.js'

export const RECSYS_VALIDATION_COMMAND = 'npm run bench -- --recsys-validation'

/** Per-fold HR@10 and nDCG@10 sums (over the fold's targets) of one system or setting. */
export interface Tally {
  hr: number[]
  ndcg: number[]
}

/** What `--recsys-validation` measured, saved so the report and the defaults test can read it. */
export interface ValidationData {
  /** Targets per fold. */
  targets: number[]
  /** By `settingKey`. */
  engram: Record<string, Tally>
  /** By system name (`knnName` for item-kNN). */
  baselines: Record<string, Tally>
  environment: string
}

export const validationDataPath = (resultsDir: string): string =>
  join(resultsDir, 'data', 'movielens-validation.json')

export const knnName = (h: number): string =>
  h === Number.POSITIVE_INFINITY
    ? 'item-kNN (cosine, 50 neighbours)'
    : `item-kNN (cosine, 50 neighbours), history half-life ${h}`

function mean(data: ValidationData, t: Tally): { hr: number; ndcg: number } {
  const total = data.targets.reduce((s, n) => s + n, 0)
  return {
    hr: t.hr.reduce((s, x) => s + x, 0) / total,
    ndcg: t.ndcg.reduce((s, x) => s + x, 0) / total,
  }
}

/** Every setting of the grid with its mean validation scores, in grid order. */
export function scoredSettings(data: ValidationData): ScoredSetting<RecsysSetting>[] {
  return settingGrid().map((setting) => ({
    setting,
    ...mean(data, data.engram[settingKey(setting)]!),
  }))
}

/**
 * The validation's choices: the engine defaults (`chooseSetting` among the settings that may be
 * defaults), the best setting of all, and item-kNN's best history half-life.
 */
export function chooseDefaults(data: ValidationData): {
  chosen: ScoredSetting<RecsysSetting>
  best: ScoredSetting<RecsysSetting>
  knn: ScoredSetting<number>
} {
  const scored = scoredSettings(data)
  return {
    chosen: chooseSetting(scored.filter((s) => canBeDefault(s.setting))),
    best: chooseSetting(scored),
    knn: chooseSetting(
      HALF_LIFE_GRID.map((h) => ({ setting: h, ...mean(data, data.baselines[knnName(h)]!) })),
    ),
  }
}

/** `results/movielens-validation.md` from the saved data. */
export function validationReport(data: ValidationData): string {
  const scored = scoredSettings(data)
  const { chosen, best, knn } = chooseDefaults(data)
  const c = chosen.setting
  const total = data.targets.reduce((s, n) => s + n, 0)
  const same = (a: RecsysSetting, b: RecsysSetting) => settingKey(a) === settingKey(b)
  const byScore = (a: ScoredSetting<RecsysSetting>, b: ScoredSetting<RecsysSetting>) =>
    b.hr - a.hr || b.ndcg - a.ndcg
  const row = (x: ScoredSetting<RecsysSetting>) => [
    settingLabel(x.setting),
    fmt4(x.hr),
    fmt4(x.ndcg),
    same(x.setting, c) ? 'chosen' : canBeDefault(x.setting) ? '' : 'may not be a default',
  ]
  // One-factor slices through the chosen setting: each setting varied, the other two fixed.
  const slice = (title: string, vary: (s: RecsysSetting) => boolean) =>
    mdTable(
      [title, 'HR@10', 'nDCG@10', ''],
      scored
        .filter((x) => vary(x.setting))
        .sort(byScore)
        .map(row),
    )
  const perFold = (t: Tally) => t.hr.map((x, f) => fmt4(x / data.targets[f]!)).join(' / ')
  const original = scored.find((x) =>
    same(x.setting, {
      historyHalfLife: Number.POSITIVE_INFINITY,
      multiInterestWeight: 0.85,
      mmrLambda: 0.7,
    }),
  )!
  return [
    banner(RECSYS_VALIDATION_COMMAND),
    '',
    '# MovieLens-small validation: settings of `/retrieve/recommend`',
    '',
    'Nested leave-last-out on the training part of the test split (the test ratings are removed first and never ' +
      `read): ${data.targets.length} fold${data.targets.length === 1 ? '' : 's'}, fold f holding out each user's ` +
      `latest rating of fold f-1's training part (${data.targets.join(' + ')} targets). Each fold is ingested as its ` +
      'own event graph and every system is asked for 10 movies the user has not rated, as in `movielens.md`. ' +
      'Engram: `recommend(top_k 10, exclude_seen, labels MOVIE)` with the REST defaults otherwise, under every ' +
      `combination of history half-life (${HALF_LIFE_GRID.map(fmtHalfLife).join(', ')} interactions), ` +
      `multi-interest channel weight (${MULTI_INTEREST_WEIGHT_GRID.join(', ')}) and MMR lambda ` +
      `(${MMR_LAMBDA_GRID.join(', ')}). Rule (\`chooseSetting\`): highest mean HR@10, then nDCG@10, then grid ` +
      'order, among the settings that may be defaults (`canBeDefault`: a multi-interest weight above 0, since ' +
      '`include_multi_interest` is on by default and a weight of 0 would leave the channel out, as lambda 1 would ' +
      'switch `diversify` off). Scores are means over all targets; the engine defaults must be the chosen setting ' +
      '(`recsys.test.ts` checks them against `results/data/movielens-validation.json`).',
    '',
    `**Chosen: ${settingLabel(c)}** (HR@10 ${fmt4(chosen.hr)}, nDCG@10 ${fmt4(chosen.ndcg)}). ` +
      (same(best.setting, c)
        ? 'It is also the best of all settings.'
        : `The best of all settings is ${settingLabel(best.setting)} (HR@10 ${fmt4(best.hr)}, nDCG@10 ${fmt4(best.ndcg)}), which may not be a default.`),
    `The original settings (${settingLabel(original.setting)}): HR@10 ${fmt4(original.hr)}, nDCG@10 ${fmt4(original.ndcg)}.`,
    `With ${total} targets, the 95% interval of a hit rate near ${fmt4(chosen.hr)} is about ` +
      `± ${fmt4(1.96 * Math.sqrt((chosen.hr * (1 - chosen.hr)) / total))}: settings closer than that are a tie.`,
    '',
    '## Baselines on the same folds',
    '',
    mdTable(
      ['system', 'HR@10', 'nDCG@10', 'HR@10 per fold'],
      Object.entries(data.baselines).map(([name, t]) => [
        name,
        fmt4(mean(data, t).hr),
        fmt4(mean(data, t).ndcg),
        perFold(t),
      ]),
    ),
    '',
    `Best item-kNN history half-life: ${fmtHalfLife(knn.setting)} (the test table's recency-weighted item-kNN).`,
    '',
    '## Each setting varied alone, the others at the chosen values',
    '',
    slice(
      'history half-life',
      (s) => s.multiInterestWeight === c.multiInterestWeight && s.mmrLambda === c.mmrLambda,
    ),
    '',
    slice(
      'multi-interest weight',
      (s) => s.historyHalfLife === c.historyHalfLife && s.mmrLambda === c.mmrLambda,
    ),
    '',
    slice(
      'MMR lambda',
      (s) =>
        s.historyHalfLife === c.historyHalfLife && s.multiInterestWeight === c.multiInterestWeight,
    ),
    '',
    '## Best 10 of all settings',
    '',
    mdTable(['setting', 'HR@10', 'nDCG@10', ''], [...scored].sort(byScore).slice(0, 10).map(row)),
    '',
    `Engram HR@10 per fold, chosen setting: ${perFold(data.engram[settingKey(c)]!)}.`,
    '',
    data.environment,
    '',
  ].join('\n')
}

const fmtHalfLife = (h: number) => (h === Number.POSITIVE_INFINITY ? '∞' : String(h))
