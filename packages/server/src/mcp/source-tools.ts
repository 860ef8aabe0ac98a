import { z } from 'zod'
import { MAX_SOURCE_ID_LENGTH } from '@engram/core'
import { brainIdArg, restTool } from './brain-tools.js'
import { acceptedOutput, listSourcesOutput } from './tool-outputs.js'

const sourceId = z.string().min(1).max(MAX_SOURCE_ID_LENGTH)

/** `list_sources`: GET /sources. */
export const listSourcesTool = restTool({
  name: 'list_sources',
  title: 'Sources in the brain',
  description:
    'What the brain was told, by source (GET /sources): each source_id (the id given to ingest_text, else its first task id) with its title or file name, meta, when it was created and last updated, and counts of the passages, entities, events, relationships and observations its latest ingestion produced; most recently updated first. Use it to find the source_id to pass to forget_source.',
  input: z.object({
    query_text: z
      .string()
      .max(2000)
      .optional()
      .describe('Only sources whose id, title or file name contains this (case-insensitive).'),
    meta: z
      .record(z.string().max(200), z.union([z.string().max(2000), z.number(), z.boolean()]))
      .optional()
      .describe('Only sources whose meta has each of these values, e.g. {"project": "apollo"}.'),
    limit: z.number().int().min(1).max(200).optional().describe('Sources to return (default 20).'),
    skip: z.number().int().min(0).optional().describe('Sources to skip (paging).'),
    brain_id: brainIdArg,
  }),
  output: listSourcesOutput,
  ids: ['task_ids'],
  call: async (client, { query_text, meta, limit, skip }) => {
    const { message: _message, ...page } = await client.sources.list({
      ...(query_text !== undefined ? { queryText: query_text } : {}),
      ...(meta !== undefined ? { meta } : {}),
      limit: limit ?? 20,
      ...(skip !== undefined ? { skip } : {}),
    })
    return page
  },
})

/**
 * `forget_source`: DELETE /sources/{source_id}. Destructive (the content cannot come back) and
 * idempotent (forgetting again while the forget runs returns the same task; afterwards it is a 404
 * and the brain is as the first call left it).
 */
export const forgetSourceTool = restTool({
  name: 'forget_source',
  title: 'Forget a source',
  description:
    'Permanently forgets one source (DELETE /sources/{source_id}): its passages, their vectors and index entries, its structured records, and the entities, events, relationships and observations that only it supported; what other sources also support stays, without the forgotten text. Cannot be undone. Asynchronous: returns {message, task_id, source_id}; poll get_task until completed (its result counts what was removed). An unknown or already forgotten source_id is a RESOURCE_NOT_FOUND error.',
  input: z.object({
    source_id: sourceId.describe('The source to forget, as list_sources shows it.'),
    brain_id: brainIdArg,
  }),
  output: acceptedOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  call: (client, { source_id }) => client.sources.forget(source_id),
})
