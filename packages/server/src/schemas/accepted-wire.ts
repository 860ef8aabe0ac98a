import { z } from 'zod'

/** The 202 answer of the ingestion routes: the task to poll with `GET /tasks/{task_id}`. */
export const acceptedWire = z.object({ message: z.string(), task_id: z.string() })
