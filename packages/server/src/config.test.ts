import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'

describe('configuration', () => {
  it('runs the embedded default with nothing set', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      dataDir: './data',
      defaultBrain: 'default',
      basePath: '',
      storage: 'sqlite',
      workers: 9,
      workersPerBrain: 8,
      taskYieldMs: 0,
    })
    expect(config.systemToken).toBeUndefined()
  })

  it('refuses invalid values with a message naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['STORAGE', 'mongo'],
      ['WORKERS', '0'],
      ['WORKERS_PER_BRAIN', '10'],
      ['TASK_YIELD_MS', '-1'],
      ['TASK_YIELD_MS', '2.5'],
      ['BASE_PATH', 'api'],
      ['DEFAULT_BRAIN', '1x'],
      ['SERVICEPAT_TOKEN', 'short'],
      ['INDEX_MEMORY_MB', '0'],
      ['INDEX_MEMORY_MB', '1.5'],
      ['INDEX_MEMORY_MB', '512MB'],
      ['SQLITE_MAX_OPEN_BRAINS', '0'],
      ['SQLITE_MAX_OPEN_BRAINS', 'many'],
      ['BM25_VARIANT', 'okapi'],
      ['BM25_K1', '-1'],
      ['BM25_K1', 'high'],
      ['BM25_B', '1.5'],
      ['BM25_DELTA', '-0.5'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), name).toThrow(ConfigError)
      expect(() => loadConfig({ [name!]: value }), name).toThrow(name!)
    }
  })

  it("reads the tasks' yield to requests: off (0) by default", () => {
    expect(loadConfig({ TASK_YIELD_MS: '5' }).taskYieldMs).toBe(5)
    expect(loadConfig({ TASK_YIELD_MS: '20' }).taskYieldMs).toBe(20)
  })

  it('reads the index memory budget, unlimited by default', () => {
    expect(loadConfig({}).indexMemoryMb).toBeUndefined()
    expect(loadConfig({ INDEX_MEMORY_MB: '' }).indexMemoryMb).toBeUndefined()
    expect(loadConfig({ INDEX_MEMORY_MB: '512' }).indexMemoryMb).toBe(512)
  })

  it('reads the SQLite connection cap, for sqlite only', () => {
    expect(loadConfig({}).sqliteMaxOpenBrains).toBeUndefined()
    expect(loadConfig({ SQLITE_MAX_OPEN_BRAINS: '1000' }).sqliteMaxOpenBrains).toBe(1000)
    const postgres = { STORAGE: 'postgres', DATABASE_URL: 'postgres://h/db' }
    expect(() => loadConfig({ ...postgres, SQLITE_MAX_OPEN_BRAINS: '10' })).toThrow(
      'SQLITE_MAX_OPEN_BRAINS is for STORAGE=sqlite',
    )
  })

  it('reads the index snapshot directory, for postgres only', () => {
    const postgres = { STORAGE: 'postgres', DATABASE_URL: 'postgres://h/db' }
    expect(loadConfig(postgres).indexSnapshotDir).toBeUndefined()
    expect(loadConfig({ ...postgres, INDEX_SNAPSHOT_DIR: ' /var/engram ' }).indexSnapshotDir).toBe(
      '/var/engram',
    )
    expect(() => loadConfig({ INDEX_SNAPSHOT_DIR: '/var/engram' })).toThrow('INDEX_SNAPSHOT_DIR')
  })

  it('reads the expiry sweep period: 60 s by default, 0 disables, negatives and fractions refused', () => {
    expect(loadConfig({}).expirySweepSeconds).toBe(60)
    expect(loadConfig({ ENGRAM_EXPIRY_SWEEP_SECONDS: '0' }).expirySweepSeconds).toBe(0)
    expect(loadConfig({ ENGRAM_EXPIRY_SWEEP_SECONDS: '5' }).expirySweepSeconds).toBe(5)
    for (const value of ['-1', '1.5', 'soon'])
      expect(() => loadConfig({ ENGRAM_EXPIRY_SWEEP_SECONDS: value }), value).toThrow(
        'ENGRAM_EXPIRY_SWEEP_SECONDS',
      )
  })

  it('reads BM25 defaults, only the variables set', () => {
    expect(loadConfig({}).bm25).toEqual({})
    expect(loadConfig({ BM25_VARIANT: 'bm25l', BM25_B: '0.75' }).bm25).toEqual({
      variant: 'bm25l',
      b: 0.75,
    })
    expect(loadConfig({ BM25_K1: '1.2', BM25_DELTA: '0.5' }).bm25).toEqual({ k1: 1.2, delta: 0.5 })
  })

  it('requires DATABASE_URL with STORAGE=postgres', () => {
    expect(() => loadConfig({ STORAGE: 'postgres' })).toThrow(ConfigError)
    expect(() => loadConfig({ STORAGE: 'postgres' })).toThrow('DATABASE_URL')
    expect(
      loadConfig({ STORAGE: 'postgres', DATABASE_URL: 'postgres://u@h:5432/db' }),
    ).toMatchObject({ storage: 'postgres', databaseUrl: 'postgres://u@h:5432/db' })
  })

  it('reads overrides; an empty DEFAULT_BRAIN requires a brain', () => {
    const config = loadConfig({
      PORT: '9000',
      BASE_PATH: '/api/',
      DEFAULT_BRAIN: '',
      STORAGE: 'memory',
    })
    expect(config).toMatchObject({
      port: 9000,
      basePath: '/api',
      defaultBrain: null,
      storage: 'memory',
    })
  })

  it('reads the channels graph operations take candidates from', () => {
    expect(loadConfig({}).graphChannels).toEqual({ passages: [], seeds: [], fusion: undefined })
    expect(
      loadConfig({
        ENGRAM_RETRIEVE_CHANNELS: ' passages, plugin:phrase ,',
        ENGRAM_SEED_CHANNELS: 'entities',
        ENGRAM_RETRIEVE_FUSION: 'plugin:combmnz',
      }).graphChannels,
    ).toEqual({
      passages: ['passages', 'plugin:phrase'],
      seeds: ['entities'],
      fusion: 'plugin:combmnz',
    })
  })

  it('every variable it reads is documented in the README', () => {
    const source = readFileSync(new URL('./config.ts', import.meta.url), 'utf8')
    const names = new Set([...source.matchAll(/env(?:\.|, ')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!))
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    expect(names.size).toBeGreaterThan(10)
    for (const name of names) expect(readme, name).toContain(`\`${name}\``)
  })
})
