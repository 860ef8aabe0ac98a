/**
 * A small Markdown subset, parsed to a tree the console turns into DOM nodes (`markdown-view.ts`):
 * ATX headings, paragraphs, `-`/`*`/`+` and numbered lists, fenced code, `**strong**`, `*em*`,
 * `` `code` `` and `[links](https://…)`. Nothing is ever parsed as HTML: a `<b>` in a passage stays
 * the three characters. Markup that does not close (a snippet cut in the middle of `**bold`) reads
 * as plain text. Links keep only `http:` and `https:` targets; any other (`javascript:`, `data:`,
 * relative) is shown as its text without a link. Written here rather than taken from a library: the
 * console ships no dependency for it, and a subset this small is easier to prove safe than a
 * sanitiser's configuration.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }

export type Block =
  | { kind: 'heading'; level: number; children: Inline[] }
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string }

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/
const NUMBERED = /^ {0,3}\d{1,9}[.)][ \t]+(.*)$/
const FENCE = /^ {0,3}(```|~~~)/

/** The blocks of a text, in order. */
export function parseMarkdown(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const blocks: Block[] = []
  let paragraph: string[] = []
  let list: { ordered: boolean; items: string[] } | null = null
  const flush = () => {
    if (paragraph.length > 0)
      blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join(' ')) })
    paragraph = []
    if (list !== null)
      blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) })
    list = null
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = FENCE.exec(line)
    if (fence !== null) {
      flush()
      const code: string[] = []
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!))
        code.push(lines[i]!)
      blocks.push({ kind: 'code', text: code.join('\n') })
      continue
    }
    if (line.trim() === '') {
      flush()
      continue
    }
    const heading = HEADING.exec(line)
    if (heading !== null) {
      flush()
      blocks.push({
        kind: 'heading',
        level: heading[1]!.length,
        children: parseInline(heading[2]!),
      })
      continue
    }
    const bullet = BULLET.exec(line)
    const numbered = bullet === null ? NUMBERED.exec(line) : null
    const item = bullet ?? numbered
    if (item !== null) {
      const ordered = numbered !== null
      if (paragraph.length > 0 || (list !== null && list.ordered !== ordered)) flush()
      list ??= { ordered, items: [] }
      list.items.push(item[1]!)
      continue
    }
    // A line after list items continues the last item (a wrapped item); else it is paragraph text.
    if (list !== null) list.items[list.items.length - 1] += ` ${line.trim()}`
    else paragraph.push(line.trim())
  }
  flush()
  return blocks
}

/** The http(s) URL a link may point to, or null: anything else is shown as text, not followed. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw.trim())
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

const PUNCTUATION = /[!-/:-@[-`{-~]/
const WORD = /[\p{L}\p{N}]/u

/** The inline markup of one line (or of lines joined by spaces). */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = []
  let plain = ''
  const push = (node: Inline) => {
    if (plain !== '') out.push({ kind: 'text', text: plain })
    plain = ''
    out.push(node)
  }
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length && PUNCTUATION.test(text[i + 1]!)) {
      plain += text[i + 1]
      i += 2
      continue
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1)
      if (end > i + 1) {
        push({ kind: 'code', text: text.slice(i + 1, end) })
        i = end + 1
        continue
      }
    }
    if (c === '*' || c === '_') {
      const double = text[i + 1] === c
      const marker = double ? c + c : c
      // `_` only at word edges, so snake_case and file_names stay as they are.
      const opens =
        text[i + marker.length] !== undefined &&
        !/\s/.test(text[i + marker.length]!) &&
        (c === '*' || i === 0 || !WORD.test(text[i - 1]!))
      const end = opens ? closing(text, marker, i + marker.length) : -1
      if (end !== -1) {
        push({
          kind: double ? 'strong' : 'em',
          children: parseInline(text.slice(i + marker.length, end)),
        })
        i = end + marker.length
        continue
      }
    }
    if (c === '[') {
      // The target may hold one level of parentheses (Wikipedia's `Ada_(programmer)`).
      const link = /^\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/.exec(text.slice(i))
      if (link !== null) {
        const href = safeHref(link[2]!)
        const children = parseInline(link[1]!)
        if (href !== null) push({ kind: 'link', href, children })
        else for (const child of children) push(child)
        i += link[0].length
        continue
      }
    }
    plain += c
    i++
  }
  if (plain !== '') out.push({ kind: 'text', text: plain })
  return out
}

/** Where `marker` closes after `from` (not after a space, and for `_` not inside a word), or -1. */
function closing(text: string, marker: string, from: number): number {
  for (let at = text.indexOf(marker, from + 1); at !== -1; at = text.indexOf(marker, at + 1)) {
    if (/\s/.test(text[at - 1]!)) continue
    // `**` inside `*…*` is not the single marker's end; a single `*` next to another is not either.
    if (marker.length === 1 && (text[at + 1] === marker || text[at - 1] === marker)) continue
    if (marker === '_' && at + 1 < text.length && WORD.test(text[at + 1]!)) continue
    return at
  }
  return -1
}

/** The text of inline nodes without their markup (for a title or an aria-label). */
export function inlineText(nodes: readonly Inline[]): string {
  return nodes
    .map((n) => (n.kind === 'text' || n.kind === 'code' ? n.text : inlineText(n.children)))
    .join('')
}
