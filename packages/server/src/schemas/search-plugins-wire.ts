import { z } from 'zod'

const name = z
  .string()
  .describe(
    'As a request writes it: a built-in channel or fusion bare (`rrf`), any other `plugin:<name>`.',
  )
const builtin = z
  .boolean()
  .describe(
    'Shipped with Engram (`builtinPlugins()`); false for a plugin loaded from configuration.',
  )

/** `GET /meta/search-plugins`: what a search request may name on this server (docs/writing-a-plugin.md). */
export const searchPluginsWire = z
  .object({
    channels: z
      .array(
        z.object({
          name,
          builtin,
          yields: z
            .enum(['passages', 'entities'])
            .describe('What its ids are: passage ids or entity uuids.'),
        }),
      )
      .describe('Values of `channels`.'),
    fusions: z.array(z.object({ name, builtin })).describe('Values of `fusion`.'),
    stages: z
      .array(
        z.object({
          name,
          builtin,
          slot: z
            .enum(['rerank'])
            .describe(
              'The request option that runs it. Expansion (`expand`) and personalization (`target`) are placed by the pipeline, not registered, so not listed.',
            ),
          requires: z
            .array(z.enum(['embed', 'vectors']))
            .describe(
              'Readers it cannot work without: a search naming it where one is missing (no embedder, or a brain without vectors) is a 400.',
            ),
        }),
      )
      .describe('Values of `rerank` besides `auto` and `none`.'),
  })
  .meta({ id: 'SearchPlugins' })
