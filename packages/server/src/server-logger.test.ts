import { PassThrough } from 'node:stream'
import {
  createEngine,
  EngramError,
  type EngineOptions,
  type Extractor,
  hashToken,
  memoryAdapter,
  StorageUnavailableError,
} from '@engram/core'
import { describe, expect, it } from 'vitest'
import { buildApp } from './app.js'
import { configSummary } from './config-summary.js'
import { loadConfig } from './config.js'
import { defaultLogFormat, prettyLine, serverLogger } from './server-logger.js'

const TOKEN = 'spat_logger-test-token-0123456789'

/** An app whose log lines (JSON) are collected; `slowRequestMs` as given. */
async function loggedApp(
  level: string,
  slowRequestMs: number,
  engineOptions: Partial<EngineOptions> = {},
) {
  const out = new PassThrough()
  const lines: Record<string, unknown>[] = []
  out.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>)
  })
  const engram = createEngine({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(TOKEN),
    ...engineOptions,
  })
  await engram.start()
  const app = await buildApp({
    engram,
    logger: serverLogger({ level, format: 'json', out }),
    slowRequestMs,
  })
  return {
    app,
    lines,
    async close() {
      await app.close()
      await engram.stop({ graceMs: 100 })
    },
  }
}

describe('server logs', () => {
  it('logs requests at debug only: nothing per request at info', async () => {
    const quiet = await loggedApp('info', 60_000)
    const verbose = await loggedApp('debug', 60_000)
    try {
      for (const { app } of [quiet, verbose]) {
        await app.inject({ method: 'GET', url: '/health' })
        await app.inject({
          method: 'GET',
          url: '/retrieve/search?query=secret+words',
          headers: { ServicePAT: TOKEN },
        })
      }
      expect(quiet.lines).toEqual([])
      const requests = verbose.lines.filter((l) => l.msg === 'request')
      expect(requests.map((l) => [l.level, l.method, l.path, l.status])).toEqual([
        [20, 'GET', '/health', 200],
        [20, 'GET', '/retrieve/search', 200],
      ])
      // The path, never the query string (the user's words) nor the token.
      expect(JSON.stringify(verbose.lines)).not.toContain('secret')
      expect(JSON.stringify(verbose.lines)).not.toContain(TOKEN)
    } finally {
      await quiet.close()
      await verbose.close()
    }
  })

  it('logs a request slower than SLOW_REQUEST_MS at info', async () => {
    const logged = await loggedApp('info', 1)
    try {
      // 1 ms or more is slow here. The first /openapi.json builds the document and takes longer; the
      // loop keeps the test from depending on that.
      let slow: Record<string, unknown> | undefined
      for (let i = 0; i < 50 && slow === undefined; i++) {
        await logged.app.inject({ method: 'GET', url: '/openapi.json' })
        slow = logged.lines.find((l) => l.msg === 'slow request')
      }
      expect(slow).toMatchObject({ level: 30, method: 'GET', path: '/openapi.json', status: 200 })
      expect(slow!.ms).toBeGreaterThanOrEqual(1)
    } finally {
      await logged.close()
    }
  })

  it('logs a refused request (a full task queue) at debug, not as a failed request', async () => {
    // One task at most, and it never ends until the engine stops: every later submission is refused.
    const hanging: Extractor = {
      kind: 'extractor',
      name: 'hanging',
      extract: (_input, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)),
        ),
    }
    const logged = await loggedApp('info', 60_000, { maxPendingTasks: 1, extractor: hanging })
    try {
      const ingest = (i: number) =>
        logged.app.inject({
          method: 'POST',
          url: '/ingest/',
          headers: { ServicePAT: TOKEN },
          payload: { text: `Note ${i} about the harbour.` },
        })
      // The first is accepted and holds the queue; the next ones, at once, are refused.
      expect((await ingest(0)).statusCode).toBe(202)
      const refused = await Promise.all([1, 2, 3, 4, 5].map(ingest))
      expect(refused.map((r) => r.statusCode)).toEqual([503, 503, 503, 503, 503])
      expect(logged.lines.filter((l) => (l.level as number) >= 40)).toEqual([])
    } finally {
      await logged.close()
    }
    // Only a refusal by design: a database that went away, or a bug, is a failure.
    const full = new EngramError('SERVICE_UNAVAILABLE', 'The task queue is saturated.', {
      shed: true,
    })
    expect(full.shed).toBe(true)
    expect(new StorageUnavailableError(new Error('ECONNREFUSED')).shed).toBe(false)
    expect(new EngramError('SERVICE_UNAVAILABLE', 'The embedder failed.').shed).toBe(false)
    expect(new EngramError('INTERNAL_ERROR').shed).toBe(false)
  })

  it('writes one readable line per entry on a terminal, with an error stack below', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 10, 27, 12, 3, 44, 512),
      pid: 1,
      hostname: 'h',
      msg: 'task failed',
      taskId: 't1',
      err: { message: 'boom', stack: 'Error: boom\n    at x.js:1' },
    })
    expect(prettyLine(line)).toBe(
      '12:03:44.512 WARN  task failed  taskId=t1\n    Error: boom\n        at x.js:1',
    )
    expect(prettyLine('not json')).toBe('not json')
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty')
    expect(defaultLogFormat({ isTTY: false })).toBe('json')
    expect(defaultLogFormat({})).toBe('json')
  })

  it('summarises the configuration without secrets', () => {
    const config = loadConfig({
      STORAGE: 'postgres',
      DATABASE_URL: 'postgres://engram:hunter2@db.example:5432/engram',
      REDIS_URL: 'redis://user:redispass@cache:6379',
      EMBEDDER: 'openai',
      EMBEDDER_URL: 'http://embed:11434',
      EMBEDDER_MODEL: 'nomic-embed-text',
      EMBEDDER_DIMENSION: '768',
      EMBEDDER_API_KEY: 'sk-embedder-secret',
      EXTRACTOR: 'llm',
      EXTRACTOR_URL: 'https://user:pw@llm.example/v1',
      EXTRACTOR_MODEL: 'gpt-4o-mini',
      EXTRACTOR_API_KEY: 'sk-extractor-secret',
      SERVICEPAT_TOKEN: 'spat_system-token-secret-0123',
      TASK_YIELD_MS: '5',
    })
    const summary = configSummary(config, { name: 'openai:nomic-embed-text', dimension: 768 }, [])
    expect(configSummary(loadConfig({}), null, [])).not.toHaveProperty('taskYieldMs')
    expect(summary).toMatchObject({
      taskYieldMs: 5,
      storage: 'postgres',
      database: 'postgres://db.example:5432/engram',
      redis: 'redis://cache:6379',
      embedder: 'openai:nomic-embed-text (768-d)',
      extractor: 'llm (gpt-4o-mini at https://llm.example/v1)',
    })
    const text = JSON.stringify(summary)
    for (const secret of ['hunter2', 'redispass', 'sk-embedder', 'sk-extractor', 'pw@', 'spat_'])
      expect(text).not.toContain(secret)
  })
})
