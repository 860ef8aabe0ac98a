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
 * are blanked whole, line breaks kept (code is not prose: ingesting this project's docs made entities
 * such as `of(entityUuid`). Ordered list markers and intra-word underscores are kept: `1.` and
 * `snake_case` are text too. A code span loses its backticks only (TeX-style ``quotes'' are common).
 */
export function maskMarkdown(text: string): string {
  if (!MAYBE_MARKDOWN.test(text)) return text
  return text
    .replace(FENCED_CODE, blankKeepingLines)
    .replace(CLOSING_HASHES, blank)
    .replace(BLOCK_MARKERS, blank)
    .replace(LINK, (_all, bang: string, label: string, target: string) =>
      blank(`${bang}[`).concat(label, blank(`](${target})`)),
    )
    .replace(EMPHASIS, blank)
    .replace(BACKTICKS, blank)
}

const blank = (s: string) => ' '.repeat(s.length)
const blankKeepingLines = (s: string) => s.replace(/[^\n]/g, ' ')

/** Cheap test first: most passages (conversation turns, plain prose) carry none of these. */
const MAYBE_MARKDOWN = /[#*_~`[>]|^\s*[-+]\s/m
/** A fence of 3+ backticks or tildes at a line start, to its closing fence or the end of the text. */
const FENCED_CODE = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]{0,3}\1[ \t]*$|(?![\s\S]))/gm
/** At a line start: `#`..`######` then a space, `>` quote markers, `-`/`+`/`*` bullets. */
const BLOCK_MARKERS = /^[ \t]{0,3}(?:#{1,6}(?=[ \t]|$)|(?:>[ \t]?)+|[-+*](?=[ \t]))/gm
/** An ATX heading's optional closing `#`s: ` ##` at the end of a line that began with `#`. */
const CLOSING_HASHES = /(?<=^[ \t]{0,3}#{1,6}[ \t].*?)[ \t]+#+[ \t]*$/gm
/** `[label](target)` and `![alt](target)`, target without spaces or parentheses (an optional title aside). */
const LINK = /(!?)\[([^\]\n]*)\]\(([^()\s]*(?:\s+"[^"\n]*")?)\)/g
/** Runs of `*`, `_` or `~` touching a word on one side and not flanked by word characters on the other. */
const EMPHASIS = /(?<![\p{L}\p{N}])[*_~]{1,3}(?=\S)|(?<=\S)[*_~]{1,3}(?![\p{L}\p{N}])/gu
const BACKTICKS = /`+/g
