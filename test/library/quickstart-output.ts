import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { ProcessResult } from '../support/run-process.js'

/**
 * What examples/library-quickstart.mjs prints when it works, run in `cwd`: the finished task, a hit
 * and a neighbour naming Charles Babbage, the EngramError of its deliberate bad call, and its SQLite
 * files under ./engram-data.
 */
export function expectQuickstartWorked({ code, stdout, stderr }: ProcessResult, cwd: string): void {
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  const lines = stdout.trim().split('\n')
  expect(lines[0]).toMatch(/^task completed \{"passages":1,/)
  expect(lines.find((l) => l.startsWith('hit '))).toContain('Charles Babbage')
  expect(lines.filter((l) => l.startsWith('neighbour ')).join('\n')).toContain('Charles Babbage')
  expect(lines.at(-1)).toBe(
    'error VALIDATION_ERROR search: options.k: Too big: expected number to be <=200',
  )
  expect(existsSync(join(cwd, 'engram-data', 'catalog.sqlite'))).toBe(true)
}
