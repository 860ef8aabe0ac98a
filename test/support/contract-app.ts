import {
  createEngram,
  defaultIngestionComponents,
  hashToken,
  memoryAdapter,
  registerIngestion,
  type Engram,
} from '@engram/core'
import { buildApp } from '@engram/server'

export const CONTRACT_TOKEN = 'spat_contract-test-system-token-0123'

export interface ContractApp {
  app: Awaited<ReturnType<typeof buildApp>>
  engram: Engram
  /** Headers with the system token (and a brain when given). */
  headers(brain?: string): Record<string, string>
  close(): Promise<void>
}

/** The REST app over an in-memory engine with ingestion, as a client sees it (`app.inject`). */
export async function buildContractApp(): Promise<ContractApp> {
  const engram = createEngram({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(CONTRACT_TOKEN),
  })
  registerIngestion(engram, { components: defaultIngestionComponents() })
  await engram.start()
  const app = await buildApp({ engram })
  return {
    app,
    engram,
    headers: (brain) => ({ ServicePAT: CONTRACT_TOKEN, ...(brain ? { 'X-Brain-ID': brain } : {}) }),
    async close() {
      await app.close()
      await engram.stop({ graceMs: 100 })
    },
  }
}
