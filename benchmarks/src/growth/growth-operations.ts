import type { FastifyInstance } from 'fastify'
import type { Engram } from '@engram/core'
import type { Grower } from './grow-brain.js'

/** What an operation needs: the app to inject into, the engine (to wait for tasks) and the grown brain. */
export interface OpContext {
  readonly app: FastifyInstance
  readonly engram: Engram
  readonly brainId: string
  readonly headers: Record<string, string>
  readonly grower: Grower
  /** Record totals at this size (from each list's `limit=1` page), for skips deep in the lists. */
  /** Response bytes of the requests sent, summed (the timing loop reads and resets it). */
  readonly meter: { bytes: number }
  readonly totals: Readonly<
    Record<'entities' | 'relationships' | 'observations' | 'changelogs', number>
  >
}

/** One operation of the REST contract, sent through `app.inject` (the route's own handler, no socket). */
export interface GrowthOp {
  readonly name: string
  /** The request's shape, for the table. */
  readonly shape: string
  /** Untimed set-up of request `n` (e.g. a uuid look-up); its result is `run`'s third argument. */
  prepare?(ctx: OpContext, n: number): Promise<string>
  /** Sends request number `n` (targets rotate with n) and throws unless it answered 2xx. */
  run(ctx: OpContext, n: number, prepared?: string): Promise<void>
}

/** Knuth's multiplicative hash: spreads rep numbers over the grown units (deterministic targets). */
const spread = (n: number, size: number) => ((n * 2654435761) >>> 0) % Math.max(1, size)
const unitAt = (ctx: OpContext, n: number) => ctx.grower.unit(spread(n, ctx.grower.state.units))
const q = encodeURIComponent
/** 90% of the way into a list: the deep-skip case of issue 29. */
const deep = (total: number) => Math.floor(total * 0.9)

export async function send(
  ctx: OpContext,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
): Promise<unknown> {
  const r = await ctx.app.inject({
    method,
    url,
    headers: ctx.headers,
    ...(payload !== undefined ? { payload } : {}),
  })
  if (r.statusCode >= 300) throw new Error(`${method} ${url} answered ${r.statusCode}: ${r.body}`)
  ctx.meter.bytes += r.rawPayload.length
  return r.json() as unknown
}

const get = (
  name: string,
  shape: string,
  url: (ctx: OpContext, n: number) => string,
): GrowthOp => ({
  name,
  shape,
  run: async (ctx, n) => void (await send(ctx, 'GET', url(ctx, n))),
})

