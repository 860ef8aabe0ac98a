import { z } from 'zod'
import type { BrainSettings } from '../brain/brain-settings.js'
import type { BrainStats } from '../contracts/storage-adapter.js'
import { BM25_VARIANTS } from '../indexes/bm25/bm25-index.js'
import { parseInput } from '../invalid-input.js'
import type { BrainRecord } from '../model/brain-record.js'
import type { LibraryContext } from './library-context.js'

/** A brain as the library shows it (its token hash stays in storage). */
export interface BrainInfo {
  id: string
  createdAt: string
}

/** The brains of the storage (REST `/system/brains*`). */
export interface EngramBrains {
  /**
   * Creates an empty brain. `token` is its REST token, shown only here (a server on the same storage
   * accepts it); the library itself needs none. BRAIN_EXISTS when taken; VALIDATION_ERROR for an id
   * outside `^[A-Za-z][A-Za-z0-9_-]{0,63}$`.
   */
  create(id: string): Promise<BrainInfo & { token: string }>
  /** Every brain, oldest first. */
  list(): Promise<BrainInfo[]>
  /** One brain, or null. */
  get(id: string): Promise<BrainInfo | null>
  /** Deletes every record, index and vector of the brain (not the default brain); what was removed. */
  delete(id: string): Promise<BrainStats>
}

/** A brain's settings (REST `/system/brains/{id}/settings`). */
export interface EngramSettings {
  /** The BM25 settings the brain scores with, and the fields it overrides. */
  get(): Promise<BrainSettings>
  /**
   * Replaces the brain's BM25 override (`{}` or null: back to the engine's defaults), applied at once
   * without re-indexing; sets its expiry default and its single-valued predicates (docs/time.md).
   * Out-of-range values: VALIDATION_ERROR naming the field.
   */
  update(update: SettingsUpdate): Promise<BrainSettings>
}

const bm25 = z.strictObject({
  variant: z.enum(BM25_VARIANTS).optional(),
  k1: z.number().optional(),
  b: z.number().optional(),
  delta: z.number().optional(),
})
const settingsUpdate = z.strictObject({
  bm25: bm25.nullable().optional(),
  /** Expiry of the brain's sources (docs/time.md): `defaultTtl` seconds, null clears it. */
  expiry: z.strictObject({ defaultTtl: z.number().nullable().optional() }).nullable().optional(),
  /** Slots of the single-valued predicate table to replace (docs/time.md); null clears them. */
  temporal: z
    .strictObject({
      singleValuedPredicates: z.record(z.string(), z.array(z.string())).nullable().optional(),
    })
    .nullable()
    .optional(),
})
export type SettingsUpdate = z.input<typeof settingsUpdate>

const brainId = z.string().min(1).max(200)
const info = (record: BrainRecord): BrainInfo => ({ id: record.id, createdAt: record.createdAt })

export function libraryBrains(ctx: LibraryContext): EngramBrains {
  const brains = () => ctx.engine.brains
  const id = (what: string, value: unknown) => parseInput(what, brainId, value, ['id'])
  return {
    create: (value) =>
      ctx.run('brains.create', async () => {
        const { record, token } = await brains().create(id('brains.create', value))
        return { ...info(record), token }
      }),
    list: () => ctx.run('brains.list', async () => (await brains().list()).map(info)),
    get: (value) =>
      ctx.run('brains.get', async () => {
        const record = await brains().get(id('brains.get', value))
        return record === null ? null : info(record)
      }),
    delete: (value) => ctx.run('brains.delete', () => brains().delete(id('brains.delete', value))),
  }
}

export function librarySettings(ctx: LibraryContext, brain: string): EngramSettings {
  return {
    get: () => ctx.run('settings.get', () => ctx.engine.brainSettings.get(brain)),
    update: (raw) =>
      ctx.run('settings.update', async () => {
        const update = parseInput('settings.update', settingsUpdate, raw, ['update'])
        return ctx.engine.brainSettings.update(brain, update)
      }),
  }
}
