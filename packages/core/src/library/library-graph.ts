import { z } from 'zod'
import { EngramError } from '../errors.js'
import { parseInput } from '../invalid-input.js'
import { contextPack, type ContextPack } from '../retrieve/context-pack.js'
import { entityContext, type EntityContext } from '../retrieve/entity-context.js'
import { entityInfo, type EntityInfo } from '../retrieve/entity-info.js'
import { entityStatus, type EntityStatus } from '../retrieve/entity-status.js'
import { hops, type HopTree } from '../retrieve/hops.js'
import { neighborsAiMode } from '../retrieve/neighbors-ai-mode.js'
import { neighborsByIdentification } from '../retrieve/neighbors-identify.js'
import { neighborsByUuid, type NeighborsResult } from '../retrieve/neighbors.js'
import { recommend, type RecommendResult } from '../retrieve/recommend/recommend.js'
import { createRetrieveDeps, type RetrieveDeps } from '../retrieve/retrieve-deps.js'
import { retrieveRoot, type RetrieveRootResult } from '../retrieve/retrieve-root.js'
import { synergies, type SynergiesResult } from '../retrieve/synergies.js'
import type { LibraryContext } from './library-context.js'
import { timeFilter } from '../time/validity.js'
import { flatMap, instant, jsonMap, list, options, target } from './library-schemas.js'

// Every option and bound is the REST operation's (packages/server/src/routes/retrieve-*-routes.ts),
// camelCased; each operation calls the core function its route calls.

const text = z.string().min(1).max(2000)

/** `asOf` / `knownAt` (docs/time.md): the operation sees the brain as it was, as then known. */
const timeOptions = { asOf: instant().optional(), knownAt: instant().optional() }

/** The time filter of parsed options (absent fields: now). */
const timeOf = (o: { asOf?: string | undefined; knownAt?: string | undefined }) =>
  timeFilter(o.asOf, o.knownAt)
const polarity = z.enum(['same', 'opposite'])

const retrieveOptions = options({
  ...timeOptions,
  /** Entity labels whose relationships rank first (REST `preferred_entities`). */
  preferredEntities: list(200, 128).optional(),
  /** Passages returned, 1..100 (default 10). */
  limit: z.number().int().min(1).max(100).default(10),
})

/** An entity to find: its uuid, or identification as REST's `identification_params`. */
const entityRef = z.union(
  [
    z.string().min(1).max(200),
    z.strictObject({
      name: z.string().max(2000).optional(),
      uuid: z.string().max(200).optional(),
      /** Labels the entity must all carry (case-insensitive). */
      entityTypes: list(50, 128).optional(),
      /** Properties the entity must have, equal. */
      properties: jsonMap().optional(),
    }),
  ],
  { error: 'must be an entity uuid, or { name, uuid, entityTypes, properties }' },
)
export type EntityRef = z.input<typeof entityRef>

const neighborsOptions = options({
  ...timeOptions,
  /** Neighbours returned, 1..100 (default 10). */
  limit: z.number().int().min(1).max(100).default(10),
  /** A phrase the neighbours must match; it re-ranks them too. */
  lookFor: z.string().max(2000).optional(),
  /** Phrases ranking the neighbours without an LLM (REST's ai-mode); one must match. */
  lookingFor: z.array(z.string().max(500)).min(1).max(20).optional(),
})

