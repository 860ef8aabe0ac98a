import { z } from 'zod'
import { parseInput } from '../invalid-input.js'
import type { SearchResponse } from '../model/search.js'
import type { LibraryContext } from './library-context.js'
import { flatMap, instant, list, options } from './library-schemas.js'

/**
 * `search` options: every option of `POST /retrieve/search` in camelCase, with its bounds. Defaults
 * (k 10, channels `['passages']`, the engine's fusion, expand and rerank `auto`) are the engine's own
 * (`resolveSearchRequest`), the ones REST applies.
 */
const searchOptions = options({
  /** Hits returned, 1..200 (default 10). */
  k: z.number().int().min(1).max(200).optional(),
  /** `passages`, `entities`, `events`, `communities`, `plugin:<name>` (default `['passages']`). */
  channels: list(20, 200).optional(),
  /** Entity hits: only these labels (any-match). */
  nodeLabels: list(50, 128).optional(),
  /** Community hits: only these labels. */
  communityLabels: list(50, 128).optional(),
  /**
   * `neighbors`: graph expansion of the fused list; `auto` (default): `neighbors` when every channel is
   * a passage channel, else `none`.
   */
  expand: z.enum(['auto', 'none', 'neighbors']).optional(),
  /** `cc`, `rrf`, `none` or `plugin:<name>` (default the engine's, `cc`). */
  fusion: z.string().max(200).optional(),
  /** Dense share of `cc`, 0..1 (default the brain's calibration). */
  fusionAlpha: z.number().min(0).max(1).optional(),
  /**
   * `auto` (default: `plugin:hops` for a composed question over passage channels, else none), `none` or
   * `plugin:<name>`: `plugin:dense`, `plugin:coverage`, `plugin:hops`.
   */
  rerank: z.string().max(200).optional(),
  /** Personalise for this user (uuid or name). */
  target: z.string().max(512).optional(),
  /** Fill `stageTimings` (default false). */
  profileStages: z.boolean().optional(),
  /** Metadata equality filters (case-insensitive), applied before the cut to k. */
  extras: flatMap(z.union([z.string().max(2000), z.number(), z.boolean(), z.null()])).optional(),
  /** The brain as it was then (event time; docs/time.md): an ISO string or a Date. */
  asOf: instant().optional(),
  /** What the brain had learned by then (system time; docs/time.md): an ISO string or a Date. */
  knownAt: instant().optional(),
  /** Cancels the search (default: a 30 s deadline). */
  signal: z.instanceof(AbortSignal).optional(),
})
export type SearchOptions = z.input<typeof searchOptions>

const query = z.string().min(1).max(2000)

/** Multi-channel search of one brain (`/retrieve/search`). */
export function librarySearch(ctx: LibraryContext, brain: string) {
  return (text: string, raw?: SearchOptions): Promise<SearchResponse> =>
    ctx.run(
      'search',
      async () => {
        const q = parseInput('search', query, text, ['query'])
        const { signal, ...o } = parseInput('search', searchOptions, raw, ['options'])
        return ctx.engine.search.search(brain, { ...o, query: q }, signal)
      },
      raw?.signal,
    )
}
