import { oneSpaced, WHITESPACE_RUN } from '../analysis/one-spaced.js'

/** Longest snippet a hit carries (CONTRACT.md section 7). */
export const MAX_SNIPPET = 240

/**
 * A snippet builder for one query (terms of 3+ characters, lower-cased and deduplicated once); call it
 * per hit.
 */
export function snippetMaker(queryTerms: readonly string[] = []): (text: string) => string {
  const terms = [...new Set(queryTerms.filter((t) => t.length >= 3).map((t) => t.toLowerCase()))]
  const first = firstOccurrence(terms)
  return (text) => snippetOf(text, first)
}

/**
 * A snippet of at most 240 characters: the text itself when short, else a window around the first
 * query term found (so the hit shows why it matched), cut at word boundaries with an ellipsis.
 */
export function makeSnippet(text: string, queryTerms: readonly string[] = []): string {
  return snippetMaker(queryTerms)(text)
}

/** Where in a text the first of the query's terms occurs, ignoring case (-1 for none). */
type FirstOccurrence = (text: string) => number

/**
 * One case-insensitive alternation of the terms, compiled once per query: its leftmost match is the first
 * occurrence of any term. Searching a lower-cased copy of each hit's text instead allocated the whole
 * passage again per hit (a thirteenth of a default search's allocation on SciFact).
 */
function firstOccurrence(terms: readonly string[]): FirstOccurrence {
  if (terms.length === 0) return () => -1
  const pattern = new RegExp(
    terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'i',
  )
  return (text) => text.search(pattern)
}

/** Texts longer than this are cleaned only around their snippet (`snippetWindow`). */
const WINDOWED_ABOVE = 3 * MAX_SNIPPET
/** Characters the window starts with before the first term, and after it (each grows 4x while short). */
const BEFORE = 80
const AFTER = MAX_SNIPPET + 16

function snippetOf(text: string, first: FirstOccurrence): string {
  if (text.length > WINDOWED_ABOVE) {
    const windowed = snippetWindow(text, first)
    if (windowed !== null) return windowed
  }
  const clean = oneSpaced(text)
  if (clean.length <= MAX_SNIPPET) return clean
  const at = first(clean)
  return cut(clean, at < 0 ? 0 : at, true)
}

/**
 * The snippet `snippetOf` makes from the whole cleaned text, made from a window of it: collapsing every
 * whitespace run of a 1,500-character SciFact passage was more than half of a snippet's cost (~12 us of
 * ~23 us on a 2-core AMD host), and a snippet reads at most 61 characters before the first term and 241
 * after it. The first term is found in the raw text (a term has no whitespace, so it occurs where it does
 * in the cleaned text, in the same order), and only the raw text around it is cleaned: a piece that
 * starts at the text's start or at a non-whitespace character and ends at one or at the text's end
 * splits no whitespace run, so it cleans to exactly the cleaned text's corresponding part. Null when the
 * window shows the whole cleaned text to be short (`snippetOf` then cleans it all).
 */
function snippetWindow(text: string, first: FirstOccurrence): string | null {
  const found = first(text)
  const at = found < 0 ? 0 : found
  let before = ''
  let from = at
  for (let reach = BEFORE; from > 0 && before.length <= 60; reach *= 4) {
    from = Math.max(0, at - reach)
    while (from > 0 && isWhitespace(text.charCodeAt(from))) from++
    before = cleanPiece(text, from, at)
  }
  let after = ''
  let to = at
  for (let reach = AFTER; to < text.length && after.length <= MAX_SNIPPET + 1; reach *= 4) {
    to = Math.min(text.length, at + reach)
    while (to < text.length && isWhitespace(text.charCodeAt(to))) to++
    after = cleanPiece(text, at, to)
  }
  const window = before + after
  // Longer than a snippet here, so the whole cleaned text is too; when `from` > 0 the window holds more
  // than 60 characters before the term, so the snippet starts after the text's first character.
  if (window.length <= MAX_SNIPPET) return null
  return cut(window, before.length, from === 0)
}

/** `text[from, to)` with its whitespace runs collapsed, trimmed where it is the text's start or end. */
function cleanPiece(text: string, from: number, to: number): string {
  let piece = text.slice(from, to).replace(WHITESPACE_RUN, ' ')
  if (from === 0) piece = piece.trimStart()
  if (to === text.length) piece = piece.trimEnd()
  return piece
}

/** The characters `\s` matches (and `trim` removes). */
function isWhitespace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  )
}

/**
 * The snippet of a cleaned `clean` longer than `MAX_SNIPPET`: a window from about 60 characters before
 * `at` (0: the start), cut at word boundaries with an ellipsis. `startsText`: `clean` begins where the
 * cleaned text does (else it is a window holding more than 60 characters before `at`).
 */
function cut(clean: string, at: number, startsText: boolean): string {
  let start = startsText ? Math.max(0, at - 60) : at - 60
  const cutBefore = start > 0 || !startsText
  if (cutBefore) {
    const space = clean.indexOf(' ', start)
    start = space >= 0 && space < at ? space + 1 : start
  }
  const prefix = cutBefore ? '…' : ''
  const budget = MAX_SNIPPET - prefix.length - 1
  let body = clean.slice(start, start + budget)
  if (start + budget < clean.length) {
    const space = body.lastIndexOf(' ')
    if (space > budget * 0.6) body = body.slice(0, space)
    return `${prefix}${body}…`
  }
  return `${prefix}${clean.slice(start, start + MAX_SNIPPET - prefix.length)}`
}
