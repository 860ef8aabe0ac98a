import { z } from 'zod'

/**
 * The 202 answer of the ingestion routes and of `DELETE /sources/{source_id}`: the task to poll with
 * `GET /tasks/{task_id}`, and the source it writes or forgets.
 */
export const acceptedWire = z.object({
  message: z.string(),
  task_id: z.string(),
  source_id: z
    .string()
    .describe('The source: the `source_id` sent, else the task id (docs/forgetting.md).'),
})
