/**
 * Requests before background work on the one event loop. Ingestion tasks run their main-thread steps
 * (reads, resolution, the commit, index updates) on the thread that answers requests, so under a
 * steady request load every step a task takes delays the requests queued behind it: the server's
 * latency is its main thread's work per request, the tasks' share included (Little's law on a closed
 * loop). A background step therefore asks for a {@link Foreground.turn} first: while requests keep
 * arriving, steps go one at a time, at most one per `spacingMs`, so ingestion keeps a bounded share of
 * the thread and still progresses; once requests have been quiet for `quietMs`, every step goes at once.
 *
 * The policy is the classic foreground/background split of time-sharing schedulers (interactive work
 * first, batch work in the gaps, with a floor against starvation: Corbató et al., "An experimental
 * time-sharing system", 1962; the same idea as `SCHED_IDLE` with a guaranteed minimum).
 */
export interface Foreground {
  /** A request arrived or was answered: the foreground is busy now. */
  touch(): void
  /**
   * For background work: resolves when the step may run, `undefined` when it may run now (no await
   * cost when nothing is being served).
   */
  turn(): Promise<void> | undefined
}

export interface ForegroundOptions {
  /** Quiet needed before waiting steps all go (default 2 ms). */
  quietMs?: number
  /** Under load, the least time between two background steps (default 10 ms; 0: never wait). */
  spacingMs?: number
  /** Test seams: the clock and the timer (default `performance.now` and an unref'd `setTimeout`). */
  now?: () => number
  after?: (ms: number, run: () => void) => void
}

function unrefTimeout(ms: number, run: () => void): void {
  setTimeout(run, ms).unref()
}

/** A {@link Foreground} that never holds a step back: a library engine no requests are served from. */
export const NO_FOREGROUND: Foreground = { touch() {}, turn: () => undefined }

export function createForeground(options: ForegroundOptions = {}): Foreground {
  const quietMs = Math.max(0, options.quietMs ?? 2)
  const spacingMs = Math.max(0, options.spacingMs ?? 10)
  if (spacingMs === 0) return NO_FOREGROUND
  const now = options.now ?? (() => performance.now())
  const after = options.after ?? unrefTimeout
  let lastTouch = -Infinity
  let lastRelease = -Infinity
  const waiting: (() => void)[] = []
  let armed = false

  const quiet = (t: number) => t - lastTouch >= quietMs

  function check(): void {
    armed = false
    const t = now()
    if (quiet(t)) {
      lastRelease = t
      for (const release of waiting.splice(0)) release()
      return
    }
    if (t - lastRelease >= spacingMs) {
      lastRelease = t
      waiting.shift()!()
    }
    if (waiting.length > 0) arm(t)
  }

  function arm(t: number): void {
    if (armed) return
    armed = true
    const next = Math.min(lastTouch + quietMs, lastRelease + spacingMs)
    after(Math.max(0, next - t), check)
  }

  return {
    touch() {
      lastTouch = now()
    },
    turn() {
      const t = now()
      if (waiting.length === 0 && (quiet(t) || t - lastRelease >= spacingMs)) {
        lastRelease = t
        return undefined
      }
      return new Promise<void>((resolve) => {
        waiting.push(resolve)
        arm(t)
      })
    },
  }
}
