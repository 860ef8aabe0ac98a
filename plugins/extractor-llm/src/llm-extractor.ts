import { EngramError, type ExtractedGraph, type Extractor } from '@engram/core'
import { postChatCompletion, type ChatEndpoint, type ChatMessage } from './chat-completion.js'
import {
  checkReferences,
  extractionJsonSchema,
  extractionOutput,
  type ExtractionOutput,
} from './extraction-output.js'
import { extractionMessages, repairMessages } from './extraction-prompt.js'
import { toExtractedGraph, type AnsweredBatch } from './to-extracted-graph.js'

export interface LlmExtractorOptions {
  /** API root of an OpenAI-compatible server: `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama), ... */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer`; never logged or quoted in errors. Omit for local servers. */
  apiKey?: string
  /** Default 0: a task may run twice and should extract the same graph. */
  temperature?: number
  /** Sent as `seed` when set (best-effort determinism on servers that support it). */
  seed?: number
  /** Retries after the first attempt on 408/409/429/5xx, network errors and timeouts (default 3). */
  maxRetries?: number
  /** Per request (default 120000). */
  timeoutMs?: number
  /** Backoff base and cap in ms (defaults 500 and 8000, as the OpenAI Node client). */
  retryBaseMs?: number
  retryMaxMs?: number
  /** A Retry-After above this (default 60000 ms) fails at once instead of holding a worker. */
  maxRetryAfterMs?: number
  /** Passage characters per request (default 12000); one passage is never split. */
  batchChars?: number
  /** Injected transport (tests, proxies); the global fetch by default. */
  fetch?: typeof fetch
}

type Passage = { id: string; text: string }

/**
 * Extractor for any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, LM Studio)
 * using JSON-schema structured output (`response_format: { type: 'json_schema', strict: true }`,
 * https://platform.openai.com/docs/guides/structured-outputs). Passages go in batches, each cited by
 * a short ref; the answer is validated with zod, and an unusable answer gets one repair request
 * quoting its problems before the task fails. Token usage of every request (repairs included) is
 * summed into `usage`, which the pipeline records on the task.
 */
export function llmExtractor(options: LlmExtractorOptions): Extractor {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl))
    throw new EngramError(
      'VALIDATION_ERROR',
      `LLM extractor: baseUrl '${baseUrl}' is not an http(s) URL.`,
      {
        resolution: 'Set EXTRACTOR_URL to the API root, e.g. https://api.openai.com/v1.',
      },
    )
  if (options.model.trim() === '')
    throw new EngramError('VALIDATION_ERROR', 'LLM extractor: model is empty.', {
      resolution: 'Set EXTRACTOR_MODEL to a model the endpoint serves.',
    })
  const endpoint: ChatEndpoint = {
    url: `${baseUrl}/chat/completions`,
    model: options.model,
    apiKey: options.apiKey || undefined,
    maxRetries: options.maxRetries ?? 3,
    timeoutMs: options.timeoutMs ?? 120_000,
    backoff: {
      baseMs: options.retryBaseMs ?? 500,
      maxMs: options.retryMaxMs ?? 8000,
      jitter: 'quarter',
    },
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    fetch: options.fetch ?? globalThis.fetch,
  }
  const where = `${endpoint.url} (model '${endpoint.model}')`
  const responseFormat = {
    type: 'json_schema',
    json_schema: { name: 'knowledge_graph', strict: true, schema: extractionJsonSchema() },
  }
  const batchChars = options.batchChars ?? 12_000

  return {
    kind: 'extractor',
    name: 'llm',
    async extract(input, ctx) {
      const usage = { promptTokens: 0, completionTokens: 0 }
      const complete = async (messages: ChatMessage[]) => {
        const answer = await postChatCompletion(
          endpoint,
          {
            model: endpoint.model,
            messages,
            temperature: options.temperature ?? 0,
            ...(options.seed === undefined ? {} : { seed: options.seed }),
            response_format: responseFormat,
            stream: false,
          },
          ctx.signal,
        )
        usage.promptTokens += answer.usage.promptTokens
        usage.completionTokens += answer.usage.completionTokens
        if (answer.refusal !== null)
          throw new EngramError(
            'INTERNAL_ERROR',
            `LLM extractor: ${where} refused: ${answer.refusal.slice(0, 300)}`,
          )
        return answer
      }

      const extractBatch = async (passages: Passage[]): Promise<AnsweredBatch[]> => {
        const refs = passages.map((p, i) => ({ ref: `p${i + 1}`, text: p.text, id: p.id }))
        const known = new Set(refs.map((r) => r.ref))
        const messages = extractionMessages({ ...input, passages: refs })
        let answer = await complete(messages)
        let checked = answer.finishReason === 'length' ? null : check(answer.content, known)
        if (checked === null && passages.length > 1) {
          // Cut off at the output limit: half as much text per request.
          const half = Math.ceil(passages.length / 2)
          return [
            ...(await extractBatch(passages.slice(0, half))),
            ...(await extractBatch(passages.slice(half))),
          ]
        }
        if (checked === null || !checked.ok) {
          const issues = checked?.issues ?? ['the answer was cut off at the output token limit']
          answer = await complete(repairMessages(messages, answer.content ?? '', issues))
          checked = check(answer.content, known)
          if (!checked.ok)
            throw new EngramError(
              'INTERNAL_ERROR',
              `LLM extractor: ${where} answered twice with output that does not match the extraction schema: ${checked.issues.slice(0, 5).join('; ')}`,
              {
                resolution:
                  'Use a model that supports JSON-schema structured output, or smaller chunks.',
              },
            )
        }
        return [{ output: checked.output, passageIds: new Map(refs.map((r) => [r.ref, r.id])) }]
      }

      const answered: AnsweredBatch[] = []
      for (const batch of batches(input.passages, batchChars)) {
        ctx.signal.throwIfAborted()
        answered.push(...(await extractBatch(batch)))
      }
      const graph: ExtractedGraph = { ...toExtractedGraph(answered, input.observateFor), usage }
      return graph
    },
  }
}

/** Parses and validates one answer; tolerates a Markdown code fence around the JSON. */
function check(
  content: string | null,
  passageRefs: Set<string>,
): { ok: true; output: ExtractionOutput } | { ok: false; issues: string[] } {
  const text = (content ?? '')
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { ok: false, issues: [`not valid JSON (${(error as Error).message})`] }
  }
  const parsed = extractionOutput.safeParse(json)
  if (!parsed.success)
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`),
    }
  const issues = checkReferences(parsed.data, passageRefs)
  return issues.length === 0 ? { ok: true, output: parsed.data } : { ok: false, issues }
}

/** Consecutive passages up to `maxChars` of text per batch (at least one passage each). */
function batches(passages: Passage[], maxChars: number): Passage[][] {
  const out: Passage[][] = []
  let current: Passage[] = []
  let size = 0
  for (const passage of passages) {
    if (current.length > 0 && size + passage.text.length > maxChars) {
      out.push(current)
      current = []
      size = 0
    }
    current.push(passage)
    size += passage.text.length
  }
  if (current.length > 0) out.push(current)
  return out
}
