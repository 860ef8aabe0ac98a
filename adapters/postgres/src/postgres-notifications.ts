import pg from 'pg'

/** Announces a committed write: payload `<seq> <brain id>`. */
export const WRITES_CHANNEL = 'engram_writes'
/** Announces a submitted task (no payload). */
export const TASKS_CHANNEL = 'engram_tasks'

type Listener = (payload: string) => void

const RECONNECT_MS = 1000

/**
 * One connection LISTENing on the channels someone subscribed to, for the whole adapter (a pooled
 * client cannot LISTEN: it goes back to the pool). NOTIFY is delivered at commit, to connections
 * listening at that moment: while this one reconnects, announcements are lost, which is why its
 * users also poll.
 */
export class Notifications {
  readonly #config: pg.ClientConfig
  readonly #listeners = new Map<string, Set<Listener>>()
  #client: pg.Client | null = null
  #connecting: Promise<void> | null = null
  #closed = false
  #retry: NodeJS.Timeout | undefined

  constructor(config: pg.ClientConfig) {
    this.#config = config
  }

  /** Calls `listener` with each payload on `channel`; returns the unsubscribe. */
  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    let set = this.#listeners.get(channel)
    const fresh = set === undefined
    if (set === undefined) this.#listeners.set(channel, (set = new Set()))
    set.add(listener)
    await this.#connect()
    if (fresh && this.#client !== null) await this.#client.query(`LISTEN ${channel}`)
    return async () => {
      set.delete(listener)
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#retry)
    const client = this.#client
    this.#client = null
    await client?.end().catch(() => {})
  }

  #connect(): Promise<void> {
    if (this.#client !== null || this.#closed) return Promise.resolve()
    this.#connecting ??= (async () => {
      const client = new pg.Client(this.#config)
      // A dropped connection: reconnect later; announcements meanwhile are lost (users poll).
      client.on('error', () => this.#lost(client))
      client.on('end', () => this.#lost(client))
      client.on('notification', (message) => {
        for (const listener of this.#listeners.get(message.channel) ?? []) {
          listener(message.payload ?? '')
        }
      })
      await client.connect()
      for (const channel of this.#listeners.keys()) await client.query(`LISTEN ${channel}`)
      this.#client = client
    })().finally(() => (this.#connecting = null))
    return this.#connecting
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return
    this.#client = null
    client.end().catch(() => {})
    this.#reconnectLater()
  }

  #reconnectLater(): void {
    if (this.#closed) return
    this.#retry = setTimeout(() => {
      this.#connect().catch(() => this.#reconnectLater())
    }, RECONNECT_MS)
    this.#retry.unref()
  }
}
