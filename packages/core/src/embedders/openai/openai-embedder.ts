import type { Embedder } from '../../contracts/embedder.js'
import { EngramError } from '../../errors.js'
import { l2Normalize } from '../l2-normalize.js'
import { VectorCache } from '../vector-cache.js'
import { readEmbeddingsResponse } from './embeddings-response.js'
import { retryDelay, sleep } from '../../retry-delay.js'

export interface OpenAIEmbedderOptions {
  /**
   * The server's base URL. Requests go to `{baseUrl}/v1/embeddings`, or to `{baseUrl}/embeddings` when it
   * already ends in `/v1` (the form the OpenAI SDKs take), so `http://localhost:11434` and
   * `http://localhost:11434/v1` both work.
   */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer <apiKey>`; never logged or put in error messages. */
  apiKey?: string
  /** Vector length; required unless the model is a known OpenAI one. Responses of another length are refused. */
  dimension?: number
  /** Inputs per request. Default 64. */
  batchSize?: number
  /** Retries after a 429, a 5xx, a timeout or a connection failure. Default 4. */
  maxRetries?: number
  /** First backoff step and the cap on any wait (also on `Retry-After`), ms. Defaults 500 and 30,000. */
  retryBaseMs?: number
  retryMaxMs?: number
  /** Per-request timeout, ms. Default 60,000. */
  timeoutMs?: number
  /** Vectors kept in the content-hash LRU. Default 10,000; 0 disables it. */
  cacheSize?: number
  /** The fetch to use (tests, proxies). Default: the global fetch. */
  fetch?: typeof fetch
}

const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
}

/** The URL embeddings are posted to: `/v1/embeddings` under the base URL, without doubling a trailing `/v1`. */
export function embeddingsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '')
  return /\/v1$/.test(base) ? `${base}/embeddings` : `${base}/v1/embeddings`
}

/**
 * An embedder for any server speaking the OpenAI embeddings protocol
 * (https://platform.openai.com/docs/api-reference/embeddings/create): OpenAI, Ollama, vLLM, TEI, LM Studio.
 * Batches inputs, retries 429/5xx/network failures with backoff (honouring `Retry-After`), checks every
 * response and L2-normalises the vectors (not every server does).
 */
export function openaiEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const url = embeddingsUrl(options.baseUrl)
  const shownUrl = withoutCredentials(url)
  const dimension = options.dimension ?? KNOWN_DIMENSIONS[options.model]
  if (dimension === undefined || !Number.isInteger(dimension) || dimension < 1) {
    throw new EngramError(
      'VALIDATION_ERROR',
      `The openai embedder needs the vector dimension of model '${options.model}'.`,
      {
        status: 400,
        resolution: 'Set the dimension (EMBEDDER_DIMENSION) to the model output size.',
      },
    )
  }
  const batchSize = Math.max(1, options.batchSize ?? 64)
  const maxRetries = Math.max(0, options.maxRetries ?? 4)
  const backoff = {
    baseMs: options.retryBaseMs ?? 500,
    maxMs: options.retryMaxMs ?? 30_000,
    jitter: 'full',
  } as const
  const timeoutMs = options.timeoutMs ?? 60_000
  const doFetch = options.fetch ?? fetch
  const cache = new VectorCache(options.cacheSize ?? 10_000)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`
  const redact = (text: string) =>
    options.apiKey ? text.replaceAll(options.apiKey, '[redacted]') : text

  const unavailable = (message: string, cause?: unknown, retryAfter?: number) =>
    new EngramError(
      'SERVICE_UNAVAILABLE',
      redact(`The openai embedder at ${shownUrl}: ${message}.`),
      {
        cause,
        retryAfter,
        resolution: 'Check that EMBEDDER_URL is reachable and the server is up; retry later.',
      },
    )
  const misconfigured = (message: string) =>
    new EngramError('INTERNAL_ERROR', redact(`The openai embedder at ${shownUrl}: ${message}.`), {
      resolution:
        'Check EMBEDDER_URL (an OpenAI-compatible server), EMBEDDER_MODEL (an embedding model), EMBEDDER_API_KEY and EMBEDDER_DIMENSION.',
    })

  /** One request; a connection failure, timeout or unreadable body throws (and is retried). */
  async function attempt(body: string, signal: AbortSignal) {
    const response = await doFetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    })
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel()
      return { status: response.status, retryAfter: response.headers.get('retry-after'), text: '' }
    }
    return { status: response.status, retryAfter: null, text: await response.text() }
  }

  async function post(input: string[], signal: AbortSignal): Promise<Float32Array[]> {
    const body = JSON.stringify({ model: options.model, input })
    for (let tries = 1; ; tries++) {
      signal.throwIfAborted()
      let reply: Awaited<ReturnType<typeof attempt>>
      try {
        reply = await attempt(body, signal)
      } catch (error) {
        signal.throwIfAborted()
        if (tries > maxRetries) {
          throw unavailable(`unreachable after ${tries} attempts (${describe(error)})`, error)
        }
        await sleep(retryDelay(tries - 1, null, backoff), signal)
        continue
      }
      const { status, retryAfter, text } = reply
      if (status === 429 || status >= 500) {
        const wait = retryDelay(tries - 1, retryAfter, backoff)
        if (tries > maxRetries) {
          throw unavailable(
            `HTTP ${status} after ${tries} attempts`,
            undefined,
            Math.ceil(wait / 1000),
          )
        }
        await sleep(wait, signal)
        continue
      }
      if (status < 200 || status >= 300)
        throw misconfigured(`HTTP ${status}: ${text.slice(0, 300)}`)
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        throw misconfigured(`the response is not JSON: ${text.slice(0, 100)}`)
      }
      const vectors = readEmbeddingsResponse(json, input.length, dimension!)
      if (typeof vectors === 'string') throw misconfigured(`malformed response: ${vectors}`)
      return vectors.map((vector) => l2Normalize(vector))
    }
  }

  return {
    kind: 'embedder',
    name: `openai:${options.model}`,
    dimension,
    embed: (texts, signal) =>
      cache.through(texts, async (missing) => {
        const out: Float32Array[] = []
        for (let i = 0; i < missing.length; i += batchSize) {
          // OpenAI refuses empty strings as input.
          const batch = missing.slice(i, i + batchSize).map((text) => (text === '' ? ' ' : text))
          out.push(...(await post(batch, signal)))
        }
        return out
      }),
    forget: (texts) => cache.forget(texts),
  }
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.href
  } catch {
    return url
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? String(error)
}
