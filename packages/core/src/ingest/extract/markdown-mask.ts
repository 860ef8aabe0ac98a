import type { ExtractionInput } from '../../contracts/extractor.js'
import { fencedCode, hasFence } from '../fenced-code.js'

/**
 * Markdown syntax blanked out of a passage before the local extractor reads it, character for
 * character (every syntax character becomes a space, line breaks stay), so the offsets the extractor
 * takes from the masked text still point into the stored passage. Without it a heading gave the entity
 * "# Analytical Engine", emphasis "**Ada Lovelace**" and a link its URL's words.
 *
 * Covered, by CommonMark's names (https://spec.commonmark.org/0.31.2/): ATX heading markers and their
 * closing sequences, block quote markers, bullet list markers, emphasis and strong emphasis delimiters
 * (`*`, `_`, `~~` strikethrough) at word edges, code span backticks, and inline links and images
 * (`[text](url)`, `![alt](url)`: the text stays, the brackets and destination go); fenced code blocks
 * (`fencedCode`, the chunker's rule too) are blanked whole, line breaks kept (code is not prose:
 * ingesting this project's docs made entities such as `of(entityUuid`). Ordered list markers and
 * intra-word underscores are kept: `1.` and `snake_case` are text too. A code span loses its backticks
 * only (TeX-style ``quotes'' are common).
 */
export function maskMarkdown(text: string): string {
  if (!MAYBE_MARKDOWN.test(text)) return text
  const code = hasFence(text) ? blankWithin(text, 0, fencedCode(text)) : text
  return code
    .replace(CLOSING_HASHES, blank)
    .replace(BLOCK_MARKERS, blank)
    .replace(LINK, (_all, bang: string, label: string, target: string) =>
      blank(`${bang}[`).concat(label, blank(`](${target})`)),
    )
    .replace(EMPHASIS, blank)
    .replace(BACKTICKS, blank)
}

/**
 * The texts of `input`'s passages with the code blocks blanked that the whole text they were cut from
 * (`input.text` and each passage's `start`/`end`) shows them to be inside, when that text holds a code
 * fence; `maskMarkdown` then blanks the rest of each. A chunk cut inside a fenced code block has no
 * opening fence of its own, so masked alone its code read as prose and its closing fence opened a block
 * over the prose after it (16 of the 477 chunks of this project's README and docs, before the chunker
 * kept blocks whole; a block longer than a chunk still is cut). The blocks are found by one pass over the
 * lines (`fencedCode`), not by matching the whole text, so a long text with many unclosed fences costs no
 * more than its length. Without the text or offsets, or for a passage whose offsets do not give its
 * text, each passage as it is (`maskMarkdown` finds its own blocks).
 */
export function unfencedPassageTexts(input: ExtractionInput): string[] {
  const text = input.text
  const blocks = text !== undefined && hasFence(text) ? fencedCode(text) : []
  return input.passages.map((p) => {
    if (blocks.length === 0 || p.start === undefined || p.end === undefined) return p.text
    if (text!.slice(p.start, p.end) !== p.text) return p.text
    return blankWithin(p.text, p.start, blocks)
  })
}

/**
 * `input` as a worker thread needs it: without the whole text (a long one would be copied to every
 * worker for each slice of passages), its passages' code blocks blanked first where only the whole text
 * shows them (`unfencedPassageTexts`: the worker masks the rest as it would be masked here, and still
 * sees the inline code spans, `codeSpans`).
 */
export function withoutWholeText(input: ExtractionInput): ExtractionInput {
  if (input.text === undefined) return input
  const { text, ...rest } = input
  if (!hasFence(text)) return rest
  const unfenced = unfencedPassageTexts(input)
  return { ...rest, passages: input.passages.map((p, i) => ({ id: p.id, text: unfenced[i]! })) }
}

/** `slice` (starting at `offset` in its text) with the parts inside `blocks` blanked, line breaks kept. */
function blankWithin(slice: string, offset: number, blocks: readonly [number, number][]): string {
  // The first block ending after the slice starts (blocks ascend and do not overlap): binary search, so
  // a text of many blocks and many passages costs passages x log(blocks), not their product.
  let lo = 0
  let hi = blocks.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (blocks[mid]![1] <= offset) lo = mid + 1
    else hi = mid
  }
  let out = ''
  let at = 0
  for (let b = lo; b < blocks.length && blocks[b]![0] < offset + slice.length; b++) {
    const [start, end] = blocks[b]!
    const from = Math.max(start - offset, at)
    const to = Math.min(end - offset, slice.length)
    if (to <= from) continue
    out += slice.slice(at, from) + blankKeepingLines(slice.slice(from, to))
    at = to
  }
  return out + slice.slice(at)
}

/**
 * Where the inline code spans of a markdown text hold their code (`ON DELETE CASCADE`, `createEngine`):
 * [start, end) of each span's content, backticks excluded. Only spans of one backtick each side, on one
 * line: a double backtick opens TeX's quotes as often (``Roman '', as in the`` Roman Church'': MuSiQue's
 * paragraphs are written so), which CommonMark would read as a code span. Empty without a backtick.
 */
export function codeSpans(text: string): [number, number][] {
  if (!text.includes('`')) return []
  const spans: [number, number][] = []
  for (const m of text.matchAll(CODE_SPAN)) spans.push([m.index + 1, m.index + 1 + m[1]!.length])
  return spans
}
const CODE_SPAN = /(?<!`)`(?!`)([^`\n]+)`(?!`)/g

const blank = (s: string) => ' '.repeat(s.length)
const blankKeepingLines = (s: string) => s.replace(/[^\n]/g, ' ')

/** Cheap test first: most passages (conversation turns, plain prose) carry none of these. */
const MAYBE_MARKDOWN = /[#*_~`[>]|^\s*[-+]\s/m
/** At a line start: `#`..`######` then a space, `>` quote markers, `-`/`+`/`*` bullets. */
const BLOCK_MARKERS = /^[ \t]{0,3}(?:#{1,6}(?=[ \t]|$)|(?:>[ \t]?)+|[-+*](?=[ \t]))/gm
/** An ATX heading's optional closing `#`s: ` ##` at the end of a line that began with `#`. */
const CLOSING_HASHES = /(?<=^[ \t]{0,3}#{1,6}[ \t].*?)[ \t]+#+[ \t]*$/gm
/** `[label](target)` and `![alt](target)`, target without spaces or parentheses (an optional title aside). */
const LINK = /(!?)\[([^\]\n]*)\]\(([^()\s]*(?:\s+"[^"\n]*")?)\)/g
/** Runs of `*`, `_` or `~` touching a word on one side and not flanked by word characters on the other. */
const EMPHASIS = /(?<![\p{L}\p{N}])[*_~]{1,3}(?=\S)|(?<=\S)[*_~]{1,3}(?![\p{L}\p{N}])/gu
const BACKTICKS = /`+/g
