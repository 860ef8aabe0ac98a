import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Engram } from '@engram/core'
import { brainIdQuery, csvList } from '../schemas/common.js'
import { changelogEventStream } from './changelog-event-stream.js'
import { createChangelogHub, type ChangelogHubOptions } from './changelog-stream-hub.js'
import { defineRoute } from './define-route.js'

/** Settings of `GET /retrieve/changelogs/stream` (`buildApp`'s `changelogStream`). */
export interface ChangelogStreamOptions extends ChangelogHubOptions {
  /** A `: ping` comment after this long without an event (default 15,000 ms): proxies keep the connection. */
  heartbeatMs?: number
  /** The `retry:` hint sent first: how long an EventSource waits before reconnecting (default 3,000 ms). */
  retryMs?: number
}

/** A changelog `seq`: digits, at most 15 of them (below 2^53, so exact as a JSON number). */
const SEQ = /^\d{1,15}$/
const seqMessage = 'must be the seq of a changelog entry: a non-negative integer'

const query = z.object({
  after: z
    .string()
    .regex(SEQ, seqMessage)
    .optional()
    .describe(
      'Send the entries after this seq (`0`: the whole changelog, then new ones). The `Last-Event-ID` header wins over it. Without either, only entries written from now on.',
    ),
  types: csvList.describe('Only entries of these types (comma-separated or repeated).'),
  ...brainIdQuery,
})

const headers = z.looseObject({
  'last-event-id': z
    .string()
    .regex(/^\d{0,15}$/, seqMessage)
    .optional()
    .describe(
      'The `id` of the last event received (an EventSource sends it when it reconnects): the stream resumes after it, with no gap and no repeat. Empty: as if absent.',
    ),
})

const eventStream = z
  .string()
  .describe(
    "Server-Sent Events. First `retry: <ms>` and `id: <seq>`, the position the stream starts after (no data, so no event: it only sets the client's last event ID); then one event per changelog entry, oldest first: `id: <seq>` (per brain, increasing), `event: <entry type>`, `data: <the entry as JSON, a Changelog>`; `: ping` comment lines while idle.",
  )

/**
 * `GET /retrieve/changelogs/stream`: the brain's changelog as Server-Sent Events (docs/change-stream.md),
 * resumable with `Last-Event-ID`. Authentication and brain selection are those of every `/retrieve/*`
 * route. A shutdown ends the open streams at once, so `app.close()` does not wait for their clients.
 */
export function changelogStreamRoutes(
  app: FastifyInstance,
  engram: Engram,
  options: ChangelogStreamOptions = {},
): void {
  const hub = createChangelogHub(engram, options)
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const retryMs = options.retryMs ?? 3_000
  app.addHook('preClose', async () => {
    await hub.close()
  })

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/changelogs/stream',
      operationId: 'retrieve_changelogs_stream',
      tag: 'retrieve',
      summary: 'Stream changelog entries (Server-Sent Events)',
      description:
        "The changelog as it grows, ingestions and deletions alike, as `text/event-stream`: each event has `id` = the entry's per-brain `seq`, `event` = its type and `data` = the entry as `GET /retrieve/changelogs` lists it. Resume with the `Last-Event-ID` header (or `after`). 503 past the open-stream limits (100 per brain, 1,000 per server process).",
      auth: 'brain',
      querystring: query,
      headers,
      success: {
        200: {
          description: 'The stream; it stays open until the client leaves or the server stops.',
          content: { 'text/event-stream': { schema: eventStream } },
        },
      },
    },
    async (request, reply) => {
      const lastEventId = (request.headers as { 'last-event-id'?: string })['last-event-id']
      const after = lastEventId ? lastEventId : request.query.after
      void reply
        .type('text/event-stream; charset=utf-8')
        .header('Cache-Control', 'no-cache, no-transform')
        // nginx would otherwise buffer the stream (its proxy_buffering).
        .header('X-Accel-Buffering', 'no')
      // HEAD: the headers only. Fastify drains a HEAD body, which an endless stream never ends.
      if (request.method === 'HEAD') return reply.send('')
      const stream = await changelogEventStream(hub, {
        brainId: request.brainId,
        afterSeq: after === undefined ? null : Number(after),
        types: request.query.types?.length ? new Set(request.query.types) : null,
        heartbeatMs,
        retryMs,
        abandon: () => {
          if (!reply.raw.writableFinished) reply.raw.destroy()
        },
      })
      return reply.send(stream)
    },
  )
}
