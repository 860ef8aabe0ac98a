import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createEngine,
  hashToken,
  memoryAdapter,
  type EngineOptions,
  type Engram,
  type StorageAdapter,
} from '@engram/core'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { buildApp, type BuildAppOptions } from '@engram/server'

export const SYSTEM_TOKEN = 'spat_listening-app-system-token-0123'

export interface ListeningApp {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  app: Awaited<ReturnType<typeof buildApp>>
  /** At hand to wait for tasks (`engram.tasks.idle()`). */
  engram: Engram
  /** Headers with the system token (and a brain when given). */
  headers(brain?: string): Record<string, string>
  close(): Promise<void>
}

/**
 * The app of `buildApp` (the server's own options: body limit, error handlers, parsers) with ingestion,
 * listening on a real socket on 127.0.0.1, in this process: for tests that need what `inject` skips
 * (Node's HTTP parser, sockets, resets) or clients that only know a URL. No embedder, so it starts in
 * about a second.
 */
export async function listeningApp(
  options: {
    storage?: 'sqlite' | 'memory'
    maxBodyBytes?: number
    maxFileBytes?: number
    /** Search plugins and the channels graph operations read (`createEngine` options). */
    plugins?: EngineOptions['plugins']
    graphChannels?: EngineOptions['graphChannels']
    /** The `/demo/search` limiter (default: the server's, 30 a minute then 60 s blocked). */
    demoRateLimiter?: BuildAppOptions['demoRateLimiter']
  } = {},
): Promise<ListeningApp> {
  const dataDir =
    options.storage === 'memory' ? null : mkdtempSync(join(tmpdir(), 'engram-listening-'))
  const storage: StorageAdapter = dataDir === null ? memoryAdapter() : sqliteAdapter({ dataDir })
  const engram = createEngine({
    storage,
    version: '0.0.0-test',
    systemTokenHash: hashToken(SYSTEM_TOKEN),
    ...(options.plugins !== undefined ? { plugins: options.plugins } : {}),
    ...(options.graphChannels !== undefined ? { graphChannels: options.graphChannels } : {}),
  })
  await engram.start()
  const app = await buildApp({
    engram,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.demoRateLimiter !== undefined ? { demoRateLimiter: options.demoRateLimiter } : {}),
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return {
    url,
    port: Number(new URL(url).port),
    app,
    engram,
    headers: (brain) => ({ ServicePAT: SYSTEM_TOKEN, ...(brain ? { 'X-Brain-ID': brain } : {}) }),
    async close() {
      await app.close()
      await engram.stop({ graceMs: 100 })
      if (dataDir !== null) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
