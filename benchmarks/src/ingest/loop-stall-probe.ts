/**
 * Measures how long the event loop went without a turn: a 5 ms interval timer records the largest gap
 * between its runs, minus the interval. `stop()` first waits one more timer turn, so that a stall
 * ending just before it (the last synchronous step of a run) is still seen; `monitorEventLoopDelay`
 * read right after the work would miss that one.
 */
export function loopStallProbe(intervalMs = 5): { stop(): Promise<number> } {
  let last = performance.now()
  let worst = 0
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - intervalMs)
    last = now
  }, intervalMs)
  return {
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, intervalMs * 2))
      clearInterval(timer)
      return Math.max(0, worst)
    },
  }
}
