import type { BrainCatalog, BrainStore, StorageAdapter } from '../contracts/storage-adapter.js'
import type { BrainRecord } from '../model/brain-record.js'
import { clone, emptyBrain, statsOf, type BrainData } from './memory-brain-data.js'
import { createMemoryBrainStore } from './memory-brain-store.js'

/** The reference StorageAdapter: everything in memory, same semantics as the durable ones. */
export function memoryAdapter(): StorageAdapter {
  const brains = new Map<string, BrainRecord>()
  const data = new Map<string, BrainData>()
  const stores = new Map<string, BrainStore>()

  const catalog: BrainCatalog = {
    async create(record) {
      if (brains.has(record.id)) return false
      brains.set(record.id, clone(record))
      data.set(record.id, emptyBrain())
      return true
    },
    async get(brainId) {
      const b = brains.get(brainId)
      return b ? clone(b) : null
    },
    async list() {
      return [...brains.values()]
        .sort((a, b) =>
          a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
        )
        .map(clone)
    },
    async findByTokenHash(tokenHash) {
      for (const b of brains.values()) if (b.tokenHash === tokenHash) return clone(b)
      return null
    },
    async updateToken(brainId, tokenHash, tokenLast4) {
      const b = brains.get(brainId)
      if (!b) return false
      brains.set(brainId, { ...b, tokenHash, tokenLast4 })
      return true
    },
    async delete(brainId) {
      const d = data.get(brainId)
      if (!brains.has(brainId) || d === undefined) return null
      const stats = statsOf(d)
      brains.delete(brainId)
      data.delete(brainId)
      stores.delete(brainId)
      return stats
    },
  }

  return {
    name: 'memory',
    catalog,
    async open() {},
    async close() {},
    async brain(brainId) {
      if (!data.has(brainId)) throw new Error(`memory adapter: brain '${brainId}' does not exist`)
      let store = stores.get(brainId)
      if (store === undefined) {
        store = createMemoryBrainStore(brainId, () => {
          const d = data.get(brainId)
          if (d === undefined) throw new Error(`memory adapter: brain '${brainId}' was deleted`)
          return d
        })
        stores.set(brainId, store)
      }
      return store
    },
  }
}
