import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

/** `GET /tasks/?status=`: only the statuses asked for, paged over those only (docs/request-options.md). */
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
  // Statuses set through the store: the queue would run them.
  const store = await t.engram.store('default')
  for (const [i, status] of (['completed', 'failed', 'completed', 'failed'] as const).entries())
    await store.tasks.create(
      fixtures.task({ id: `task-${i}`, status, createdAt: `2025-01-01T00:0${i}:00.000Z` }),
    )
})
afterAll(async () => {
  await t?.close()
})

const list = (query: string) =>
  t.app.inject({ method: 'GET', url: `/tasks/${query}`, headers: t.system })

describe('GET /tasks/ status filter', () => {
  it('keeps the statuses asked for, comma-separated or repeated, and pages over them', async () => {
    const ids = async (query: string) =>
      ((await list(query)).json() as { tasks: { task_id: string }[] }).tasks.map((x) => x.task_id)
    expect(await ids('?status=failed')).toEqual(['task-3', 'task-1'])
    expect(await ids('?status=failed&limit=1&skip=1')).toEqual(['task-1'])
    expect(await ids('?status=queued,completed')).toEqual(['task-2', 'task-0'])
    expect(await ids('?status=completed&status=failed')).toEqual([
      'task-3',
      'task-2',
      'task-1',
      'task-0',
    ])
    expect(await ids('')).toHaveLength(4)
  })

  it('answers 422 in the envelope for a status that does not exist', async () => {
    const response = await list('?status=done')
    expect(response.statusCode).toBe(422)
    expect(envelope(response.body).error.code).toBe('VALIDATION_ERROR')
  })
})
