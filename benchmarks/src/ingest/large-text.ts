import { join } from 'node:path'
import { readJsonl } from '../loaders/read-jsonl.js'

/**
 * A plain-text document of `chars` characters made of real prose: the SciFact corpus (scientific
 * abstracts, BEIR format) as `title`, blank line, `text` per document, documents separated by blank
 * lines, in corpus order, cut at `chars`. The 5,183 abstracts give about 7.8 million characters.
 */
export function scifactText(dataDir: string, chars: number): string {
  const parts: string[] = []
  let length = 0
  for (const doc of readJsonl<{ title?: string; text: string }>(
    join(dataDir, 'scifact', 'corpus.jsonl'),
  )) {
    if (length >= chars) break
    const part = `${doc.title ?? ''}\n\n${doc.text}\n\n`
    parts.push(part)
    length += part.length
  }
  const text = parts.join('').slice(0, chars)
  if (text.length < chars)
    throw new Error(`the SciFact corpus has only ${text.length} characters, ${chars} asked`)
  return text
}
