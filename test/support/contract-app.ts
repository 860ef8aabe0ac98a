import type { Engram } from '@engram/core'
import type { buildApp } from '@engram/server'
import { listeningApp } from './listening-app.js'

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
  const server = await listeningApp({ storage: 'memory', token: CONTRACT_TOKEN })
  return {
    app: server.app,
    engram: server.engram,
    headers: (brain) => ({ ServicePAT: CONTRACT_TOKEN, ...(brain ? { 'X-Brain-ID': brain } : {}) }),
    close: () => server.close(),
  }
}
