import { describe, expect, it } from 'vitest'
import { parseCliArgs } from './cli-args.js'

describe('parseCliArgs', () => {
  it('reads the measurement flags', () => {
    const a = parseCliArgs([
      '--ingest',
      '--latency',
      '--scale',
      '1000,2000',
      '--only',
      'engram-search',
    ])
    expect(a).toMatchObject({
      ingest: true,
      latency: true,
      scale: [1000, 2000],
      only: ['engram-search'],
    })
    expect(parseCliArgs(['--scale']).scale).toEqual([10_000, 100_000, 300_000])
    expect(parseCliArgs(['--latency', 'mixed'])).toMatchObject({
      latency: false,
      latencyMixed: true,
    })
    expect(parseCliArgs(['--latency=mixed']).latencyMixed).toBe(true)
    // Each of these is its own flag, not a way to run the latency suites.
    for (const flag of ['list', 'report', 'accept'] as const)
      expect(parseCliArgs([`--${flag}`])).toMatchObject({
        [flag]: true,
        latency: false,
        latencyMixed: false,
      })
    expect(parseCliArgs(['--latency', '--ingest'])).toMatchObject({
      latency: true,
      latencyMixed: false,
      ingest: true,
    })
    expect(() => parseCliArgs(['--latency=all'])).toThrow(/only 'mixed'/)
    expect(parseCliArgs(['--scale-out', '--data-dir', '/data'])).toMatchObject({
      scaleOut: true,
      scale: null,
      dataDir: '/data',
    })
    expect(parseCliArgs(['--scale', '--scale-out'])).toMatchObject({
      scaleOut: true,
      scale: [10_000, 100_000, 300_000],
    })
    expect(parseCliArgs(['--many-brains']).manyBrains).toEqual({ brains: 2000, passages: 200 })
    expect(parseCliArgs(['--many-brains', '100,50']).manyBrains).toEqual({
      brains: 100,
      passages: 50,
    })
    expect(parseCliArgs(['--ingest']).manyBrains).toBeNull()
    expect(parseCliArgs(['--console-explorer']).consoleExplorer).toBe(true)
    expect(parseCliArgs(['--ingest']).consoleExplorer).toBe(false)
    expect(parseCliArgs(['--startup']).startup).toBe(5)
    expect(parseCliArgs(['--startup', '3']).startup).toBe(3)
    expect(parseCliArgs(['--startup=2', '--ingest'])).toMatchObject({ startup: 2, ingest: true })
    expect(parseCliArgs(['--startup', '--ingest'])).toMatchObject({ startup: 5, ingest: true })
    expect(parseCliArgs(['--ingest']).startup).toBeNull()
    expect(parseCliArgs(['--forgetting']).forgetting).toBe(20)
    expect(parseCliArgs(['--forgetting', '7', '--ingest'])).toMatchObject({
      forgetting: 7,
      ingest: true,
    })
    expect(parseCliArgs(['--ingest']).forgetting).toBeNull()
    expect(parseCliArgs(['--time']).time).toBe(2)
    expect(parseCliArgs(['--time', '3', '--ingest'])).toMatchObject({ time: 3, ingest: true })
    expect(parseCliArgs(['--ingest']).time).toBeNull()
    expect(parseCliArgs(['--startup-postgres']).startupPostgres).toBe(3)
    expect(parseCliArgs(['--startup-postgres', '2', '--graph-snapshot'])).toMatchObject({
      startupPostgres: 2,
      graphSnapshot: 5,
    })
    expect(parseCliArgs(['--graph-snapshot=4']).graphSnapshot).toBe(4)
    expect(parseCliArgs(['--ingest'])).toMatchObject({ startupPostgres: null, graphSnapshot: null })
  })

  it('refuses unknown flags and bad sizes', () => {
    expect(() => parseCliArgs(['--ingets'])).toThrow(/unknown argument/)
    expect(() => parseCliArgs(['--scale', '10,x'])).toThrow(/positive integers/)
    expect(() => parseCliArgs(['--many-brains', '100'])).toThrow(/positive integers/)
    expect(() => parseCliArgs(['--startup', '0'])).toThrow(/positive integer/)
    expect(() => parseCliArgs(['--startup', 'x'])).toThrow(/positive integer/)
    expect(() => parseCliArgs(['--forgetting', '0'])).toThrow(/positive integer/)
    expect(() => parseCliArgs(['--time', '0'])).toThrow(/positive integer/)
    expect(() => parseCliArgs(['--graph-snapshot', '0'])).toThrow(/positive integer/)
    expect(() => parseCliArgs(['--startup-postgres', 'x'])).toThrow(/positive integer/)
  })
})
