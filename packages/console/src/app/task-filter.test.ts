import { describe, expect, it } from 'vitest'
import { filterTasks, statusCounts, taskDuration, taskSource } from './task-filter.js'

const task = (task_id: string, status: string, source = '', error = '') => ({
  task_id,
  status: status as 'completed',
  result: source === '' ? null : { passages: 1, source_id: source },
  error,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.500Z',
})

describe('task filters', () => {
  const tasks = [
    task('t1', 'completed', 'notes-1'),
    task('t2', 'failed', '', 'EXTRACTOR_DOWN'),
    task('t3', 'completed', 'report.md'),
    task('t4', 'queued'),
  ]

  it('filters by status and by text in the id, source or error, keeping the order', () => {
    expect(filterTasks(tasks, { status: 'completed', text: '' }).map((t) => t.task_id)).toEqual([
      't1',
      't3',
    ])
    expect(filterTasks(tasks, { status: '', text: 'REPORT' }).map((t) => t.task_id)).toEqual(['t3'])
    expect(filterTasks(tasks, { status: '', text: 'extractor' }).map((t) => t.task_id)).toEqual([
      't2',
    ])
    expect(filterTasks(tasks, { status: 'failed', text: 'notes' })).toEqual([])
  })

  it('counts statuses, reads the source and the run time', () => {
    expect(statusCounts(tasks)).toEqual([
      ['queued', 1],
      ['completed', 2],
      ['failed', 1],
    ])
    expect(taskSource(tasks[0]!)).toBe('notes-1')
    expect(taskSource(tasks[3]!)).toBe('')
    expect(taskDuration(tasks[0]!)).toBe('1.5 s')
    expect(
      taskDuration({ created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:02:05Z' }),
    ).toBe('2 min 5 s')
  })
})
