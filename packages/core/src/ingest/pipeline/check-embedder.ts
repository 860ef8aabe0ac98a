import type { BrainStore } from '../../contracts/storage-adapter.js'
import { EngramError } from '../../errors.js'

const KEY = 'embedder'

/**
 * Records the embedder of a brain on first use and refuses another one afterwards: vectors of two
 * models in one index would be silently meaningless (DESIGN.md section 6).
 */
export async function checkEmbedder(
  store: BrainStore,
  info: { name: string; dimension: number },
): Promise<void> {
  const recorded = await store.meta.get(KEY)
  if (recorded === null) {
    await store.meta.set(KEY, JSON.stringify(info))
    return
  }
  const previous = JSON.parse(recorded) as { name: string; dimension: number }
  if (previous.name !== info.name || previous.dimension !== info.dimension) {
    throw new EngramError(
      'VALIDATION_ERROR',
      `Brain '${store.brainId}' was embedded with ${previous.name} (${previous.dimension}-d); the server runs ${info.name} (${info.dimension}-d).`,
      {
        status: 400,
        resolution:
          'Run the server with the embedder the brain was built with, or re-embed the brain into a new one.',
      },
    )
  }
}