const contextOptions = options({
  ...timeOptions,
  /** Depth of the neighbourhood, 1..5 (default 3). */
  contextDepth: z.number().int().min(1).max(5).default(3),
})
const infoOptions = options({
  ...timeOptions,
  /** Longest path, 1..5 (default 3). */
  maxDepth: z.number().int().min(1).max(5).default(3),
})
const statusOptions = options({
  ...timeOptions,
  /** Only an entity carrying one of these labels counts. */
  types: list(200, 128).optional(),
})
const hopsOptions = options({
  ...timeOptions,
  /** Degrees of neighbours from each seed, 1..3 (default 2). */
  degrees: z.number().int().min(1).max(3).default(2),
})
const packOptions = options({
  ...timeOptions,
  /** Facts returned, 0..500 (default 40). */
  maxFacts: z.number().int().min(0).max(500).default(40),
  /** Source passages, 0..100 (default 8). */
  maxPassages: z.number().int().min(0).max(100).default(8),
  /** Passages of `historicalContext`, 0..100 (default 10). */
  historicalLimit: z.number().int().min(0).max(100).default(10),
  /** Rank facts with personalised PageRank (default true). */
  usePpr: z.boolean().default(true),
  /** Fill `stageTimings` (default false). */
  profileStages: z.boolean().default(false),
})
const synergiesOptions = options({
  polarity: polarity.default('same'),
  /** Direct seeds only (REST `do`). */
  directOnly: z.boolean().default(false),
  /** Return the remote seeds as `potentialAnchors` (REST `pa`). */
  potentialAnchors: z.boolean().default(false),
  /** Return the direct seeds as `anchors` (REST `ppa`). */
  anchors: z.boolean().default(false),
  /** Synergies returned, 1..500 (default 50). */
  topK: z.number().int().min(1).max(500).default(50),
  /** Candidate labels (any-match); default the target's own. */
  labels: list(50, 128).optional(),
})
const recommendOptions = options({
  polarity: polarity.default('same'),
  /** Recommendations returned, 1..200 (default 20). */
  topK: z.number().int().min(1).max(200).default(20),
  includeAsymmetric: z.boolean().default(true),
  includeMultiInterest: z.boolean().default(true),
  includeAttributePref: z.boolean().default(false),
  diversify: z.boolean().default(true),
  asymmetricDirection: z.enum(['outbound', 'inbound', 'both']).default('outbound'),
  excludeSeen: z.boolean().default(false),
  dampenDegree: z.boolean().default(false),
  /** Half-life of interactions in days, 0..36,500; absent or 0: no decay. */
  recencyHalfLifeDays: z.number().min(0).max(36_500).optional(),
  labels: list(50, 128).optional(),
  /** Behaviour name -> weight over the defaults (docs/recommend.md). */
  behaviorWeights: flatMap(z.number().finite()).optional(),
})

export type RetrieveOptions = z.input<typeof retrieveOptions>
export type NeighborsOptions = z.input<typeof neighborsOptions>
export type EntityContextOptions = z.input<typeof contextOptions>
export type EntityInfoOptions = z.input<typeof infoOptions>
export type EntityStatusOptions = z.input<typeof statusOptions>
export type HopsOptions = z.input<typeof hopsOptions>
export type ContextOptions = z.input<typeof packOptions>
export type SynergiesLibraryOptions = z.input<typeof synergiesOptions>
export type RecommendLibraryOptions = z.input<typeof recommendOptions>

/** The graph operations of `/retrieve/*` on one brain. Unknown targets: RESOURCE_NOT_FOUND. */
export interface EngramGraph {
  /** Passages for a text, their observations, and relationships around their entities. */
  retrieve(text: string, options?: RetrieveOptions): Promise<RetrieveRootResult>
  /**
   * Neighbours of an entity with a similarity in [0, 1]. With `lookingFor`, ranked by those phrases
   * (REST's ai-mode).
   */
  neighbors(entity: EntityRef, options?: NeighborsOptions): Promise<NeighborsResult>
  /** The neighbourhood tree of an entity (uuid or name). */
  entityContext(target: string, options?: EntityContextOptions): Promise<EntityContext>
  /** The path from an entity whose relationships best answer `query`. */
  entityInfo(target: string, query: string, options?: EntityInfoOptions): Promise<EntityInfo>
  /** Whether an entity exists, with its relationships and observations (never throws for a miss). */
  entityStatus(target: string, options?: EntityStatusOptions): Promise<EntityStatus>
  /** Seeds found by `query`, then 1..3 degrees of neighbours. */
  hops(query: string, options?: HopsOptions): Promise<HopTree[]>
  /** An evidence pack for an LLM: ranked facts, passages, conflicts, topics (`text` up to 10,000). */
  context(text: string, options?: ContextOptions): Promise<ContextPack>
  /** Nodes sharing events or neighbours with an entity, by association score. */
  synergies(target: string, options?: SynergiesLibraryOptions): Promise<SynergiesResult>
  /** Recommendations from the event graph, computed at query time. */
  recommend(target: string, options?: RecommendLibraryOptions): Promise<RecommendResult>
}

/** `identification_params` from a library entity reference. */
function identification(ref: Exclude<z.output<typeof entityRef>, string>): Record<string, unknown> {
  if ((ref.name ?? '').trim() === '' && (ref.uuid ?? '').trim() === '')
    throw new EngramError('VALIDATION_ERROR', 'neighbors: the entity needs a `name` or a `uuid`.', {
      status: 422,
      detail: [{ loc: ['entity'], msg: 'needs a name or a uuid', type: 'value_error' }],
    })
  return {
    ...ref.properties,
    ...(ref.name !== undefined ? { name: ref.name } : {}),
    ...(ref.uuid !== undefined ? { uuid: ref.uuid } : {}),
    ...(ref.entityTypes !== undefined ? { entity_types: ref.entityTypes } : {}),
  }
}

