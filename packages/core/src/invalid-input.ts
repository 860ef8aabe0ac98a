import type { z } from 'zod'
import { EngramError } from './errors.js'

type Loc = (string | number)[]

/** The `type` a custom check gave its issue (`mapProblem`'s `map_too_deep`...), else zod's code. */
function issueType(issue: z.ZodError['issues'][number]): string {
  if (issue.code === 'custom') {
    const type = (issue.params as { type?: unknown } | undefined)?.type
    if (typeof type === 'string') return type
  }
  return issue.code
}

const named = (loc: Loc) => loc.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.')

/**
 * A VALIDATION_ERROR (422) for input that failed a zod schema outside HTTP (the library, the engine's
 * own checks), shaped as REST's: `detail` lists `{loc, msg, type}`, and the message names the first
 * bad field so that a thrown error reads on its own (`search: k: Too big: expected number to be <=200`).
 *
 * @param what the call, for the message (`createEngram`, `search`).
 * @param at where the schema's input sits, prefixed to every `loc` (`['options']`).
 */
export function invalidInput(what: string, error: z.ZodError, at: Loc = []): EngramError {
  const detail = error.issues.map((issue) => ({
    loc: [...at, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issueType(issue),
  }))
  const first = detail[0]!
  const more = detail.length > 1 ? ` (and ${detail.length - 1} more)` : ''
  const where = first.loc.length > 0 ? `${named(first.loc)}: ` : ''
  return new EngramError('VALIDATION_ERROR', `${what}: ${where}${first.msg}${more}`, {
    status: 422,
    detail,
  })
}

/** `schema.parse(value)`, throwing {@link invalidInput} instead of a ZodError. */
export function parseInput<S extends z.ZodType>(
  what: string,
  schema: S,
  value: unknown,
  at: Loc = [],
): z.output<S> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw invalidInput(what, parsed.error, at)
  return parsed.data
}
