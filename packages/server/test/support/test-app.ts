import {
  createEngine,
  hashToken,
  memoryAdapter,
  type Engram,
  type Foreground,
  type StorageAdapter,
} from '@engram/core'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.js'

export const SYSTEM_TOKEN = 'spat_test-system-token-0123456789'

export interface TestApp {
  app: FastifyInstance
  engram: Engram
  system: Record<string, string>
  close(): Promise<void>
}

/** An app over an in-memory engine with a known system token (STYLE item 10: `build(t)` + inject). */
export async function buildTestApp(
  options: {
    basePath?: string
    maxBodyBytes?: number
    maxFileBytes?: number
    storage?: StorageAdapter
    defaultBrain?: string | null
    foreground?: Foreground
  } = {},
): Promise<TestApp> {
  const engram = createEngine({
    storage: options.storage ?? memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(SYSTEM_TOKEN),
    ...(options.defaultBrain !== undefined ? { defaultBrain: options.defaultBrain } : {}),
    ...(options.foreground ? { foreground: options.foreground } : {}),
  })
  await engram.start()
  const app = await buildApp({
    engram,
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}),
  })
  return {
    app,
    engram,
    system: { ServicePAT: SYSTEM_TOKEN },
    async close() {
      await app.close()
      await engram.stop({ graceMs: 100 })
    },
  }
}

/** Asserts the error envelope shape and returns it. */
export function envelope(body: string) {
  const parsed = JSON.parse(body) as {
    detail: unknown
    error: { code: string; message: string; resolution: string; request_id: string }
  }
  return parsed
}
