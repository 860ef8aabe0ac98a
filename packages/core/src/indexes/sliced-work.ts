import type { Pause } from './index-component.js'

/**
 * Synchronous work written once as a generator that yields wherever it may stop for a while: run
 * whole (`runWhole`, for callers that need the answer now, such as tests and small inputs), or with
 * event-loop turns in between (`runSliced`, for a snapshot load: decoding MovieLens-small's graph
 * took 0.2-0.4 s in one go, during which no other brain's request was answered). The result is the
 * same either way: the same steps run in the same order, only the turns in between differ.
 */
export type Sliced<T> = Generator<void, T, void>

/** Items a slice loop handles between two yields: well under a millisecond of work each time. */
export const SLICE_ITEMS = 4096

/** Runs `work` to its end without giving the event loop a turn. */
export function runWhole<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next()
    if (step.done === true) return step.value
  }
}

/**
 * Runs `work` to its end, calling `pause` at each of its yields (`loopYielder`: a turn once its
 * interval has passed, nothing otherwise).
 */
export async function runSliced<T>(work: Sliced<T>, pause: Pause): Promise<T> {
  for (;;) {
    const step = work.next()
    if (step.done === true) return step.value
    const turn = pause()
    if (turn !== undefined) await turn
  }
}

/**
 * Calls `body(from, to)` over `0..count` in ranges of `SLICE_ITEMS` (the last one shorter), yielding
 * after each: the hot loop stays a plain function (optimised as one), the generator only cuts it.
 */
export function* ranges(count: number, body: (from: number, to: number) => void): Sliced<void> {
  for (let from = 0; from < count; from += SLICE_ITEMS) {
    body(from, Math.min(count, from + SLICE_ITEMS))
    yield
  }
}

/**
 * As `ranges`, over `count` lists in compressed sparse row form (list `i` spans
 * `offsets[i]..offsets[i + 1]`): a range ends after `SLICE_ITEMS` lists or values, whichever comes
 * first, so that a few long lists do not make one long slice.
 */
export function* csrRanges(
  offsets: ArrayLike<number>,
  count: number,
  body: (from: number, to: number) => void,
): Sliced<void> {
  for (let from = 0; from < count;) {
    const limit = offsets[from]! + SLICE_ITEMS
    let to = from + 1
    while (to < count && to - from < SLICE_ITEMS && offsets[to]! < limit) to++
    body(from, to)
    from = to
    yield
  }
}
