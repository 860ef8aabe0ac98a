/**
 * The search request's channels for a config's `engine.channels`. Configs name dense retrieval over passages
 * `dense`; the engine has no channel of that name. Beside `passages` it is already there: the passages
 * channel returns a `bm25` and a `dense` list when the search has an embedder and the brain vectors, so
 * `[passages, dense]` is requested as `[passages]` (asking for the dense list a second time would count it
 * twice in fusion). Alone it is the dense-only plugin channel, `plugin:dense` (see `dense-channel.ts`).
 * Every other name is passed through as the engine takes it.
 */
export function requestChannels(channels: readonly string[]): string[] {
  const withPassages = channels.includes('passages')
  return channels.flatMap((c) => (c !== 'dense' ? [c] : withPassages ? [] : ['plugin:dense']))
}

/**
 * The request's fusion for a config's `engine.fusion`: its name; `null` is no fusion (`none`, one list
 * after the other); omitted is what a request that names none gets, the engine's default fusion.
 */
export function requestFusion(fusion: { readonly name: string } | null | undefined): {
  fusion?: string
} {
  return fusion === undefined ? {} : { fusion: fusion === null ? 'none' : fusion.name }
}

/**
 * The request's `expand` and `rerank` for a config's stages: `engine-default` sends neither, so the
 * engine's defaults apply (`expand` and `rerank` `auto`, what a request naming no options gets); else
 * each is `none` unless a stage names it.
 */
export function requestStages(stages: readonly string[]): {
  expand?: 'none' | 'neighbors'
  rerank?: string
} {
  if (stages.includes(ENGINE_DEFAULT)) return {}
  return {
    expand:
      stages.includes('neighbour-expansion') || stages.includes('neighbors') ? 'neighbors' : 'none',
    rerank: stages.find((s) => s.startsWith('rerank:'))?.slice('rerank:'.length) ?? 'none',
  }
}

/** The config stage that leaves `expand` and `rerank` to the engine's defaults. */
export const ENGINE_DEFAULT = 'engine-default'
