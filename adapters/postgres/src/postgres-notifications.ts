import pg from 'pg'
import { backoffMs, type BackoffOptions, type StorageRuntime } from '@engram/core'
import { isRefusedForGood } from './postgres-connection-errors.js'

/** Announces a committed write: payload `<seq> <brain id>`. */
export const WRITES_CHANNEL = 'engram_writes'
/** Announces a submitted task (no payload). */
export const TASKS_CHANNEL = 'engram_tasks'

type Listener = (payload: string) => void

/**
 * Waits between reconnections: the first within 100 ms (a terminated session's server is up), then
 * doubling up to 10 s while the server stays away; full jitter, so that the processes of a cluster
 * do not reconnect in step (Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015).
 */
export const RECONNECT_BACKOFF: BackoffOptions = { baseMs: 100, maxMs: 10_000, jitter: 'full' }

/**
 * One connection LISTENing on the channels someone subscribed to, for the whole adapter (a pooled
 * client cannot LISTEN: it goes back to the pool). NOTIFY is delivered at commit, to connections
 * listening at that moment: while this one reconnects, announcements are lost, which is why its
 * users also poll.
 *
 * A dropped connection is re-opened with backoff, for as long as the adapter is open. The pending
 * reconnection keeps the process alive, as the connection did: a `ROLE=worker` process serves no
 * HTTP, and its event loop would otherwise empty and the process exit (with code 0) between a drop
 * and the reconnection. A server that refuses the reconnection for good (credentials, dropped
 * database) is reported to the engine's `fatal`, and retried at the slowest pace meanwhile.
 */
export class Notifications {
  readonly #config: pg.ClientConfig
  readonly #runtime: () => StorageRuntime
  readonly #listeners = new Map<string, Set<Listener>>()
  #client: pg.Client | null = null
  #connecting: Promise<void> | null = null
  #closed = false
  #retry: NodeJS.Timeout | undefined
  /** Reconnections that failed in a row, and when the connection was lost (null while connected). */
  #failures = 0
  #lostAt: number | null = null
  /** The server refused the last reconnections for good (reported to `fatal` once). */
  #refused = false

  constructor(config: pg.ClientConfig, runtime: () => StorageRuntime) {
    this.#config = config
    this.#runtime = runtime
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
    await this.#connecting?.catch(() => {})
    const client = this.#client
    this.#client = null
    await client?.end().catch(() => {})
  }

  #connect(): Promise<void> {
    if (this.#client !== null || this.#closed) return Promise.resolve()
    this.#connecting ??= (async () => {
      const client = new pg.Client(this.#config)
      // Listeners first: a drop during connect or LISTEN is an 'error' event too.
      client.on('error', (error) => this.#lost(client, error))
      client.on('end', () => this.#lost(client))
      client.on('notification', (message) => {
        for (const listener of this.#listeners.get(message.channel) ?? []) {
          listener(message.payload ?? '')
        }
      })
      try {
        await client.connect()
        for (const channel of this.#listeners.keys()) await client.query(`LISTEN ${channel}`)
      } catch (error) {
        await client.end().catch(() => {})
        throw error
      }
      if (this.#closed) await client.end().catch(() => {})
      else this.#client = client
    })().finally(() => (this.#connecting = null))
    return this.#connecting
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client) return
    this.#client = null
    client.end().catch(() => {})
    if (this.#closed) return
    this.#lostAt = performance.now()
    this.#runtime().logger.warn(
      { err: error },
      'database notifications connection lost; reconnecting (announcements are polled meanwhile)',
    )
    this.#reconnectLater()
  }

  #reconnectLater(): void {
    if (this.#closed) return
    const delay = this.#refused
      ? RECONNECT_BACKOFF.maxMs
      : backoffMs(this.#failures, RECONNECT_BACKOFF)
    this.#retry = setTimeout(() => void this.#reconnect(), delay)
  }

  async #reconnect(): Promise<void> {
    const { logger, fatal } = this.#runtime()
    try {
      await this.#connect()
    } catch (error) {
      this.#failures++
      if (isRefusedForGood(error) && !this.#refused) {
        this.#refused = true
        const reason = error instanceof Error ? error.message : String(error)
        fatal(new Error(`The database refuses this process: ${reason}`, { cause: error }))
      } else if (Number.isInteger(Math.log2(this.#failures))) {
        // The 1st, 2nd, 4th, 8th... failure: a long outage is logged, not one line per attempt.
        logger.warn({ err: error, failures: this.#failures }, 'database reconnection failed')
      }
      this.#reconnectLater()
      return
    }
    if (this.#closed) return
    logger.info(
      {
        failures: this.#failures,
        downMs: this.#lostAt === null ? 0 : Math.round(performance.now() - this.#lostAt),
      },
      'database notifications connection restored',
    )
    this.#failures = 0
    this.#refused = false
    this.#lostAt = null
  }
}
