import type { EngramClient, Source } from '@engram/client'

export interface SourcesCommandOptions {
  client: EngramClient
  /** A case-insensitive substring of the id, title or file name. */
  query?: string
  /** Sources to list, 1..1000 (default 100). */
  limit?: number
  json?: boolean
  out: (line: string) => void
}

/** Columns of the table, cut to a width a terminal shows on one line. */
const ID_WIDTH = 40
const cut = (value: string, width: number) =>
  value.length <= width ? value.padEnd(width) : `${value.slice(0, width - 1)}…`

/** What a source is called in the table: its title, else its file name. */
const label = (s: Source) => s.title || s.filename

/**
 * `engram sources`: `GET /sources`, one source per line (id, passages, last update, title or file
 * name), most recently updated first; or the raw JSON.
 */
export async function sourcesCommand(options: SourcesCommandOptions): Promise<number> {
  const page = await options.client.sources.list({
    ...(options.query !== undefined ? { queryText: options.query } : {}),
    limit: options.limit ?? 100,
  })
  if (options.json) {
    options.out(JSON.stringify(page, null, 2))
    return 0
  }
  if (page.sources.length === 0) {
    options.out('no sources')
    return 0
  }
  options.out(`${cut('SOURCE', ID_WIDTH)} PASSAGES UPDATED              TITLE`)
  for (const s of page.sources) {
    const passages = String(s.counts.passages).padStart(8)
    options.out(
      `${cut(s.source_id, ID_WIDTH)} ${passages} ${s.updated_at.slice(0, 19)}Z ${label(s)}`,
    )
  }
  if (page.total > page.sources.length)
    options.out(`(${page.sources.length} of ${page.total} sources; --limit shows more)`)
  return 0
}
