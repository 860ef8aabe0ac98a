/**
 * Returns a function to await inside a long synchronous-ish loop: it gives the event loop a turn
 * (`setImmediate`, so pending I/O and timers run) once `intervalMs` have passed since the last turn,
 * and costs one clock read otherwise. A text of a few megabytes makes extraction, resolution and
 * batch building loops over 100,000+ items, and a brain's index build loops over every record; without
 * turns the server would not answer meanwhile.
 */
export function loopYielder(intervalMs = 10): () => Promise<void> | undefined {
  let last = performance.now()
  return () => {
    if (performance.now() - last < intervalMs) return undefined
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        last = performance.now()
        resolve()
      }),
    )
  }
}
