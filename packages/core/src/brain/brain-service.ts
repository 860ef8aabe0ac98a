import type { BrainStats, StorageAdapter } from '../contracts/storage-adapter.js'
import { EngramError } from '../errors.js'
import { isValidBrainId, RESERVED_BRAIN_IDS, type BrainRecord } from '../model/brain-record.js'
import { nowIso } from '../model/common.js'
import { generateToken, hashesEqual, hashToken, tokenLast4 } from './tokens.js'

/** Who a token belongs to. */
export type Principal = { kind: 'system' } | { kind: 'brain'; brainId: string }

export interface CreatedBrain {
  record: BrainRecord
  /** The clear token: returned once, never stored. */
  token: string
}

export interface BrainService {
  /** 201 path: throws BRAIN_EXISTS (409) or VALIDATION_ERROR (422) for a bad id. */
  create(brainId: string): Promise<CreatedBrain>
  list(): Promise<BrainRecord[]>
  get(brainId: string): Promise<BrainRecord | null>
  /** Throws BRAIN_NOT_FOUND (404) when missing. */
  require(brainId: string): Promise<BrainRecord>
  /** Deletes every record, index and vector of the brain; returns what was removed. */
  delete(brainId: string): Promise<BrainStats>
  rotateToken(brainId: string): Promise<CreatedBrain>
  /** Constant-time comparison of hashes; null for an unknown token. */
  authenticate(token: string): Promise<Principal | null>
}

export interface BrainServiceOptions {
  storage: StorageAdapter
  systemTokenHash?: string
  /** The default brain cannot be deleted: it must exist from first start. */
  defaultBrain: string | null
  /** Called when a brain is deleted, so in-memory state of it can be dropped. */
  onDeleted?: (brainId: string) => void | Promise<void>
}

function invalidBrainId(brainId: string): EngramError {
  const reserved = RESERVED_BRAIN_IDS.has(brainId)
  return new EngramError(
    'VALIDATION_ERROR',
    reserved ? `Brain id '${brainId}' is reserved.` : `Invalid brain id '${brainId}'.`,
    {
      status: 422,
      detail: [
        {
          loc: ['body', 'brain_id'],
          msg: reserved ? 'reserved brain id' : 'must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$',
          type: 'value_error',
        },
      ],
    },
  )
}

/** Brain catalog operations and token checks (CONTRACT.md sections 1 and 9). */
export function createBrainService(options: BrainServiceOptions): BrainService {
  const { storage, systemTokenHash, defaultBrain } = options
  const catalog = storage.catalog

  async function require(brainId: string) {
    const record = await catalog.get(brainId)
    if (record === null) {
      throw new EngramError('BRAIN_NOT_FOUND', `Brain '${brainId}' does not exist.`)
    }
    return record
  }

  return {
    async create(brainId): Promise<CreatedBrain> {
      if (!isValidBrainId(brainId)) throw invalidBrainId(brainId)
      const token = generateToken()
      const record = {
        id: brainId,
        nameKey: brainId,
        tokenHash: hashToken(token),
        tokenLast4: tokenLast4(token),
        createdAt: nowIso(),
      }
      if (!(await catalog.create(record))) {
        throw new EngramError('BRAIN_EXISTS', `Brain '${brainId}' already exists.`)
      }
      return { record, token }
    },

    list: () => catalog.list(),
    get: (brainId) => catalog.get(brainId),
    require,

    async delete(brainId) {
      if (brainId === defaultBrain) {
        throw new EngramError(
          'VALIDATION_ERROR',
          `The default brain '${brainId}' cannot be deleted.`,
          {
            status: 400,
            resolution: 'Delete another brain, or change DEFAULT_BRAIN first.',
          },
        )
      }
      const stats = await catalog.delete(brainId)
      if (stats === null)
        throw new EngramError('BRAIN_NOT_FOUND', `Brain '${brainId}' does not exist.`)
      await options.onDeleted?.(brainId)
      return stats
    },

    async rotateToken(brainId) {
      const record = await require(brainId)
      const token = generateToken()
      const tokenHash = hashToken(token)
      await catalog.updateToken(brainId, tokenHash, tokenLast4(token))
      return { record: { ...record, tokenHash, tokenLast4: tokenLast4(token) }, token }
    },

    async authenticate(token): Promise<Principal | null> {
      if (token.length === 0 || token.length > 512) return null
      const hash = hashToken(token)
      if (systemTokenHash !== undefined && hashesEqual(hash, systemTokenHash))
        return { kind: 'system' }
      // The lookup is by hash (an index probe); compare again in constant time before trusting it.
      const record = await catalog.findByTokenHash(hash)
      if (record === null || !hashesEqual(hash, record.tokenHash)) return null
      return { kind: 'brain', brainId: record.id }
    },
  }
}
