import { z } from 'zod'
import { brainIdArg, restTool } from './brain-tools.js'
import { RECORD_IDS, relationshipOutput } from './tool-outputs.js'

const instant = z
  .string()
  .max(64)
  .regex(/^\d{4}-\d{2}-\d{2}/, 'an ISO 8601 date or date-time')

/**
 * `correct_fact`: PUT /model/relationship with a corrected validity window (docs/time.md,
 * "Corrections"). Not destructive: an ended fact stays, with its window, for questions about the past.
 */
export const correctFactTool = restTool({
  name: 'correct_fact',
  title: 'Correct when a fact held',
  description:
    'Corrects the validity window of one fact (PUT /model/relationship): `invalid_at` ends it (it stays, marked deprecated once that time has passed, for questions about the past; other facts are not touched), `invalid_at: null` reopens it, `valid_at` sets when it became true. The legs of its event follow; the change is a changelog entry. The relationship uuid comes from get_entity or traverse_graph with include_ids. Returns the relationship with its window (valid_at, invalid_at, created_at, expired_at).',
  input: z.object({
    relationship: z.string().min(1).max(200).describe('The relationship uuid.'),
    valid_at: instant.nullable().optional().describe('When the fact became true; null clears it.'),
    invalid_at: instant
      .nullable()
      .optional()
      .describe('When the fact stopped being true; null reopens it.'),
    brain_id: brainIdArg,
  }),
  output: relationshipOutput,
  ids: RECORD_IDS,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  call: (client, { relationship, valid_at, invalid_at }) =>
    client.PUT('/model/relationship', {
      body: {
        uuid: relationship,
        ...(valid_at !== undefined ? { valid_at } : {}),
        ...(invalid_at !== undefined ? { invalid_at } : {}),
      },
    }),
})
