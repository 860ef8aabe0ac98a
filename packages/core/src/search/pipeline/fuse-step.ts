import type { Candidate, ChannelList, FusionPlugin } from '../../contracts/search-plugins.js'
import type { StageTimer } from '../stage-timer.js'

/** Fuse: merges every list into one ranking, timed as `search.fusion`. */
export function fuse(
  fusion: FusionPlugin,
  lists: ChannelList[],
  alpha: number | undefined,
  timer: Pick<StageTimer, 'timeSync'>,
): Candidate[] {
  return timer.timeSync('search.fusion', () =>
    fusion.fuse(lists, alpha === undefined ? {} : { alpha }),
  )
}
