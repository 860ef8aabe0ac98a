import type { FastifyInstance } from 'fastify'
import { EngramError } from '@engram/core'
import { registerBodyDecoding } from './body-decoding.js'

/**
 * Deepest nesting (objects and arrays) a JSON request body may have. The deepest body the contract
 * needs is a structured item's map, 32 levels (CONTRACT.md section 1), under four of the body's own;
 * 64 leaves room while keeping every later walk of the value (validation, cloning, serialising,
 * SQLite's JSON functions, limited to 1,000) far from its limits.
 */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * Whether JSON text nests deeper than `limit`, in one linear scan that stops as soon as it does.
 * Strings are skipped with `indexOf` (native speed; a quote preceded by an odd run of backslashes is
 * escaped), so a 10 MB body of text costs a few milliseconds. Malformed text is not judged here: the
 * parser that runs next rejects it.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1)
      while (end !== -1) {
        let slashes = 0
        for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) slashes++
        if (slashes % 2 === 0) break
        end = text.indexOf('"', end + 1)
      }
      if (end === -1) return false
      i = end
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--
    }
  }
  return false
}

/**
 * How the server reads a JSON body. A body sent with `Content-Encoding: gzip` or `deflate` is decoded
 * first, within the body limit (`registerBodyDecoding`, which covers every content type). Then
 * Fastify's `application/json` parser is replaced with one that first bounds the nesting of the body
 * (422 VALIDATION_ERROR past MAX_JSON_DEPTH), then parses with Fastify's own parser, keeping its
 * prototype-poisoning checks and its errors for empty and invalid bodies. Nothing deeper than the
 * bound reaches a handler, so no code downstream can overflow the stack on a request body.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  registerBodyDecoding(app)
  const maxDepth = MAX_JSON_DEPTH
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    if (jsonNestsDeeperThan(text, maxDepth)) {
      done(
        new EngramError('VALIDATION_ERROR', `The JSON body nests deeper than ${maxDepth} levels.`, {
          status: 422,
          detail: [
            {
              loc: ['body'],
              msg: `nested deeper than ${maxDepth} levels (objects and arrays)`,
              type: 'json_too_deep',
            },
          ],
        }),
        undefined,
      )
      return
    }
    parse(request, text, done)
  })
}
