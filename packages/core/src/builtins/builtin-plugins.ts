import type { SearchPlugin } from '../contracts/search-plugins.js'
import { communitiesChannel } from './channels/communities-channel.js'
import { entitiesChannel } from './channels/entities-channel.js'
import { eventsChannel } from './channels/events-channel.js'
import { passagesChannel } from './channels/passages-channel.js'
import { convexCombination } from './fusions/convex-combination.js'
import { noFusion } from './fusions/no-fusion.js'
import { rrf } from './fusions/reciprocal-rank.js'
import { denseRerank } from './stages/dense-rerank.js'
import { hopCoverage, queryCoverage } from './stages/query-coverage.js'

/**
 * The built-in plugins every registry starts with: the channels and fusions a request names without
 * `plugin:` (`BUILTIN_NAMES`) and the `plugin:dense`, `plugin:coverage` and `plugin:hops` reranks. Expansion and personalization are
 * stages too, but the pipeline places them itself (`expand`, `target`), so they are not registered.
 */
export function builtinPlugins(): SearchPlugin[] {
  return [
    passagesChannel(),
    entitiesChannel(),
    eventsChannel(),
    communitiesChannel(),
    denseRerank(),
    queryCoverage(),
    hopCoverage(),
    rrf(),
    convexCombination(),
    noFusion(),
  ]
}
