/** A fence line anywhere in a text: only then can it hold a fenced code block. */
export const hasFence = (text: string): boolean => /^[ \t]{0,3}(?:`{3,}|~{3,})/m.test(text)

/**
 * The fenced code blocks of `text` as [start, end) offsets, fences included: an opening fence of 3+
 * backticks or tildes indented at most 3 spaces (a backtick fence's info string holds no backtick), up
 * to a closing fence of the same character at least as long with nothing after it, or to the end of the
 * text (CommonMark 0.31.2, section 4.5).
 */
export function fencedCode(text: string): [number, number][] {
  const blocks: [number, number][] = []
  let open: { char: string; length: number; start: number } | null = null
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf('\n', at)
    const end = newline === -1 ? text.length : newline + 1
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text.slice(at, newline === -1 ? end : newline))
    if (fence !== null) {
      const run = fence[1]!
      if (open === null) {
        if (run[0] !== '`' || !fence[2]!.includes('`'))
          open = { char: run[0]!, length: run.length, start: at }
      } else if (run[0] === open.char && run.length >= open.length && fence[2]!.trim() === '') {
        blocks.push([open.start, end])
        open = null
      }
    }
    at = end
  }
  if (open !== null) blocks.push([open.start, text.length])
  return blocks
}

/**
 * The matches of `gaps` (a global pattern of blank-line runs) in `text` that are not wholly inside one of
 * `blocks` (`fencedCode`): a blank line inside a code block is code, while the run after a closing fence,
 * which starts at that fence's own line break, is a break. Gaps and blocks both ascend, so one pointer
 * walks the blocks: linear however many there are.
 */
export function gapsOutsideCode(
  text: string,
  gaps: RegExp,
  blocks: readonly [number, number][],
): RegExpExecArray[] {
  const out: RegExpExecArray[] = []
  let block = 0
  for (const gap of text.matchAll(gaps)) {
    while (block < blocks.length && blocks[block]![1] <= gap.index) block++
    const inside =
      block < blocks.length &&
      blocks[block]![0] <= gap.index &&
      gap.index + gap[0].length <= blocks[block]![1]
    if (!inside) out.push(gap)
  }
  return out
}
