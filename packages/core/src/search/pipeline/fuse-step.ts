import type {
  Candidate,
  ChannelList,
  FusionCalibration,
  FusionOptions,
  FusionPlugin,
} from '../../contracts/search-plugins.js'
import type { StageTimer } from '../stage-timer.js'

/**
 * Fuse: merges every list into one ranking, timed as `search.fusion`. `calibration` is the brain's
 * (by its embedder, see `fusionCalibrationFor`); `alpha` the request's `fusion_alpha`.
 */
export function fuse(
  fusion: FusionPlugin,
  lists: ChannelList[],
  alpha: number | undefined,
  timer: Pick<StageTimer, 'timeSync'>,
  calibration?: FusionCalibration,
): Candidate[] {
  const options: FusionOptions = {
    ...(alpha === undefined ? {} : { alpha }),
    ...(calibration === undefined ? {} : { calibration }),
  }
  return timer.timeSync('search.fusion', () => fusion.fuse(lists, options))
}
