import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  BM25_VARIANTS,
  MAX_TTL_SECONDS,
  maskToken,
  type BrainSettings,
  type Engram,
} from '@engram/core'
import { knownTokensOf } from '../plugins/known-tokens.js'
import { defineRoute } from './define-route.js'

const brainWire = z.object({ id: z.string(), name_key: z.string(), pat: z.string() })
const brainParams = z.object({ brain_id: z.string().min(1).max(200) })

/** BM25 fields; ranges are checked by the engine (400 naming the field), shapes here (422). */
const bm25Fields = z
  .object({
    variant: z.enum(BM25_VARIANTS).describe('Scoring formula: lucene, atire, bm25l or bm25+.'),
    k1: z.number().describe('Term-frequency saturation, >= 0.'),
    b: z.number().describe('Length normalisation, 0 to 1.'),
    delta: z.number().describe('Lower bound of the tf part (bm25l, bm25+), >= 0.'),
  })
  .strict()
const settingsWire = z.object({
  brain_id: z.string(),
  bm25: bm25Fields.required().describe('The BM25 settings the brain scores with.'),
  overrides: z.object({
    bm25: bm25Fields
      .partial()
      .describe('The fields the brain sets; the rest are the server defaults.'),
  }),
  expiry: z
    .object({
      default_ttl: z
        .number()
        .int()
        .optional()
        .describe(
          'Seconds to the expiry of sources ingested without `expires_at` or `ttl`; left out when unset.',
        ),
    })
    .describe('Expiry of the brain’s sources (docs/time.md).'),
  temporal: z
    .object({
      single_valued_predicates: z
        .record(z.string(), z.array(z.string()))
        .describe(
          'The single-valued predicate table the brain runs with: slot -> predicates (base forms, UPPER_SNAKE). A newer fact of a slot with another object ends the older one (docs/time.md).',
        ),
      overrides: z
        .record(z.string(), z.array(z.string()))
        .describe('The slots the brain sets itself; the rest are the defaults.'),
    })
    .describe('Contradictions (docs/time.md).'),
})
const settingsBody = z
  .object({
    bm25: bm25Fields
      .partial()
      .nullable()
      .optional()
      .describe(
        "Replaces the brain's BM25 override; `{}` or null returns it to the server defaults. Left out: unchanged.",
      ),
    expiry: z
      .object({
        default_ttl: z
          .number()
          .int()
          .nullable()
          .optional()
          .describe(
            `Seconds (1 to ${MAX_TTL_SECONDS}) from an ingestion to the expiry of its source, for ingestions that send neither \`expires_at\` nor \`ttl\`; null clears it. Sources ingested before keep their expiry.`,
          ),
      })
      .strict()
      .optional()
      .describe('Expiry of the brain’s sources (docs/time.md). Left out: unchanged.'),
    temporal: z
      .object({
        single_valued_predicates: z
          .record(z.string().max(64), z.array(z.string().max(128)).max(200))
          .nullable()
          .optional()
          .describe(
            'Slots to replace in the single-valued predicate table (slot: lower_snake; predicates: base forms such as PLAY_FOR); an empty list switches a slot off; null or {} returns to the defaults. Applies to what is ingested afterwards.',
          ),
      })
      .strict()
      .optional()
      .describe('Contradictions (docs/time.md). Left out: unchanged.'),
  })
  .strict()
const settingsOut = (brainId: string, settings: BrainSettings) => ({
  brain_id: brainId,
  bm25: settings.bm25,
  overrides: settings.overrides,
  expiry: settings.expiry.defaultTtl === null ? {} : { default_ttl: settings.expiry.defaultTtl },
  temporal: {
    single_valued_predicates: settings.temporal.singleValuedPredicates,
    overrides: settings.temporal.override,
  },
})

