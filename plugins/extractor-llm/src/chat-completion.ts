import { backoffMs, EngramError, retryAfterMs, sleep, type BackoffOptions } from '@engram/core'
import { z } from 'zod'

/** Where and how to call one OpenAI-compatible chat-completions endpoint. */
export interface ChatEndpoint {
  /** Full URL of `POST /chat/completions`. */
  url: string
  model: string
  apiKey: string | undefined
  /** Retries after the first attempt, on 408/409/429/5xx, network errors and timeouts. */
  maxRetries: number
  /** Per attempt. */
  timeoutMs: number
  backoff: BackoffOptions
  /** A Retry-After longer than this fails at once instead of holding a worker. */
  maxRetryAfterMs: number
  fetch: typeof fetch
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatAnswer {
  content: string | null
  refusal: string | null
  finishReason: string | null
  usage: { promptTokens: number; completionTokens: number }
}

// The fields read from a chat completion object (https://platform.openai.com/docs/api-reference/chat/object).
const chatResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
    .nullish(),
})

const RETRYABLE = new Set([408, 409, 429])
const MAX_UPSTREAM_TEXT = 300

/**
 * One chat completion (https://platform.openai.com/docs/api-reference/chat/create), retried with
 * exponential backoff on 408/409/429/5xx, network errors and timeouts, honouring `retry-after-ms` and
 * `Retry-After`. Aborting `signal` stops at once, also while waiting, and rethrows its reason.
 * The API key travels only in the Authorization header; upstream text quoted in errors is redacted.
 */
export async function postChatCompletion(
  endpoint: ChatEndpoint,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ChatAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  }
  if (endpoint.apiKey !== undefined) headers.authorization = `Bearer ${endpoint.apiKey}`
  const where = `${endpoint.url} (model '${endpoint.model}')`
  const redact = (text: string) =>
    (endpoint.apiKey ? text.split(endpoint.apiKey).join('[redacted]') : text).slice(
      0,
      MAX_UPSTREAM_TEXT,
    )

  let lastFailure = ''
  for (let attempt = 0; attempt <= endpoint.maxRetries; attempt++) {
    signal.throwIfAborted()
    const attemptSignal = AbortSignal.any([signal, AbortSignal.timeout(endpoint.timeoutMs)])
    let response: Response
    let text: string
    try {
      response = await endpoint.fetch(endpoint.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: attemptSignal,
      })
      text = await response.text()
    } catch (error) {
      signal.throwIfAborted()
      lastFailure = attemptSignal.aborted
        ? `no answer within ${endpoint.timeoutMs} ms`
        : `network error: ${redact(error instanceof Error ? error.message : String(error))}`
      if (attempt < endpoint.maxRetries) await sleep(backoffMs(attempt, endpoint.backoff), signal)
      continue
    }

    if (response.ok) return parseAnswer(text, where)

    lastFailure = `HTTP ${response.status}: ${redact(upstreamMessage(text))}`
    if (!RETRYABLE.has(response.status) && response.status < 500)
      throw clientError(response.status, where, lastFailure)
    if (attempt === endpoint.maxRetries) break
    const asked = retryAfterMs(response.headers)
    if (asked !== null && asked > endpoint.maxRetryAfterMs) {
      throw new EngramError(
        'SERVICE_UNAVAILABLE',
        `LLM extractor: ${where} asked to retry after ${Math.ceil(asked / 1000)} s (${lastFailure}).`,
        {
          retryAfter: Math.ceil(asked / 1000),
          resolution: 'The endpoint is rate limiting or out of quota; retry the ingestion later.',
        },
      )
    }
    await sleep(asked ?? backoffMs(attempt, endpoint.backoff), signal)
  }
  throw new EngramError(
    'SERVICE_UNAVAILABLE',
    `LLM extractor: ${where} failed ${endpoint.maxRetries + 1} times; last: ${lastFailure}.`,
    {
      resolution:
        'Check that the endpoint is running and serves the model; raise maxRetries for a busy endpoint.',
    },
  )
}

function parseAnswer(text: string, where: string): ChatAnswer {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const parsed = chatResponse.safeParse(json)
  if (!parsed.success) {
    throw new EngramError(
      'INTERNAL_ERROR',
      `LLM extractor: ${where} did not answer with a chat completion object.`,
      { resolution: 'EXTRACTOR_URL must point at the API root of an OpenAI-compatible server.' },
    )
  }
  const choice = parsed.data.choices[0]!
  return {
    content: choice.message.content ?? null,
    refusal: choice.message.refusal ?? null,
    finishReason: choice.finish_reason ?? null,
    usage: {
      promptTokens: parsed.data.usage?.prompt_tokens ?? 0,
      completionTokens: parsed.data.usage?.completion_tokens ?? 0,
    },
  }
}

/** The `error.message` of an OpenAI-style error body, else the raw text. */
function upstreamMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string }
    if (typeof body.error === 'string') return body.error
    if (typeof body.error?.message === 'string') return body.error.message
  } catch {
    // not JSON: quote it as is
  }
  return text.trim()
}

function clientError(status: number, where: string, failure: string): EngramError {
  const resolution =
    status === 401 || status === 403
      ? 'Set EXTRACTOR_API_KEY (apiKey) to a key this endpoint accepts.'
      : status === 404
        ? 'Check EXTRACTOR_URL (the API root, e.g. https://api.openai.com/v1) and EXTRACTOR_MODEL.'
        : 'Use a server and model that support response_format json_schema (OpenAI, Ollama, vLLM, LM Studio).'
  return new EngramError(
    'INTERNAL_ERROR',
    `LLM extractor: ${where} refused the request: ${failure}.`,
    {
      resolution,
    },
  )
}
