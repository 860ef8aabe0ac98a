/** Where the CLI's client commands send requests, and as whom. */
export interface ClientOptions {
  /** Server root including any BASE_PATH, without a trailing slash. */
  url: string
  /** System or brain token; sent as `ServicePAT`. */
  token: string | null
  /** Sent as `X-Brain-ID` when set. */
  brain: string | null
}

/** An error answered by the server, in the contract's envelope. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly resolution: string | null,
  ) {
    super(message)
    this.name = 'ServerError'
  }
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

/** One request to the REST API; resolves with the parsed JSON body, throws `ServerError` otherwise. */
export async function callApi<T>(
  options: ClientOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: FormData | Record<string, unknown>,
): Promise<T> {
  const headers: Record<string, string> = {}
  if (options.token !== null) headers.ServicePAT = options.token
  if (options.brain !== null) headers['X-Brain-ID'] = options.brain
  let payload: FormData | string | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let response: Response
  try {
    response = await fetch(`${options.url}${path}`, { method, headers, body: payload })
  } catch (error) {
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : ''
    throw new ServerError(
      0,
      'UNREACHABLE',
      `cannot reach ${options.url}${reason ? ` (${reason})` : ''}`,
      'Start the server with `npm start`, or pass --url.',
    )
  }
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text === '' ? null : JSON.parse(text)
  } catch {
    // not JSON: reported below by status
  }
  if (response.ok) return parsed as T
  const envelope = (parsed as { error?: { code?: string; message?: string; resolution?: string } })
    ?.error
  throw new ServerError(
    response.status,
    envelope?.code ?? 'HTTP_ERROR',
    envelope?.message ?? `HTTP ${response.status}`,
    envelope?.resolution ?? null,
  )
}
