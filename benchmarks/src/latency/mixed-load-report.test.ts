import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { captureEnvironment } from '../run/environment.js'
import type { OpResult } from './mixed-load.js'
import { mixedLoadSection, rewriteMixedLoadSection } from './mixed-load-report.js'
import { parseVariant, type MixedLoadResult, type MixedPhase } from './run-mixed-load.js'

const op = (name: OpResult['op'], requests: number, p99: number): OpResult => ({
  op: name,
  requests,
  latency: { count: requests, p50: p99 / 4, p95: p99 / 2, p99, mean: p99 / 3, max: p99 * 2 },
  statuses: { [name === 'ingest' ? '202' : '200']: requests },
  errors: 0,
})

const phase = (name: MixedPhase['name'], searchP99: number): MixedPhase => ({
  name,
  load: {
    seconds: 10,
    connections: 32,
    ops:
      name === 'mixed'
        ? [op('search', 700, searchP99), op('ingest', 200, 90), op('model', 100, 80)]
        : [op('search', 3000, searchP99)],
  },
  load1: 1.5,
  serverCpuMs: 5000,
  loopDelay: { mean: 3, p50: 2, p99: 40, max: 120, over20: 0.01 },
})

const result = (mixedP99: number): MixedLoadResult => ({
  environment: captureEnvironment(new Date('2026-01-01T00:00:00Z')),
  seeds: [{ embedder: 'none', passages: 5183, seedMs: 4000 }],
  runs: [
    {
      embedder: 'none',
      server: 'this checkout',
      phases: [phase('searches alone', 20), phase('mixed', mixedP99)],
    },
  ],
})

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('mixed-load section of latency.md', () => {
  it('gives the verdict against the 50 ms target from the searches of the mixed phase', () => {
    expect(mixedLoadSection(result(42))).toContain(
      'search p99 42.0 ms under the mixed load (target <= 50 ms: met)',
    )
    expect(mixedLoadSection(result(287))).toContain('(target <= 50 ms: NOT met)')
    // CPU per search alone: 5,000 ms over 3,000 searches.
    expect(mixedLoadSection(result(287))).toContain('1.67 ms of server CPU per search alone')
  })

  it('replaces its own section in latency.md and leaves the rest as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-mixed-report-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'data'))
    const path = join(dir, 'latency.md')
    writeFileSync(path, '# Latency suites\n\nother sections\n')
    expect(rewriteMixedLoadSection(dir)).toBeNull()
    writeFileSync(join(dir, 'data', 'latency-mixed.json'), JSON.stringify(result(287)))
    rewriteMixedLoadSection(dir)
    writeFileSync(join(dir, 'data', 'latency-mixed.json'), JSON.stringify(result(42)))
    rewriteMixedLoadSection(dir)
    const text = readFileSync(path, 'utf8')
    expect(text.startsWith('# Latency suites\n\nother sections\n')).toBe(true)
    expect(text.match(/## Mixed load/g)).toHaveLength(1)
    expect(text).toContain('target <= 50 ms: met')
    expect(text).not.toContain('NOT met')
  })

  it('names the variant run of this checkout and its settings', () => {
    const variant = parseVariant('TASK_YIELD_MS=5, WORKERS=3')!
    expect(variant).toEqual({ TASK_YIELD_MS: '5', WORKERS: '3' })
    expect(parseVariant(' ')).toBeUndefined()
    expect(() => parseVariant('TASK_YIELD_MS')).toThrow('NAME=value')
    const section = mixedLoadSection({ ...result(99), variant })
    expect(section).toContain(
      '`this checkout, TASK_YIELD_MS=5, WORKERS=3` rows: the same build with TASK_YIELD_MS=5, WORKERS=3',
    )
    expect(mixedLoadSection(result(99))).not.toContain('rows: the same build')
  })
})
