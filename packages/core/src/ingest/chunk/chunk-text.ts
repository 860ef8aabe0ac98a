import type { TextChunk } from '../pipeline/ingestion-components.js'

export interface ChunkOptions {
  /** Upper bound of tokens per chunk (default 256). */
  maxTokens?: number
  /** Tokens of the previous chunk repeated at the start of the next (default 32). */
  overlap?: number
}

interface Span {
  start: number
  end: number
  tokens: number
}

const SENTENCE_END = /[.!?…]+["'”’)\]]*\s+|\n\s*\n+/g
const TOKEN = /\S+/g

/** Sentence spans with offsets: split after terminal punctuation or at blank lines. */
function sentences(text: string): Span[] {
  const spans: Span[] = []
  let start = 0
  const push = (end: number) => {
    const slice = text.slice(start, end)
    const lead = slice.length - slice.trimStart().length
    const trail = slice.length - slice.trimEnd().length
    if (slice.trim().length > 0)
      spans.push({
        start: start + lead,
        end: end - trail,
        tokens: (slice.match(TOKEN) ?? []).length,
      })
  }
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index! + match[0].length
    push(end)
    start = end
  }
  push(text.length)
  return spans
}

/** Splits a sentence longer than `max` tokens into token windows (keeps offsets). */
function splitLong(text: string, span: Span, max: number): Span[] {
  const tokens = [...text.slice(span.start, span.end).matchAll(TOKEN)].map((m) => ({
    start: span.start + m.index!,
    end: span.start + m.index! + m[0].length,
  }))
  const out: Span[] = []
  for (let i = 0; i < tokens.length; i += max) {
    const window = tokens.slice(i, i + max)
    out.push({
      start: window[0]!.start,
      end: window[window.length - 1]!.end,
      tokens: window.length,
    })
  }
  return out
}

/**
 * Sentence-aware, token-bounded chunking with overlap: whole sentences are packed up to `maxTokens`
 * (whitespace tokens), a sentence longer than that is cut into token windows, and each chunk starts
 * with the last sentences of the previous one up to `overlap` tokens. Offsets index the source text.
 */
export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const max = Math.max(8, options.maxTokens ?? 256)
  const overlap = Math.max(0, Math.min(options.overlap ?? 32, Math.floor(max / 2)))
  const spans = sentences(text).flatMap((s) => (s.tokens > max ? splitLong(text, s, max) : [s]))
  const chunks: TextChunk[] = []
  let i = 0
  while (i < spans.length) {
    let tokens = 0
    let j = i
    while (j < spans.length && (j === i || tokens + spans[j]!.tokens <= max))
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
  return chunks
}
