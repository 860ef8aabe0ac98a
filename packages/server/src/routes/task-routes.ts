import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { notFound, TASK_STATUSES, type Engram } from '@engram/core'
import { brainIdQuery, csvList, pagination } from '../schemas/common.js'
import { taskWire, toTask } from '../schemas/wire-records.js'
import { defineRoute } from './define-route.js'

/** `status` of `GET /tasks/`: task statuses, comma-separated or repeated (docs/request-options.md). */
const taskStatuses = csvList
  .pipe(
    z
      .array(z.enum(TASK_STATUSES))
      .max(TASK_STATUSES.length * 4)
      .optional(),
  )
  .describe(
    `Only tasks in these statuses (${TASK_STATUSES.join(', ')}; comma-separated or repeated).`,
  )

/** `/tasks/*` (CONTRACT.md section 4). */
export function taskRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/tasks/',
      operationId: 'tasks_list',
      tag: 'tasks',
      summary: 'List tasks',
      description:
        'This brain’s tasks, newest first. Terminal tasks are kept 7 days. `status` (a comma-separated list) keeps only tasks in those statuses; `limit` and `skip` then count those only.',
      auth: 'brain',
      querystring: z.object({ ...pagination, ...brainIdQuery, status: taskStatuses }),
      success: { 200: z.object({ tasks: z.array(taskWire) }) },
    },
    async (request) => ({
      tasks: (
        await engram.tasks.list(
          request.brainId,
          { limit: request.query.limit, skip: request.query.skip },
          request.query.status,
        )
      ).map(toTask),
    }),
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/tasks/:task_id',
      operationId: 'tasks_get',
      tag: 'tasks',
      summary: 'Get a task',
      description:
        'One task of this brain; poll until `status` is terminal (`completed`, `partial_failed`, `failed`).',
      auth: 'brain',
      params: z.object({ task_id: z.string().min(1).max(200) }),
      querystring: z.object(brainIdQuery),
      success: { 200: taskWire },
    },
    async (request) => {
      const task = await engram.tasks.get(request.brainId, request.params.task_id)
      if (task === null) throw notFound('Task', request.params.task_id)
      return toTask(task)
    },
  )
}
