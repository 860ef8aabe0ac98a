/**
 * Line breaks that only wrap a paragraph, read as the spaces they stand for.
 *
 * compromise ends a sentence at every line break (compromise/one's sentence splitter), so a text
 * hard-wrapped at a fixed width, as plain-text files, e-mails and Markdown sources often are, was read as
 * pieces of sentences: "played for Hertha\nBSC" named "Hertha" and "BSC", and a subject on one line lost
 * its verb on the next. Re-DocRED dev hard-wrapped at 72 columns (`redocred-dev.extraction-wrapped`) kept
 * 0.15 of its gold related pairs before this, 0.43 after, as unwrapped (benchmarks/LOG.md, 2026-12-07).
 *
 * A break is a wrap, and becomes a space (offsets unchanged), when it looks like what a greedy wrapper
 * (`fmt`, an editor's hard wrap: as many words on a line as fit) leaves: the line before is long (at least
 * `MIN_WRAPPED` characters) and the next line's first word would not have fitted on it within the longest
 * line of its block, and neither line is structure: not blank or blanked (code), no heading or table row
 * before it, no list item, heading, quote, table row or labelled line ("Caroline: ...", "City: London")
 * after it; an ordered item only where a list may open or goes on (`orderedItem`). A list of short lines
 * (names, an address) therefore stays a list. A break after a sentence's end is joined too: it changes
 * nothing there but where it follows an abbreviation ("Dr.\nSmith"), and the wrapped text then reads as
 * the unwrapped one.
 */
export function joinSoftWraps(original: string, masked: string): string {
  if (!original.includes('\n') || original.length !== masked.length) return masked
  /** Each line: where its break stands, its text, that text without trailing space, and whether blank. */
  const lines: { end: number; text: string; trimmed: string; blank: boolean }[] = []
  for (let start = 0; start <= original.length;) {
    const nl = original.indexOf('\n', start)
    const end = nl < 0 ? original.length : nl
    const text = original.slice(start, end)
    lines.push({
      end,
      text,
      trimmed: text.trimEnd(),
      blank: masked.slice(start, end).trim() === '',
    })
    start = end + 1
  }
  const blank = (i: number) => lines[i]!.blank
  const out = masked.split('')
  for (let block = 0; block < lines.length;) {
    if (blank(block)) {
      block++
      continue
    }
    let last = block
    while (last + 1 < lines.length && !blank(last + 1)) last++
    let longest = 0
    for (let i = block; i <= last; i++) longest = Math.max(longest, lines[i]!.trimmed.length)
    /** A line of the block before the next one opened an ordered list item. */
    let inList = false
    for (let i = block; i < last; i++) {
      inList ||= ORDERED.test(lines[i]!.text)
      const before = lines[i]!.trimmed
      const after = lines[i + 1]!.text
      const firstWord = /^\s*(\S+)/.exec(after)?.[1] ?? ''
      if (
        before.length < MIN_WRAPPED ||
        before.length + 1 + firstWord.length <= longest ||
        STRUCTURE_BEFORE.test(before) ||
        STRUCTURE_AFTER.test(after) ||
        orderedItem(after, inList)
      )
        continue
      const at = lines[i]!.end
      out[at] = ' '
      if (original[at - 1] === '\r') out[at - 1] = ' '
    }
    block = last + 1
  }
  return out.join('')
}

/** The shortest line read as wrapped: shorter lines are a list's, a verse's or an address's. */
const MIN_WRAPPED = 40
/** A line that is a heading or a table row ends its own unit. */
const STRUCTURE_BEFORE = /^[ \t]{0,3}(?:#{1,6}(?:[ \t]|$)|\|)/
/**
 * A bullet list item, heading, quote, table row or `Label: text` line (a capitalised label: a speaker's
 * turn, a record's field; "four\nchildren: Paul, ..." is prose) opens a unit of its own.
 */
const STRUCTURE_AFTER =
  /^[ \t]*(?:[-+*•][ \t]|#{1,6}(?:[ \t]|$)|>|\||\p{Lu}[\p{L}\p{N}_ '’.-]{0,30}?:[ \t]+\S)/u
/** An ordered list item's marker: "1. ", "12) ". */
const ORDERED = /^[ \t]*(\d{1,9})[.)][ \t]/

/**
 * An ordered list item opens the line when it is the list's first (numbered 1) or the block's lines
 * already hold one: CommonMark's rule for a list interrupting a paragraph (spec 0.31.2, 5.3), so that a
 * year ending a sentence at a line's start ("founded in\n1955. The company") is prose.
 */
function orderedItem(line: string, inList: boolean): boolean {
  const number = ORDERED.exec(line)?.[1]
  return number !== undefined && (inList || Number(number) === 1)
}
