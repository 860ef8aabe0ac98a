/** Longest snippet a hit carries (CONTRACT.md section 7). */
export const MAX_SNIPPET = 240

/**
 * A snippet of at most 240 characters: the text itself when short, else a window around the first
 * query term found (so the hit shows why it matched), cut at word boundaries with an ellipsis.
 */
export function makeSnippet(text: string, queryTerms: readonly string[] = []): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= MAX_SNIPPET) return clean
  const lower = clean.toLowerCase()
  let at = -1
  for (const term of queryTerms) {
    if (term.length < 3) continue
    const i = lower.indexOf(term.toLowerCase())
    if (i >= 0 && (at < 0 || i < at)) at = i
  }
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
