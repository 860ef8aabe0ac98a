import type { SourceQuery, SourceRepository } from '../contracts/source-repository.js'
import type { Source } from '../model/source.js'
import { clone, type BrainData } from './memory-brain-data.js'

const includes = (haystack: string | null, needle: string) =>
  haystack !== null && haystack.toLowerCase().includes(needle)

/** Meta values compare as JSON, as the durable adapters compare them (`true` is not `1`). */
const sameJson = (a: unknown, b: unknown) =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b)

function matches(s: Source, q: SourceQuery): boolean {
  if (s.status !== 'active') return false
  if (q.queryText !== undefined && q.queryText !== '') {
    const needle = q.queryText.toLowerCase()
    if (!includes(s.id, needle) && !includes(s.title, needle) && !includes(s.filename, needle))
      return false
  }
  for (const [key, value] of Object.entries(q.meta ?? {}))
    if (!Object.hasOwn(s.meta, key) || !sameJson(s.meta[key], value)) return false
  return true
}

/** The memory adapter's `sources`: active ones listed newest `updatedAt` first, then id descending. */
export function memorySourceRepository(get: () => BrainData): SourceRepository {
  return {
    async get(id) {
      const s = get().sources.get(id)
      return s ? clone(s) : null
    },
    async list(q) {
      const items = [...get().sources.values()]
        .filter((s) => matches(s, q))
        .sort((a, b) =>
          a.updatedAt < b.updatedAt
            ? 1
            : a.updatedAt > b.updatedAt
              ? -1
              : a.id < b.id
                ? 1
                : a.id > b.id
                  ? -1
                  : 0,
        )
      return { items: items.slice(q.skip, q.skip + q.limit).map(clone), total: items.length }
    },
    async expired(now, limit) {
      // A scan: the memory adapter holds test-sized brains, with no index to keep up.
      return [...get().sources.values()]
        .filter((s) => s.status === 'active' && s.expiresAt != null && s.expiresAt <= now)
        .sort((a, b) =>
          a.expiresAt! < b.expiresAt! ? -1 : a.expiresAt! > b.expiresAt! ? 1 : a.id < b.id ? -1 : 1,
        )
        .slice(0, limit)
        .map(clone)
    },
  }
}
