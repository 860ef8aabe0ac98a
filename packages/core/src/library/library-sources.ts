import { z } from 'zod'
import type { Paged } from '../contracts/storage-page.js'
import { parseInput } from '../invalid-input.js'
import type { Passage } from '../model/passage.js'
import { MAX_SOURCE_ID_LENGTH, type Source } from '../model/source.js'
import type { LibraryContext } from './library-context.js'
import { flatMap, options, page } from './library-schemas.js'
import { taskHandle, type TaskHandle } from './task-handle.js'

// REST's `/sources` (docs/forgetting.md) in camelCase, through the engine's `sources` service (the
// calls the routes make).

const sourceId = z.string().min(1).max(MAX_SOURCE_ID_LENGTH)

const sourcesOptions = options({
  ...page,
  /** A case-insensitive substring of the id, title or file name. */
  queryText: z.string().max(2000).optional(),
  /** Every key must equal the source's meta value (REST's `meta` filter). */
  meta: flatMap(z.union([z.string(), z.number(), z.boolean()]))
    .refine((map) => Object.keys(map).length <= 50, { message: 'at most 50 keys' })
    .optional(),
})
const sourceOptions = options(page)
const forgetOptions = options({
  /** Resolve once the forget task ended (rejecting if it failed), rather than once it is stored. */
  wait: z.boolean().default(false),
  /** Stops waiting (with `wait`); the forget goes on. */
  signal: z.instanceof(AbortSignal).optional(),
})

export type SourcesOptions = z.input<typeof sourcesOptions>
export type SourceOptions = z.input<typeof sourceOptions>
export type ForgetOptions = z.input<typeof forgetOptions>

/** Sources and forgetting on one brain: the members of {@link EngramBrain} they add. */
export interface EngramSources {
  /** Active sources, most recently updated first (`limit` 1..1000, default 100, `skip`). */
  sources(options?: SourcesOptions): Promise<Paged<Source>>
  /** A source and a page of its passages in text order; unknown or forgotten: RESOURCE_NOT_FOUND. */
  source(id: string, options?: SourceOptions): Promise<{ source: Source; passages: Paged<Passage> }>
  /**
   * Forgets a source with the full cascade (docs/forgetting.md) as a task; its `result` counts what
   * was removed. Forgetting a source whose forget still runs returns that task. Unknown or already
   * forgotten: RESOURCE_NOT_FOUND. `{ wait: true }` resolves once the task ended.
   */
  forget(sourceId: string, options?: ForgetOptions): Promise<TaskHandle>
}

export function librarySources(ctx: LibraryContext, brain: string): EngramSources {
  const service = () => ctx.engine.sources
  return {
    sources: (raw) =>
      ctx.run('sources', async () => {
        const o = parseInput('sources', sourcesOptions, raw, ['options'])
        return service().list(brain, o)
      }),

    source: (id, raw) =>
      ctx.run('source', async () => {
        const value = parseInput('source', sourceId, id, ['id'])
        const o = parseInput('source', sourceOptions, raw, ['options'])
        return service().get(brain, value, o)
      }),

    async forget(id, raw) {
      const { task, wait, signal } = await ctx.run('forget', async () => {
        const value = parseInput('forget', sourceId, id, ['sourceId'])
        const o = parseInput('forget', forgetOptions, raw, ['options'])
        return { ...o, task: (await service().forget(brain, value)).task }
      })
      const handle = taskHandle(ctx, brain, task.id)
      // `done` runs its own library call, so the signal's reason reaches the caller as it is.
      if (wait) await handle.done(signal === undefined ? {} : { signal })
      return handle
    },
  }
}