export function libraryGraph(ctx: LibraryContext, brain: string): EngramGraph {
  /** One operation: its arguments parsed, then the core function on the brain's dependencies. */
  const op = <T>(
    what: string,
    call: (deps: (time?: Parameters<typeof timeOf>[0]) => Promise<RetrieveDeps>) => Promise<T>,
  ) =>
    ctx.run(what, () =>
      call((time) =>
        createRetrieveDeps(ctx.engine, brain, time === undefined ? {} : { time: timeOf(time) }),
      ),
    )
  const arg = <S extends z.ZodType>(what: string, schema: S, value: unknown, loc: string) =>
    parseInput(what, schema, value, [loc])

  return {
    retrieve: (value, raw) =>
      op('retrieve', async (deps) => {
        const t = arg('retrieve', text, value, 'text')
        const o = arg('retrieve', retrieveOptions, raw, 'options')
        return retrieveRoot(await deps(o), t, o.preferredEntities ?? [], o.limit)
      }),

    neighbors: (entity, raw) =>
      op('neighbors', async (deps) => {
        const ref = arg('neighbors', entityRef, entity, 'entity')
        const o = arg('neighbors', neighborsOptions, raw, 'options')
        if (o.lookFor !== undefined && o.lookingFor !== undefined)
          throw new EngramError('VALIDATION_ERROR', 'neighbors: give `lookFor` or `lookingFor`.', {
            status: 400,
            detail: [
              { loc: ['options'], msg: 'lookFor and lookingFor together', type: 'value_error' },
            ],
          })
        const params = typeof ref === 'string' ? { uuid: ref } : identification(ref)
        if (o.lookingFor !== undefined)
          return neighborsAiMode(await deps(o), params, {
            lookingFor: o.lookingFor,
            limit: o.limit,
          })
        if (typeof ref === 'string')
          return neighborsByUuid(await deps(o), ref, { limit: o.limit, lookFor: o.lookFor })
        return neighborsByIdentification(await deps(o), params, {
          limit: o.limit,
          lookFor: o.lookFor,
        })
      }),

    entityContext: (value, raw) =>
      op('entityContext', async (deps) => {
        const t = arg('entityContext', target, value, 'target')
        const o = arg('entityContext', contextOptions, raw, 'options')
        return entityContext(await deps(o), t, o.contextDepth)
      }),

    entityInfo: (value, question, raw) =>
      op('entityInfo', async (deps) => {
        const t = arg('entityInfo', target, value, 'target')
        const q = arg('entityInfo', text, question, 'query')
        const o = arg('entityInfo', infoOptions, raw, 'options')
        return entityInfo(await deps(o), t, q, o.maxDepth)
      }),

    entityStatus: (value, raw) =>
      op('entityStatus', async (deps) => {
        const t = arg('entityStatus', target, value, 'target')
        const o = arg('entityStatus', statusOptions, raw, 'options')
        return entityStatus(await deps(o), t, o.types ?? [])
      }),

    hops: (value, raw) =>
      op('hops', async (deps) => {
        const q = arg('hops', text, value, 'query')
        const o = arg('hops', hopsOptions, raw, 'options')
        return hops(await deps(o), q, o.degrees)
      }),

    context: (value, raw) =>
      op('context', async (deps) => {
        const t = arg('context', z.string().min(1).max(10_000), value, 'text')
        const o = arg('context', packOptions, raw, 'options')
        return contextPack(await deps(o), t, o)
      }),

    synergies: (value, raw) =>
      op('synergies', async (deps) => {
        const t = arg('synergies', target, value, 'target')
        const { labels, ...o } = arg('synergies', synergiesOptions, raw, 'options')
        return synergies(await deps(), t, {
          ...o,
          ...(labels !== undefined && labels.length > 0 ? { labels } : {}),
        })
      }),

    recommend: (value, raw) =>
      op('recommend', async (deps) => {
        const t = arg('recommend', target, value, 'target')
        const { labels, recencyHalfLifeDays, behaviorWeights, ...o } = arg(
          'recommend',
          recommendOptions,
          raw,
          'options',
        )
        return recommend(await deps(), t, {
          ...o,
          ...(recencyHalfLifeDays !== undefined ? { recencyHalfLifeDays } : {}),
          ...(labels !== undefined && labels.length > 0 ? { labels } : {}),
          ...(behaviorWeights !== undefined ? { behaviorWeights } : {}),
        })
      }),
  }
}
