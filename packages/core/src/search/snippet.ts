/** Longest snippet a hit carries (CONTRACT.md section 7). */
export const MAX_SNIPPET = 240

/**
 * Whitespace runs other than a lone space: a run that starts with another whitespace character, or a
 * space followed by more whitespace. Replacing these with one space and trimming is `/\s+/g` -> ' ',
 * but a long passage has hundreds of lone spaces and few other runs, so this rewrites (and allocates)
 * far less: about a third of the cost on SciFact passages.
 */
const WHITESPACE_RUN = /[^\S ]\s*| \s+/g

/**
 * A snippet builder for one query (terms of 3+ characters, lower-cased and deduplicated once); call it
 * per hit.
 */
export function snippetMaker(queryTerms: readonly string[] = []): (text: string) => string {
  const terms = [...new Set(queryTerms.filter((t) => t.length >= 3).map((t) => t.toLowerCase()))]
  return (text) => snippetOf(text, terms)
}

/**
 * A snippet of at most 240 characters: the text itself when short, else a window around the first
 * query term found (so the hit shows why it matched), cut at word boundaries with an ellipsis.
 */
export function makeSnippet(text: string, queryTerms: readonly string[] = []): string {
  return snippetMaker(queryTerms)(text)
}

/** Where the first of `terms` occurs in `lower` (-1 for none). */
function firstOccurrence(lower: string, terms: readonly string[]): number {
  let at = -1
  for (const term of terms) {
    // Once a term was found at `at`, later terms only matter if they start before it: search that
    // prefix only, so most terms scan a few dozen characters rather than the whole passage.
    const i = at < 0 ? lower.indexOf(term) : lower.slice(0, at - 1 + term.length).indexOf(term)
    if (i >= 0 && (at < 0 || i < at)) at = i
  }
  return at
}

function snippetOf(text: string, terms: readonly string[]): string {
  const clean = text.replace(WHITESPACE_RUN, ' ').trim()
  if (clean.length <= MAX_SNIPPET) return clean
  const at = terms.length === 0 ? -1 : firstOccurrence(clean.toLowerCase(), terms)
  let start = at < 0 ? 0 : Math.max(0, at - 60)
  if (start > 0) {
    const space = clean.indexOf(' ', start)
    start = space >= 0 && space < at ? space + 1 : start
  }
  const prefix = start > 0 ? '…' : ''
  const budget = MAX_SNIPPET - prefix.length - 1
  let body = clean.slice(start, start + budget)
  if (start + budget < clean.length) {
    const space = body.lastIndexOf(' ')
    if (space > budget * 0.6) body = body.slice(0, space)
    return `${prefix}${body}…`
  }
  return `${prefix}${clean.slice(start, start + MAX_SNIPPET - prefix.length)}`
}