/** `/system/*` (CONTRACT.md section 9): the system token only. */
export function systemRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/system/brains',
      operationId: 'system_create_brain',
      tag: 'system',
      summary: 'Create a brain',
      description:
        'Creates a brain and returns its token in `pat`. This is the only time the token is shown; only its hash is stored.',
      auth: 'system',
      body: z.object({ brain_id: z.string().min(1).max(200) }),
      success: { 201: brainWire },
      errors: [409],
    },
    async (request, reply) => {
      const { record, token } = await engram.brains.create(request.body.brain_id)
      return reply.status(201).send({ id: record.id, name_key: record.nameKey, pat: token })
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/system/brains-list',
      operationId: 'system_list_brains',
      tag: 'system',
      summary: 'List brains',
      description:
        'Every brain, oldest first. Tokens are masked as `spat_…` + their last four characters.',
      auth: 'system',
      success: { 200: z.array(brainWire) },
    },
    async () =>
      (await engram.brains.list()).map((b) => ({
        id: b.id,
        name_key: b.nameKey,
        pat: maskToken(b.tokenLast4),
      })),
  )

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/system/brains/:brain_id',
      operationId: 'system_delete_brain',
      tag: 'system',
      summary: 'Delete a brain',
      description:
        'Deletes every record, index and vector of the brain and returns what was removed. The default brain cannot be deleted.',
      auth: 'system',
      params: brainParams,
      success: {
        200: z.object({
          brain_id: z.string(),
          deleted: z.literal(true),
          removed: z.record(z.string(), z.number()),
        }),
      },
      errors: [400, 404],
    },
    async (request) => {
      const removed = await engram.brains.delete(request.params.brain_id)
      return { brain_id: request.params.brain_id, deleted: true as const, removed: { ...removed } }
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/system/brains/:brain_id/rotate-token',
      operationId: 'system_rotate_brain_token',
      tag: 'system',
      summary: 'Rotate a brain token',
      description:
        'Issues a new token for the brain (returned once); the previous token stops working at once in this process, and within a second in other processes sharing the database (each remembers a token that authenticated for one second).',
      auth: 'system',
      params: brainParams,
      success: { 200: brainWire },
      errors: [404],
    },
    async (request) => {
      // The old token stops working in this process at once (see known-tokens.ts).
      const { record, token } = await engram.brains
        .rotateToken(request.params.brain_id)
        .finally(() => knownTokensOf(engram).forgetAll())
      return { id: record.id, name_key: record.nameKey, pat: token }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/system/brains/:brain_id/settings',
      operationId: 'system_get_brain_settings',
      tag: 'system',
      summary: 'Get brain settings',
      description:
        'The BM25 settings the brain scores with (server defaults under its override), the fields it overrides, and its expiry default. Beyond the Engram contract.',
      auth: 'system',
      params: brainParams,
      success: { 200: settingsWire },
      errors: [404],
    },
    async (request) =>
      settingsOut(request.params.brain_id, await engram.brainSettings.get(request.params.brain_id)),
  )

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/system/brains/:brain_id/settings',
      operationId: 'system_put_brain_settings',
      tag: 'system',
      summary: 'Set brain settings',
      description:
        "Sets the brain's BM25 override (variant, k1, b, delta), applied to its lexical indexes at once without re-indexing (scores change, postings do not), its expiry default (`expiry.default_ttl`) and its single-valued predicates (`temporal.single_valued_predicates`; both docs/time.md). Fields left out are unchanged. Out-of-range values answer 400. Beyond the Engram contract.",
      auth: 'system',
      params: brainParams,
      body: settingsBody,
      success: { 200: settingsWire },
      errors: [400, 404],
    },
    async (request) =>
      settingsOut(
        request.params.brain_id,
        await engram.brainSettings.update(request.params.brain_id, {
          ...(request.body.bm25 === undefined ? {} : { bm25: request.body.bm25 }),
          ...(request.body.expiry?.default_ttl === undefined
            ? {}
            : { expiry: { defaultTtl: request.body.expiry.default_ttl } }),
          ...(request.body.temporal?.single_valued_predicates === undefined
            ? {}
            : {
                temporal: {
                  singleValuedPredicates: request.body.temporal.single_valued_predicates,
                },
              }),
        }),
      ),
  )
}
