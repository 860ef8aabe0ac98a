import type { Pause } from './index-component.js'
import type { Sliced } from './sliced-work.js'

/**
 * Thrown by `runSlicedUnlessChanged` when the index a save was encoding changed between two slices:
 * what was read before the change and what would be read after it do not make one index, so the save
 * stops and writes nothing. Not a failure: the caller drops the save (a write touched the part, so a
 * later save writes it again) and logs no error.
 */
export class ChangedDuringSaveError extends Error {
  constructor(what: string) {
    super(`${what} changed during its snapshot save`)
    this.name = 'ChangedDuringSaveError'
  }
}

/** Whether `error` is a save stopped by `runSlicedUnlessChanged` (nothing was written). */
export function isChangedDuringSave(error: unknown): error is ChangedDuringSaveError {
  return error instanceof ChangedDuringSaveError
}

/**
 * As `runSliced` (`sliced-work.ts`), for work that reads an index other code may write to while the
 * work waits: after each `pause` (a turn of the event loop, in which a write may have been applied),
 * `changed()` is asked, and when it answers true the work is abandoned with a
 * `ChangedDuringSaveError` naming `what`. Within a slice nothing else runs, so a check after each
 * pause sees every write.
 */
export async function runSlicedUnlessChanged<T>(
  work: Sliced<T>,
  pause: Pause,
  changed: () => boolean,
  what: string,
): Promise<T> {
  for (;;) {
    const step = work.next()
    if (step.done === true) return step.value
    const turn = pause()
    if (turn !== undefined) await turn
    if (changed()) {
      work.return(undefined as T)
      throw new ChangedDuringSaveError(what)
    }
  }
}
