import type { SearchContext, StagePlugin } from '../../contracts/search-plugins.js'
import { EngramError } from '../../errors.js'
import type { PluginRegistry } from '../../registry/plugin-registry.js'
import { isComposedQuestion, type NameSpread } from '../query-shape.js'
import type { SearchRequest } from '../search-request.js'
import type { PlannedStage } from './stages-step.js'

/** The built-in stages the pipeline places around a request's rerank. */
export interface BuiltinStages {
  /** `expand=neighbors`. */
  expansion: StagePlugin
  /** `target`. */
  personalization: StagePlugin
}

/** The rerank `rerank=auto` runs for a composed question (`defaultPipeline`). */
export const AUTO_RERANK = 'plugin:hops'

/**
 * What `expand=auto` and `rerank=auto` (the defaults) mean for a request: over passage channels only
 * (`passages` and plugin channels; the default search), the graph stage, then `plugin:hops` when the
 * query is a composed question (`isComposedQuestion`). A search of entities, events or communities
 * keeps its lists as they are. Chosen on MuSiQue-100 and LoCoMo dev (benchmarks/LOG.md, issue 27): the
 * graph stage lifts both; the hop lifts multi-hop questions and costs single-turn memory questions,
 * which the question's shape tells apart. `spread` (the brain's passage index) lets a possessive of a
 * name few passages hold mark a composed question too.
 */
export function defaultPipeline(
  request: Pick<SearchRequest, 'query' | 'channels' | 'expand' | 'rerank'>,
  spread?: NameSpread,
): { expand: 'none' | 'neighbors'; rerank: string } {
  const passagesOnly = request.channels.every((c) => c === 'passages' || c.startsWith('plugin:'))
  return {
    expand: request.expand === 'auto' ? (passagesOnly ? 'neighbors' : 'none') : request.expand,
    rerank:
      request.rerank === 'auto'
        ? passagesOnly && isComposedQuestion(request.query, spread)
          ? AUTO_RERANK
          : 'none'
        : request.rerank,
  }
}

/**
 * The stages of a request, in the one order they run (DESIGN.md section 3): neighbour expansion
 * (`expand=neighbors`), then the rerank (`rerank=plugin:<name>`, built-in `plugin:dense` or a
 * registered third-party stage), then personalization (`target`); `auto` as `defaultPipeline` says.
 */
export function planStages(
  request: SearchRequest,
  registry: PluginRegistry,
  builtins: BuiltinStages,
  ctx: Pick<SearchContext, 'embed' | 'vectors' | 'text'>,
): PlannedStage[] {
  const stages: PlannedStage[] = []
  const { expand, rerank: rerankName } = defaultPipeline(request, (name) =>
    ctx.text.spread('passages', name),
  )
  if (expand === 'neighbors')
    stages.push({ plugin: builtins.expansion, timing: 'search.expand', scoreKey: null })
  if (rerankName !== 'none') {
    const rerank = resolveRerank(registry, rerankName)
    checkRequirements(rerank, rerankName, ctx)
    stages.push({ plugin: rerank, timing: 'search.rerank', scoreKey: 'rerank', skipEmpty: true })
  }
  if (request.target !== undefined)
    stages.push({
      plugin: builtins.personalization,
      timing: 'search.personalize',
      scoreKey: 'personalize',
    })
  return stages
}

function resolveRerank(registry: PluginRegistry, raw: string): StagePlugin {
  if (!raw.startsWith('plugin:')) {
    throw new EngramError(
      'VALIDATION_ERROR',
      `rerank must be 'auto', 'none' or 'plugin:<name>' (got '${raw}').`,
      {
        status: 400,
        resolution: `Use one of: auto, none, ${registry
          .names('stage')
          .map((n) => `plugin:${n}`)
          .join(', ')}.`,
      },
    )
  }
  return registry.resolveRequest('stage', raw)
}

/**
 * A stage that needs embeddings (e.g. `plugin:dense`) is refused up front with a 400 when the search
 * has none (no embedder configured, a lexical-only search, or a brain without vectors), instead of
 * silently changing nothing.
 */
function checkRequirements(
  stage: StagePlugin,
  raw: string,
  ctx: Pick<SearchContext, 'embed' | 'vectors'>,
): void {
  const missing = (stage.requires ?? []).filter((reader) => ctx[reader] === null)
  if (missing.length === 0) return
  throw new EngramError(
    'VALIDATION_ERROR',
    `rerank '${raw}' needs an embedder (query embeddings and stored vectors), and this search has none: the server runs without an embedder, the search is lexical-only, or the brain has no vectors.`,
    {
      status: 400,
      resolution: `Configure an embedder for the server (use-lite, openai or transformers), or use rerank=none.`,
    },
  )
}
