import { createEngramClient, type EngramClient } from '@engram/client'

/** Where the CLI's client commands send requests, and as whom. */
export interface ClientOptions {
  /** Server root including any BASE_PATH, without a trailing slash. */
  url: string
  /** System or brain token; sent as `ServicePAT`. */
  token: string | null
  /** Sent as `X-Brain-ID` when set. */
  brain: string | null
}

/** Client options from flags, then the environment (`ENGRAM_URL`, `ENGRAM_TOKEN`, `SERVICEPAT_TOKEN`). */
export function clientOptions(
  flags: { url?: string; token?: string; brain?: string },
  env: NodeJS.ProcessEnv,
): ClientOptions {
  const base =
    flags.url ??
    env.ENGRAM_URL ??
    `http://${env.HOST && env.HOST !== '0.0.0.0' ? env.HOST : '127.0.0.1'}:${env.PORT ?? '8000'}${env.BASE_PATH ?? ''}`
  return {
    url: base.replace(/\/+$/, ''),
    token: flags.token ?? env.ENGRAM_TOKEN ?? env.SERVICEPAT_TOKEN ?? null,
    brain: flags.brain ?? null,
  }
}

/** The CLI's @engram/client: the spec's retry rule for 429/503, errors as the client's EngramError. */
export function cliClient(options: ClientOptions): EngramClient {
  return createEngramClient({ baseUrl: options.url, token: options.token, brain: options.brain })
}
