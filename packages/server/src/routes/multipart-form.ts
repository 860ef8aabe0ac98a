import type { FastifyRequest } from 'fastify'
import { EngramError } from '@engram/core'

export interface MultipartFile {
  filename: string
  mimeType: string
  bytes: Buffer
}

export interface MultipartForm {
  fields: Record<string, string>
  file: MultipartFile | null
}

export interface MultipartLimits {
  fileBytes: number
  fields: number
  fieldBytes: number
}

/** Longest boundary the multipart parser can search for (its needle, `\r\n--` + boundary, <= 256). */
const MAX_BOUNDARY = 252

/** The `boundary` parameter of a multipart content type, unquoted; null when there is none. */
function multipartBoundary(contentType: string | undefined): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '')
  const value = match?.[1] ?? match?.[2] ?? ''
  return value.length > 0 ? value : null
}

function invalid(loc: string[], msg: string, type: string, cause?: unknown): EngramError {
  return new EngramError('VALIDATION_ERROR', `Malformed multipart body: ${msg}.`, {
    status: 422,
    detail: [{ loc, msg, type }],
    cause,
  })
}

/**
 * Reads a multipart/form-data body: its text fields and the one file part named `file`. A body the
 * parser cannot read answers 4xx, never 500: no boundary, or one over 252 characters, 422 naming the
 * content type; a truncated or broken body, 422; over a limit (file size, more than `fields`
 * fields, a second file), 413.
 */
export async function readMultipartForm(
  request: FastifyRequest,
  limits: MultipartLimits,
): Promise<MultipartForm> {
  const boundary = multipartBoundary(request.headers['content-type'])
  if (boundary === null || boundary.length > MAX_BOUNDARY)
    throw invalid(
      ['header', 'content-type'],
      `the content type needs a boundary of 1..${MAX_BOUNDARY} characters`,
      'multipart_boundary',
    )
  // One field over the limit is read, so that the limit is reported as such rather than as the
  // parser's side effects (it closes the part being read when its own limit trips).
  const parts = request.parts({
    limits: {
      fileSize: limits.fileBytes,
      files: 1,
      fields: limits.fields + 1,
      fieldSize: limits.fieldBytes,
    },
  })
  const fields: Record<string, string> = {}
  let file: MultipartFile | null = null
  let fieldCount = 0
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file !== null) {
          await part.toBuffer()
          const msg = 'send exactly one file, in the part named `file`'
          throw new EngramError('VALIDATION_ERROR', msg, {
            status: 422,
            detail: [{ loc: ['body', part.fieldname], msg, type: 'value_error' }],
          })
        }
        file = { filename: part.filename, mimeType: part.mimetype, bytes: await part.toBuffer() }
      } else {
        if (++fieldCount > limits.fields)
          throw new EngramError(
            'PAYLOAD_TOO_LARGE',
            `The multipart body has more than ${limits.fields} fields.`,
            {
              resolution: 'Send the part `file` and at most the fields `brain_id` and `meta_keys`.',
            },
          )
        if (typeof part.value === 'string') fields[part.fieldname] = part.value
      }
    }
  } catch (error) {
    if (error instanceof EngramError) throw error
    // The plugin's limit errors (file size, files, parts: 413) keep their mapping.
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code === 'string' && code.startsWith('FST_')) throw error
    // Anything else here is the parser failing on the bytes it was sent: truncated or broken.
    throw invalid(
      ['body'],
      'the body is truncated or not valid multipart/form-data',
      'multipart_invalid',
      error,
    )
  }
  return { fields, file }
}
