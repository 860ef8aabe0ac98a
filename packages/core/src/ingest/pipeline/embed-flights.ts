/** An ingestion task's embedding: vectors for `texts`, in order. */
export type EmbedTexts = (texts: string[], signal: AbortSignal) => Promise<Float32Array[]>

/** One task's view of its brain's {@link EmbedFlights}. */
export interface TaskFlights {
  /** Embeds `texts`, taking those another running task of the brain embeds (or did) from it. */
  readonly embed: EmbedTexts
  /** Texts this task sent to the embedder itself: its `counts.embedded`. */
  sent(): number
  /** The task is done with its write (committed or not): its texts are no longer offered. */
  release(): void
}

/**
 * Each distinct text embedded once per brain while its tasks overlap (issue 27 item 3). Tasks of one
 * brain run several at a time, and each forecasts its batch from the records as stored: a name they
 * all introduce ("Caroline" in a conversation's first turns) is new to every one of them, so each
 * would embed it. Once one has committed, the stored entity's vector serves the others
 * (`embed-missing.ts`, `unchangedWithVector`); this closes the window before that. A text a running
 * task of the brain has sent to the embedder is awaited from that call instead of being sent again,
 * until that task is done with its write.
 *
 * Request coalescing ("single flight", after Go's golang.org/x/sync/singleflight), with an entry kept
 * for its task's lifetime rather than its call's, since the duplicate asks usually come after the first
 * call has returned. Only texts of running tasks are held, so nothing outlives a task (a forgotten
 * text is not kept: docs/forgetting.md). A flight that fails (its task was stopped) is not shared:
 * whoever waited on it embeds the text itself.
 */
export class EmbedFlights {
  readonly #brains = new Map<string, Map<string, Promise<Float32Array>>>()

  /** Texts of running tasks held, over all brains (for tests and diagnostics). */
  get size(): number {
    let size = 0
    for (const flights of this.#brains.values()) size += flights.size
    return size
  }

  task(brainId: string, embed: EmbedTexts): TaskFlights {
    const held: [string, Promise<Float32Array>][] = []
    let released = false
    let sent = 0
    const brains = this.#brains
    const flightsOf = () => {
      let flights = brains.get(brainId)
      if (flights === undefined) brains.set(brainId, (flights = new Map()))
      return flights
    }

    /** Sends `texts` (distinct) in one call; offers each vector to the brain's other tasks. */
    const send = (texts: string[], signal: AbortSignal, offer: boolean) => {
      sent += texts.length
      const call = embed(texts, signal)
      const flights = offer && !released ? flightsOf() : null
      return texts.map((text, i) => {
        const vector = call.then((vectors) => vectors[i]!)
        if (flights !== null) {
          flights.set(text, vector)
          held.push([text, vector])
          // A failed flight is no one's to share (its waiters embed the text themselves).
          vector.catch(() => {
            if (flights.get(text) === vector) flights.delete(text)
          })
        }
        return vector
      })
    }

    const shared: EmbedTexts = async (texts, signal) => {
      const flights = flightsOf()
      const vectors = new Map<string, Promise<Float32Array>>()
      const fresh = new Set<string>()
      for (const text of texts) {
        if (vectors.has(text)) continue
        const flight = flights.get(text)
        if (flight === undefined) fresh.add(text)
        // A settled failure is gone from `flights`; one in the air is retried below if it fails.
        else vectors.set(text, flight)
      }
      if (fresh.size > 0) {
        const own = [...fresh]
        send(own, signal, true).forEach((vector, i) => vectors.set(own[i]!, vector))
      }
      // One abort listener for the lot, however many texts the call holds.
      const settled = await abortable(Promise.allSettled(vectors.values()), signal)
      const done = new Map<string, Float32Array>()
      const failed: string[] = []
      let i = 0
      for (const text of vectors.keys()) {
        const result = settled[i++]!
        if (result.status === 'fulfilled') done.set(text, result.value)
        // This task's own call failed: that failure is its own to report.
        else if (fresh.has(text)) throw result.reason
        else failed.push(text)
      }
      if (failed.length > 0) {
        const again = await Promise.all(send(failed, signal, false))
        failed.forEach((text, i) => done.set(text, again[i]!))
      }
      return texts.map((text) => done.get(text)!)
    }

    return {
      embed: shared,
      sent: () => sent,
      release() {
        if (released) return
        released = true
        const flights = brains.get(brainId)
        if (flights === undefined) return
        for (const [text, vector] of held) if (flights.get(text) === vector) flights.delete(text)
        if (flights.size === 0) brains.delete(brainId)
      },
    }
  }
}

/** `promise`, or a rejection as soon as `signal` aborts (what it waits on is another task's call). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
