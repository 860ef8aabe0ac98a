import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Gold entity types of DocRED (Yao et al., ACL 2019): the four named kinds, times and numbers. */
export type GoldType = 'PER' | 'ORG' | 'LOC' | 'MISC' | 'TIME' | 'NUM'

/** One gold entity cluster: every mention of one entity in one document. */
export interface GoldEntity {
  /** Index in the document's `vertexSet` (what `labels` refer to). */
  readonly index: number
  /** The type most of its mentions carry (ties: the first mention's). */
  readonly type: GoldType
  /** Mention names as annotated, rebuilt from tokens (`Wilfried "Willi" Schneider`). */
  readonly names: readonly string[]
}

export interface RedocredDoc {
  readonly id: string
  readonly title: string
  /** The document's plain text, rebuilt from its tokens (`rebuildText`). */
  readonly text: string
  readonly entities: readonly GoldEntity[]
  /** Unordered pairs of entity indexes that some gold relation links (`labels`, either direction). */
  readonly relatedPairs: readonly (readonly [number, number])[]
}

interface RawMention {
  name: string
  type: GoldType
}
interface RawDoc {
  title: string
  sents: string[][]
  vertexSet: RawMention[][]
  labels: { h: number; t: number; r: string }[]
}

const NO_SPACE_BEFORE = /^(?:[.,;:!?)\]}%]|'s|'|n't|'re|'ve|'ll|'d|'m)$/i
const NO_SPACE_AFTER = /^[([{$]$/

/**
 * Plain text from space-separated tokens: no space before closing punctuation and clitics, none after an
 * opening bracket; a straight double quote alternates between opening (no space after) and closing (no
 * space before), as the tokeniser split it.
 */
export function rebuildText(tokens: readonly string[]): string {
  let out = ''
  let quoteOpen = false
  let glueNext = true
  for (const token of tokens) {
    let glue = glueNext || NO_SPACE_BEFORE.test(token)
    glueNext = NO_SPACE_AFTER.test(token)
    if (token === '"') {
      if (quoteOpen) glue = true
      else glueNext = true
      quoteOpen = !quoteOpen
    }
    out += glue ? token : ` ${token}`
  }
  return out
}

/**
 * `text` hard-wrapped at `columns` as a text editor wraps a paragraph (greedy: as many words on a line as
 * fit, a longer word alone on its line): each break replaces one space with a line break, so offsets and
 * every name are as before. The `wrap` condition ingests documents so, as plain-text files, e-mails and
 * Markdown sources hold prose.
 */
export function hardWrap(text: string, columns: number): string {
  const out = text.split('')
  let lineStart = 0
  let lastSpace = -1
  for (let i = 0; i < out.length; i++) {
    if (out[i] !== ' ') continue
    // The word before this space ends the line when it ran past the width and the line has an earlier space.
    if (i - lineStart > columns && lastSpace > lineStart) {
      out[lastSpace] = '\n'
      lineStart = lastSpace + 1
    }
    lastSpace = i
  }
  if (out.length - lineStart > columns && lastSpace > lineStart) out[lastSpace] = '\n'
  return out.join('')
}

function majorityType(mentions: readonly RawMention[]): GoldType {
  const counts = new Map<GoldType, number>()
  for (const m of mentions) counts.set(m.type, (counts.get(m.type) ?? 0) + 1)
  let best = mentions[0]!.type
  for (const [type, n] of counts) if (n > counts.get(best)!) best = type
  return best
}

/** Re-DocRED dev (`redocred-dev/dev_revised.json`): 500 documents with gold clusters and relations. */
export function loadRedocred(dataDir: string, dataset = 'redocred-dev'): RedocredDoc[] {
  const file = join(dataDir, dataset, 'dev_revised.json')
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawDoc[]
  return raw.map((doc, i) => {
    const pairs = new Map<string, readonly [number, number]>()
    for (const { h, t } of doc.labels) {
      if (h === t) continue
      const pair = h < t ? ([h, t] as const) : ([t, h] as const)
      pairs.set(pair.join(':'), pair)
    }
    return {
      id: `redocred-dev:${i}`,
      title: doc.title,
      text: doc.sents.map(rebuildText).join(' '),
      entities: doc.vertexSet.map((mentions, index) => ({
        index,
        type: majorityType(mentions),
        names: [...new Set(mentions.map((m) => rebuildText(m.name.split(' '))))],
      })),
      relatedPairs: [...pairs.values()],
    }
  })
}
