import { fencedCode, gapsOutsideCode, hasFence } from '../fenced-code.js'
import type { TextChunk } from '../pipeline/ingestion-components.js'

export interface ChunkOptions {
  /** Upper bound of tokens per chunk (default 256). */
  maxTokens?: number
  /** Tokens of the previous chunk repeated at the start of the next (default 32). */
  overlap?: number
  /**
   * Longest token, in characters (default 64): a longer run without whitespace (a URL, a hash, a
   * text with no spaces at all) counts as one token per started `maxTokenChars` characters and may be
   * cut between them. This is what bounds a chunk at `maxTokens * maxTokenChars` characters whatever
   * the input, so no chunk can hand the extractor or the embedder an unbounded "word".
   */
  maxTokenChars?: number
  /**
   * Upper bound of characters per chunk (default 4,096: 16 per token at the default `maxTokens`,
   * which prose does not reach). Text of long tokens (identifiers, base64, hyphen chains) costs the
   * extractor far more per character than prose, so chunks of it stay this short.
   */
  maxChars?: number
}

interface Span {
  start: number
  end: number
  tokens: number
}

interface Bounds {
  tokens: number
  chars: number
  tokenChars: number
}

const SENTENCE_END = /[.!?…]+["'”’)\]]*\s+|\n\s*\n+/g
const RUN = /\S+/g

/** Sentence spans with offsets: split after terminal punctuation or at blank lines. */
function sentences(text: string, tokenChars: number): Span[] {
  const spans: Span[] = []
  let start = 0
  const push = (end: number) => {
    const slice = text.slice(start, end)
    const lead = slice.length - slice.trimStart().length
    const trail = slice.length - slice.trimEnd().length
    if (lead < slice.length) {
      let tokens = 0
      // A run of non-whitespace is one token per started `tokenChars` characters.
      for (const run of slice.matchAll(RUN)) tokens += Math.ceil(run[0].length / tokenChars)
      spans.push({ start: start + lead, end: end - trail, tokens })
    }
  }
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index! + match[0].length
    push(end)
    start = end
  }
  push(text.length)
  return spans
}

/** A sentence's tokens with offsets; runs longer than `tokenChars` become several tokens. */
function tokensOf(text: string, span: Span, tokenChars: number): { start: number; end: number }[] {
  const tokens: { start: number; end: number }[] = []
  for (const run of text.slice(span.start, span.end).matchAll(RUN)) {
    const start = span.start + run.index!
    const end = start + run[0].length
    for (let at = start; at < end; at += tokenChars)
      tokens.push({ start: at, end: Math.min(end, at + tokenChars) })
  }
  return tokens
}

/** Splits a sentence over the bounds into windows of whole tokens within them (keeps offsets). */
function splitLong(text: string, span: Span, max: Bounds): Span[] {
  const tokens = tokensOf(text, span, max.tokenChars)
  const out: Span[] = []
  let first = 0
  for (let i = 1; i <= tokens.length; i++) {
    const full =
      i === tokens.length ||
      i - first >= max.tokens ||
      tokens[i]!.end - tokens[first]!.start > max.chars
    if (!full) continue
    out.push({ start: tokens[first]!.start, end: tokens[i - 1]!.end, tokens: i - first })
    first = i
  }
  return out
}

/**
 * The sentences that touch one fenced code block (`fencedCode`) made one span: a block's blank lines
 * and full stops are no sentence ends, so a chunk holds a whole block when it fits (a longer one is cut
 * by `splitLong` like any long sentence). Cut at its blank lines, half a block went to each of two
 * chunks: 16 of the 477 chunks of this project's README and docs began or ended inside one.
 */
function wholeBlocks(spans: Span[], blocks: readonly [number, number][]): Span[] {
  if (blocks.length === 0) return spans
  const out: Span[] = []
  let b = 0
  for (const span of spans) {
    while (b < blocks.length && blocks[b]![1] <= span.start) b++
    const block = blocks[b]
    const last = out.at(-1)
    const touches = (s: Span) => block !== undefined && s.start < block[1] && s.end > block[0]
    if (last !== undefined && touches(span) && touches(last))
      out[out.length - 1] = { start: last.start, end: span.end, tokens: last.tokens + span.tokens }
    else out.push(span)
  }
  return out
}

/** Paragraphs of fewer tokens than this (a heading, a title) join the paragraph after them. */
const MIN_SECTION_TOKENS = 24

/**
 * The text's sections: its paragraphs (split at blank lines), a short one joined to the next (the last
 * to the one before), as index ranges into `spans`.
 */
