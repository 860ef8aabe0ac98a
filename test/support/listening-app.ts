import type { AddressInfo } from 'node:net'
import {
  createEngram,
  defaultIngestionComponents,
  hashToken,
  memoryAdapter,
  registerIngestion,
  type Engram,
} from '@engram/core'
import { buildApp } from '@engram/server'

export interface ListeningApp {
  app: Awaited<ReturnType<typeof buildApp>>
  engram: Engram
  /** `http://127.0.0.1:<port>` */
  url: string
  token: string
  close(): Promise<void>
}

/**
 * The REST server over an in-memory engine with ingestion, listening on a free loopback port: real
 * HTTP for clients that only know a URL, with the engine at hand to wait for tasks (`tasks.idle()`).
 */
export async function startListeningApp(token: string): Promise<ListeningApp> {
  const engram = createEngram({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(token),
  })
  registerIngestion(engram, { components: defaultIngestionComponents() })
  await engram.start()
  const app = await buildApp({ engram })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return {
    app,
    engram,
    url: `http://127.0.0.1:${port}`,
    token,
    async close() {
      await app.close()
      await engram.stop({ graceMs: 100 })
    },
  }
}
