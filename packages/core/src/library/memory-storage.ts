import type { StorageAdapter } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'

/**
 * Storage in memory, gone with the process: for tests and throwaway experiments. The same semantics
 * as the durable adapters (it is the reference adapter, `memoryAdapter`, under the library's name).
 *
 * ```js
 * const engram = await createEngram({ storage: memoryStorage(), embedder: 'none' })
 * ```
 */
export function memoryStorage(): StorageAdapter {
  return memoryAdapter()
}
