/**
 * Waits on conditions without a clock: `until(ready)` resolves once `ready()` holds, checked at once
 * and again each time the code under test reports progress through `notify()` (a callback, a request
 * served, a batch delivered). A condition never met fails at the test's own timeout, not at a guessed
 * shorter one.
 */
export function conditionWaiter() {
  const waiting = new Set<() => void>()
  return {
    /** Re-checks every pending condition. */
    notify(): void {
      for (const check of [...waiting]) check()
    },
    until(ready: () => boolean): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (!ready()) return
          waiting.delete(check)
          resolve()
        }
        waiting.add(check)
        check()
      })
    },
  }
}
