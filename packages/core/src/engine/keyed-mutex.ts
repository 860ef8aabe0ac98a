/** Runs async functions one at a time per key (a brain id), in the order they asked. */
export interface KeyedMutex {
  /**
   * Runs `fn` once every earlier `run` of the same key has settled, and before any later one starts;
   * runs of other keys are not held up. Settles as `fn` does; a throw releases the key like a return.
   * Not reentrant: a `run` of a key awaited inside a `run` of that key never starts.
   */
  run<T>(key: string, fn: () => Promise<T>): Promise<T>
}

/**
 * A FIFO async mutex per key: each run chains on the previous run's release. Only keys with a run in
 * progress or waiting hold an entry, so a brain that stopped writing costs nothing.
 */
export function keyedMutex(): KeyedMutex {
  /** The release of the last run asked for, per key. */
  const tails = new Map<string, Promise<void>>()
  return {
    async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(key)
      let release!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      tails.set(key, released)
      if (previous !== undefined) await previous
      try {
        return await fn()
      } finally {
        if (tails.get(key) === released) tails.delete(key)
        release()
      }
    },
  }
}
