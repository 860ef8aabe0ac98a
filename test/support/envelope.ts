import { expect } from 'vitest'

export interface Envelope {
  detail: unknown
  error: { code: string; message: string; resolution: string; request_id: string }
}

/**
 * Asserts an error answer is the envelope `{detail, error: {code, message, resolution, request_id}}`
 * with `request_id` equal to the X-Request-ID header, and returns it.
 */
export function expectEnvelope(
  answer: { status: number; requestId: string | null | undefined; body: string },
  status: number,
  code?: string,
): Envelope {
  const context = `${answer.status} ${answer.body.slice(0, 300)}`
  expect(answer.status, context).toBe(status)
  let parsed: Envelope
  try {
    parsed = JSON.parse(answer.body) as Envelope
  } catch {
    throw new Error(`not JSON: ${context}`)
  }
  expect('detail' in parsed, context).toBe(true)
  expect(parsed.error, context).toMatchObject({
    code: expect.any(String),
    message: expect.any(String),
    resolution: expect.any(String),
    request_id: expect.any(String),
  })
  if (code !== undefined) expect(parsed.error.code, context).toBe(code)
  expect(answer.requestId, context).toBe(parsed.error.request_id)
  return parsed
}

/** `expectEnvelope` for a fetch Response (reads its body). */
export async function expectFetchEnvelope(
  response: Response,
  status: number,
  code?: string,
): Promise<Envelope> {
  return expectEnvelope(
    {
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      body: await response.text(),
    },
    status,
    code,
  )
}
