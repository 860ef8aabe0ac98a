import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import {
  createEngine,
  fencedCode,
  gapsOutsideCode,
  memoryAdapter,
  stableId,
  type Passage,
  type SearchService,
} from '@engram/core'
import { PACKAGE_ROOT, RUNS_BUILT } from './package-root.js'

export const DOCS_BRAIN = 'docs'

/** The documentation brain as `/demo/search` reads it. */
export interface DocsSearch {
  search: SearchService
  brainId: string
}
/**
 * Built, the documentation travels inside the package (`dist/docs/`, copied by `npm run build`); from
 * sources it is the repository's own `docs/`.
 */
const DEFAULT_DOCS_DIR = RUNS_BUILT
  ? join(PACKAGE_ROOT, 'dist', 'docs')
  : join(PACKAGE_ROOT, '..', '..', 'docs')
const MAX_SECTION = 1200

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? markdownFiles(join(dir, e.name))
        : e.name.endsWith('.md')
          ? [join(dir, e.name)]
          : [],
    )
    .sort()
}

/**
 * The blocks of a markdown text: its parts between blank lines, except inside a fenced code block,
 * which stays whole (its blank lines and its "# comment" lines are code, not breaks or headings).
 */
function markdownBlocks(text: string): string[] {
  const blocks: string[] = []
  let from = 0
  for (const gap of gapsOutsideCode(text, /\n\s*\n/g, fencedCode(text))) {
    blocks.push(text.slice(from, gap.index))
    from = gap.index + gap[0].length
  }
  blocks.push(text.slice(from))
  return blocks
}

/**
 * Splits markdown into sections under their heading, each at most ~1,200 characters (a code block
 * longer than that is one section of its own).
 */
export function markdownSections(text: string): { heading: string; text: string }[] {
  const sections: { heading: string; text: string }[] = []
  let heading = ''
  let buffer: string[] = []
  const flush = () => {
    const body = buffer.join('\n').trim()
    if (body.length > 0) sections.push({ heading, text: heading ? `${heading}\n${body}` : body })
    buffer = []
  }
  for (const block of markdownBlocks(text)) {
    const title = /^#{1,6}\s+(.+)$/m.exec(block)
    if (title && block.trimStart().startsWith('#')) {
      flush()
      heading = title[1]!.trim()
      const rest = block.replace(/^#{1,6}\s+.+$/m, '').trim()
      if (rest) buffer.push(rest)
      continue
    }
    if (buffer.join('\n').length + block.length > MAX_SECTION) flush()
    buffer.push(block)
  }
  flush()
  return sections
}

/**
 * The public documentation brain behind `/demo/search` and the MCP docs server: the project's own
 * `docs/`, indexed at start into a separate in-memory engine, read-only (no route writes to it).
 */
export async function buildDocsSearch(
  docsDir: string = DEFAULT_DOCS_DIR,
): Promise<DocsSearch & { passages: number }> {
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 'docs',
    defaultBrain: DOCS_BRAIN,
  })
  await engram.start()
  const passages: Passage[] = []
  const now = new Date().toISOString()
  for (const file of markdownFiles(docsDir)) {
    const path = relative(docsDir, file)
    markdownSections(readFileSync(file, 'utf8')).forEach((section, index) => {
      passages.push({
        id: stableId('docs', path, String(index)),
        text: section.text,
        metadata: { title: path, section: section.heading },
        insertedAt: now,
        brainVersion: 'docs',
        source: path,
        position: index,
        start: 0,
        end: section.text.length,
      })
    })
  }
  await engram.commit(DOCS_BRAIN, { passages })
  await engram.indexes.get(DOCS_BRAIN)
  return { search: engram.search, brainId: DOCS_BRAIN, passages: passages.length }
}

/**
 * The documentation brain, built once on first use (`given`, when a caller built it already): indexing
 * the docs takes 100-300 ms of the main thread, which neither the start nor the first requests after it
 * should wait for; the first documentation search does. A failed build is retried by the next caller.
 */
export function lazyDocsSearch(given?: DocsSearch): () => Promise<DocsSearch> {
  let built: Promise<DocsSearch> | null = given === undefined ? null : Promise.resolve(given)
  return () =>
    (built ??= buildDocsSearch().catch((error: unknown) => {
      built = null
      throw error
    }))
}
