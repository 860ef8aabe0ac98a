import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { builtinPlugins, requestName, type Engram, type Records } from '@engram/core'
import { brainIdQuery } from '../schemas/common.js'
import { searchPluginsWire } from '../schemas/search-plugins-wire.js'
import { defineRoute } from './define-route.js'

/** `/meta/*` (CONTRACT.md section 5; `/meta/search-plugins` in docs/writing-a-plugin.md). */
export function metaRoutes(app: FastifyInstance, engram: Engram) {
  const records = engram.records
  const searchPlugins = listSearchPlugins(engram)
  const list = (
    url: string,
    operationId: string,
    description: string,
    read: (records: Records, brainId: string) => Promise<string[]>,
  ) =>
    defineRoute(
      app,
      {
        method: 'GET',
        url,
        operationId,
        tag: 'meta',
        summary: description,
        description: `${description}, sorted. The brain is \`default\` when none is selected.`,
        auth: 'brain',
        querystring: z.object(brainIdQuery),
        success: { 200: z.array(z.string()) },
      },
      async (request) => read(records, request.brainId),
    )

  list(
    '/meta/entity-labels',
    'meta_entity_labels',
    'Distinct node labels of the brain',
    (r, brainId) => r.entityLabels(brainId),
  )
  list(
    '/meta/entity-properties',
    'meta_entity_properties',
    'Distinct property keys used by entities',
    (r, brainId) => r.entityPropertyKeys(brainId),
  )
  list(
    '/meta/relationships-properties',
    'meta_relationships_properties',
    'Distinct relationship type names',
    (r, brainId) => r.relationshipNames(brainId),
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/meta/login-info',
      operationId: 'meta_login_info',
      tag: 'meta',
      summary: 'Scope of the caller’s token',
      description:
        'Tells whether the token is the system token (reported with brain `default`) or scoped to one brain. Takes no brain selection.',
      auth: 'login',
      success: { 200: z.object({ brain_id: z.string(), is_system_pat: z.boolean() }) },
    },
    async (request) =>
      request.principal?.kind === 'brain'
        ? { brain_id: request.principal.brainId, is_system_pat: false }
        : { brain_id: engram.defaultBrain ?? 'default', is_system_pat: true },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/meta/search-plugins',
      operationId: 'meta_search_plugins',
      tag: 'meta',
      summary: 'Channels, fusions and rerank stages a search may name',
      description:
        'The search plugins this server registered, built-in and loaded from configuration (`ENGRAM_PLUGINS`), each as a request names it, in registration order (built-ins first). The same for every brain, so it takes no brain selection; any valid token.',
      auth: 'login',
      success: { 200: searchPluginsWire },
    },
    async () => searchPlugins,
  )
}

/**
 * The registry as `GET /meta/search-plugins` shows it, computed once: it is frozen before the server
 * starts. A plugin is built-in when it is one of `builtinPlugins()`: the engine registers those first,
 * so a configured plugin of the same kind and name is refused at start.
 */
function listSearchPlugins(engram: Engram): z.output<typeof searchPluginsWire> {
  const registry = engram.search.registry
  const shipped = new Set(builtinPlugins().map((p) => `${p.kind}:${p.name}`))
  const builtin = (kind: string, name: string) => shipped.has(`${kind}:${name}`)
  return {
    channels: registry.loaded('channel').map((p) => ({
      name: requestName('channel', p.name),
      builtin: builtin(p.kind, p.name),
      yields: p.yields,
    })),
    fusions: registry.loaded('fusion').map((p) => ({
      name: requestName('fusion', p.name),
      builtin: builtin(p.kind, p.name),
    })),
    stages: registry.loaded('stage').map((p) => ({
      name: requestName('stage', p.name),
      builtin: builtin(p.kind, p.name),
      slot: 'rerank' as const,
      requires: [...(p.requires ?? [])],
    })),
  }
}