/** The operations of issue 29 item 4, each as the REST route serves it. */
export const GROWTH_OPS: readonly GrowthOp[] = [
  get('search (default)', 'GET /retrieve/search?query=<person + place>&k=10', (c, n) => {
    const u = unitAt(c, n)
    return `/retrieve/search?query=${q(`${u.person} ${u.place}`)}&k=10`
  }),
  get('search entities', 'GET /retrieve/search?channels=entities', (c, n) => {
    return `/retrieve/search?query=${q(unitAt(c, n).person)}&k=10&channels=entities`
  }),
  get('search events', 'GET /retrieve/search?channels=events', (c, n) => {
    return `/retrieve/search?query=${q(unitAt(c, n).event)}&k=10&channels=events`
  }),
  get('retrieve root', 'GET /retrieve/?text=&preferred_entities=Person', (c, n) => {
    const u = unitAt(c, n)
    return `/retrieve/?text=${q(`${u.person} ${u.event}`)}&preferred_entities=Person&limit=10`
  }),
  {
    name: 'neighbours GET',
    shape: 'GET /retrieve/entities/neighbors?uuid=<person>',
    // The uuid is looked up untimed (through entity status) so the timed request is the neighbours one.
    prepare: async (ctx, n) =>
      (
        (await send(ctx, 'GET', `/retrieve/entity/status?target=${q(unitAt(ctx, n).person)}`)) as {
          node: { uuid: string }
        }
      ).node.uuid,
    run: async (ctx, _n, uuid) =>
      void (await send(ctx, 'GET', `/retrieve/entities/neighbors?uuid=${uuid}&limit=10`)),
  },
  {
    name: 'neighbours POST',
    shape: 'POST /retrieve/entities/neighbors {identification_params: {name}}',
    run: async (ctx, n) =>
      void (await send(ctx, 'POST', '/retrieve/entities/neighbors', {
        identification_params: { name: unitAt(ctx, n).person },
        limit: 10,
      })),
  },
  get('entity context', 'GET /retrieve/entity/context?target=<person>', (c, n) => {
    return `/retrieve/entity/context?target=${q(unitAt(c, n).person)}`
  }),
  get('entity info', 'GET /retrieve/entity/info?target=<person>&query=<place>', (c, n) => {
    const u = unitAt(c, n)
    return `/retrieve/entity/info?target=${q(u.person)}&query=${q(u.place)}`
  }),
  get('entity status', 'GET /retrieve/entity/status?target=<person>', (c, n) => {
    return `/retrieve/entity/status?target=${q(unitAt(c, n).person)}`
  }),
  get('hops', 'GET /retrieve/hops?query=<person>&degrees=2', (c, n) => {
    return `/retrieve/hops?query=${q(unitAt(c, n).person)}&degrees=2`
  }),
  {
    name: 'context pack',
    shape: 'POST /retrieve/context {text: <person + event>}',
    run: async (ctx, n) => {
      const u = unitAt(ctx, n)
      await send(ctx, 'POST', '/retrieve/context', {
        text: `What did ${u.person} do at ${u.place}?`,
      })
    },
  },
  get('synergies', 'GET /retrieve/entity/synergies?target=<person>', (c, n) => {
    return `/retrieve/entity/synergies?target=${q(unitAt(c, n).person)}`
  }),
  get('recommend', 'GET /retrieve/recommend?target=<person>', (c, n) => {
    return `/retrieve/recommend?target=${q(unitAt(c, n).person)}`
  }),
  get('entities list, first page', 'GET /retrieve/entities?limit=20', () => {
    return '/retrieve/entities?limit=20'
  }),
  get('entities list, deep', 'GET /retrieve/entities?limit=20&skip=<90% of total>', (c) => {
    return `/retrieve/entities?limit=20&skip=${deep(c.totals.entities)}`
  }),
  get('relationships list, deep', 'GET /retrieve/relationships?limit=20&skip=<90%>', (c) => {
    return `/retrieve/relationships?limit=20&skip=${deep(c.totals.relationships)}`
  }),
  get('observations list, deep', 'GET /retrieve/observations?limit=20&skip=<90%>', (c) => {
    return `/retrieve/observations?limit=20&skip=${deep(c.totals.observations)}`
  }),
  get('changelogs list, deep', 'GET /retrieve/changelogs?limit=20&skip=<90%>', (c) => {
    return `/retrieve/changelogs?limit=20&skip=${deep(c.totals.changelogs)}`
  }),
  get('sources list', 'GET /sources?limit=20', () => '/sources?limit=20'),
  {
    name: 'model: create entity',
    shape: 'POST /model/entity {name, labels}',
    run: async (ctx, n) =>
      void (await send(ctx, 'POST', '/model/entity', {
        name: `Probe ${ctx.grower.state.entities}-${n}`,
        labels: ['Probe'],
        properties: { n },
      })),
  },
  {
    name: 'model: update relationship',
    shape: 'PUT /model/relationship {uuid, new_properties}',
    run: async (ctx, n) => {
      const uuids = ctx.grower.state.relationshipUuids
      await send(ctx, 'PUT', '/model/relationship', {
        uuid: uuids[spread(n, uuids.length)]!,
        new_properties: { checked: n },
      })
    },
  },
  {
    name: 'ingest text, end to end',
    shape: 'POST /ingest/ {text} then the task completed',
    async run(ctx, n) {
      const u = unitAt(ctx, n)
      const accepted = (await send(ctx, 'POST', '/ingest/', {
        text: `${u.person} called ${u.place} about the ${u.event.toLowerCase()} on Friday (probe ${n}).`,
      })) as { task_id: string }
      await ctx.engram.tasks.idle()
      const task = await ctx.engram.tasks.get(ctx.brainId, accepted.task_id)
      if (task?.status !== 'completed') throw new Error(`ingest task ended ${task?.status}`)
    },
  },
]