function sections(
  text: string,
  spans: readonly Span[],
  blocks: readonly [number, number][],
): [number, number][] {
  // Blank lines inside a code block are no breaks; the one after its closing fence is.
  const breaks = gapsOutsideCode(text, /\n[^\S\n]*\n\s*/g, blocks).map((gap) => gap.index)
  const out: [number, number][] = []
  let first = 0
  let b = 0
  for (let i = 0; i < spans.length; i++) {
    while (b < breaks.length && breaks[b]! < spans[i]!.start) b++
    const endsParagraph =
      i === spans.length - 1 || (b < breaks.length && breaks[b]! < spans[i + 1]!.start)
    if (endsParagraph) {
      out.push([first, i + 1])
      first = i + 1
    }
  }
  const tokens = ([a, z]: [number, number]) => spans.slice(a, z).reduce((n, s) => n + s.tokens, 0)
  const merged: [number, number][] = []
  let pending: [number, number] | null = null
  for (const section of out) {
    const joined: [number, number] = pending === null ? section : [pending[0], section[1]]
    if (tokens(joined) < MIN_SECTION_TOKENS) pending = joined
    else {
      merged.push(joined)
      pending = null
    }
  }
  if (pending !== null) {
    const last = merged.pop()
    merged.push(last === undefined ? pending : [last[0], pending[1]])
  }
  return merged
}

/**
 * Sentence-aware, bounded chunking with overlap: whole sentences are packed up to `maxTokens`
 * (whitespace tokens of at most `maxTokenChars` characters) and `maxChars`, a sentence over either
 * bound is cut into windows of whole tokens, and each chunk starts with the last sentences of the
 * previous one up to `overlap` tokens. Offsets index the source text. No chunk is longer than
 * `maxChars`, whatever the input: a text without whitespace is cut too.
 *
 * A text longer than one chunk is chunked paragraph by paragraph (a paragraph shorter than
 * `MIN_SECTION_TOKENS`, such as a heading or a title, goes with the next): no chunk spans two
 * paragraphs, so that editing one paragraph of a re-ingested source changes only its own chunks
 * (docs/forgetting.md), as content-defined chunking keeps edits local (Muthitacharoen et al., "A
 * Low-bandwidth Network File System", SOSP 2001), here with paragraphs as the natural boundaries.
 */
export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const max = Math.max(8, options.maxTokens ?? 256)
  const overlap = Math.max(0, Math.min(options.overlap ?? 32, Math.floor(max / 2)))
  const tokenChars = Math.max(8, options.maxTokenChars ?? 64)
  const bounds: Bounds = {
    tokens: max,
    chars: Math.max(tokenChars, options.maxChars ?? 4096),
    tokenChars,
  }
  const blocks = hasFence(text) ? fencedCode(text) : []
  const spans = wholeBlocks(sentences(text, tokenChars), blocks).flatMap((s) =>
    s.tokens > max || s.end - s.start > bounds.chars ? splitLong(text, s, bounds) : [s],
  )
  if (spans.length === 0) return []
  const total = spans.reduce((n, s) => n + s.tokens, 0)
  const oneChunk = total <= max && spans[spans.length - 1]!.end - spans[0]!.start <= bounds.chars
  const chunks: TextChunk[] = []
  for (const [from, to] of oneChunk
    ? [[0, spans.length] as [number, number]]
    : sections(text, spans, blocks))
    pack(text, spans.slice(from, to), { max, overlap, chars: bounds.chars }, chunks)
  return chunks
}

/** Packs sentences into chunks with overlap (appended to `chunks`, indexes continuing). */
function pack(
  text: string,
  spans: readonly Span[],
  limits: { max: number; overlap: number; chars: number },
  chunks: TextChunk[],
): void {
  const { max, overlap } = limits
  let i = 0
  while (i < spans.length) {
    let tokens = 0
    let j = i
    while (
      j < spans.length &&
      (j === i ||
        (tokens + spans[j]!.tokens <= max && spans[j]!.end - spans[i]!.start <= limits.chars))
    )
      tokens += spans[j++]!.tokens
    const start = spans[i]!.start
    const end = spans[j - 1]!.end
    chunks.push({ index: chunks.length, text: text.slice(start, end), start, end })
    if (j >= spans.length) break
    // Step back over whole sentences that fit in the overlap budget, never to where we started.
    let back = j
    let carried = 0
    while (back - 1 > i && carried + spans[back - 1]!.tokens <= overlap)
      carried += spans[--back]!.tokens
    i = back
  }
}
