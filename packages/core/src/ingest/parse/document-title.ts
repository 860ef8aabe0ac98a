import { fencedCode } from '../fenced-code.js'

/**
 * The title a document gives itself, for a source sent without a `title` meta key (docs/forgetting.md).
 * Markdown: the `title` of a YAML front matter, else the first level-1 heading outside fenced code,
 * in ATX (`# Title`) or setext (`Title` over `===`) form (CommonMark 0.31, sections 4.2 and 4.3);
 * its inline markup is read as the text it shows. A heading of a lower level is a section's, not the
 * document's, so a file opening with `## Install` has no title.
 */
export function markdownTitle(text: string): string | null {
  const front = frontMatterTitle(text)
  if (front !== null) return front
  const blocks = fencedCode(text)
  let block = 0
  let paragraph: string | null = null
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf('\n', at)
    const end = newline === -1 ? text.length : newline
    while (block < blocks.length && blocks[block]![1] <= at) block++
    const inCode = block < blocks.length && blocks[block]![0] <= at
    const line = text.slice(at, end).replace(/\r$/, '')
    if (!inCode) {
      const atx = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line)
      if (atx !== null) {
        const title = inlineText(atx[1] ?? '')
        if (title !== '') return title
      } else if (paragraph !== null && /^ {0,3}=+[ \t]*$/.test(line)) {
        const title = inlineText(paragraph)
        if (title !== '') return title
      }
    }
    // A setext heading's text is the paragraph right above its underline; an underline, a rule, a
    // heading, a quote, a list item, a table row or HTML opens none.
    paragraph =
      !inCode &&
      line.trim() !== '' &&
      !/^ {0,3}(#|>|[-*+] |\d+[.)] |\||<|[=*_-]+[ \t]*$)/.test(line)
        ? paragraph === null
          ? line
          : `${paragraph} ${line}`
        : null
    at = end + 1
  }
  return null
}

/** The `title:` of a YAML front matter opening the text (`---` lines around it), unquoted. */
function frontMatterTitle(text: string): string | null {
  const front = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  if (front === null) return null
  const line = /^title:[ \t]*(.+?)[ \t]*$/m.exec(front[1]!)
  if (line === null) return null
  const value = line[1]!.replace(/^(["'])(.*)\1$/, '$2').trim()
  return value === '' ? null : value
}

/** A heading's inline Markdown as the text it shows: links, images, code, emphasis, HTML tags. */
function inlineText(source: string): string {
  return source
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_]+)[*_](?=$|[^\w*])/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim()
}
