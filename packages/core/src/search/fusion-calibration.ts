import { NEUTRAL_FUSION } from '../builtins/fusions/convex-combination.js'
import type { Embedder } from '../contracts/embedder.js'
import type { FusionCalibration } from '../contracts/search-plugins.js'
import { FUSION_CALIBRATIONS } from './fusion-calibration-table.js'

/** A calibration with its provenance, as the calibration command records it. */
export interface FusionCalibrationRecord extends FusionCalibration {
  /** Training or development splits the weights were chosen on. */
  readonly tunedOn: readonly string[]
  /** Day of the calibration run (YYYY-MM-DD). */
  readonly date: string
}

/**
 * The `cc` weights for a brain (docs/search-fusion.md): chosen by the embedder the brain was built
 * with (`brainEmbedder`, its recorded name), not the process's, so a brain built with another model is
 * never weighted with this one's calibration. In order: the running embedder's own `fusion` when it is
 * the brain's; the engine's table (`fusion-calibration-table.ts`) by name; `NEUTRAL_FUSION`. A brain
 * without an embedder looks up `none` (lexical and graph lists only).
 */
export function fusionCalibrationFor(
  brainEmbedder: string | null,
  running: Pick<Embedder, 'name' | 'fusion'> | null,
  table: Readonly<Record<string, FusionCalibration>> = FUSION_CALIBRATIONS,
): FusionCalibration {
  const name = brainEmbedder ?? 'none'
  if (running !== null && running.name === name && running.fusion !== undefined)
    return running.fusion
  const entry = table[name]
  return entry === undefined
    ? NEUTRAL_FUSION
    : {
        normalization: entry.normalization,
        denseShare: entry.denseShare,
        graphWeight: entry.graphWeight,
      }
}
