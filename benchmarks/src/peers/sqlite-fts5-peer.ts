import Database from 'better-sqlite3'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { SystemUnderTest } from '../systems/system-under-test.js'
import { queryTerms } from './query-terms.js'

/**
 * SQLite FTS5 `bm25()` (sqlite.org/fts5.html §5.1.1: Okapi BM25, k1 1.2, b 0.75, fixed) through better-sqlite3,
 * in an in-memory database with the `porter unicode61` tokenizer. The query is an OR of the query's terms, each
 * double-quoted so FTS5 reads them as strings, never as operators or column filters. bm25() is lower-is-better,
 * so the score reported is its negation.
 */
export async function createSqliteFts5Peer(): Promise<SystemUnderTest> {
  const db = new Database(':memory:')
  db.exec(
    `CREATE VIRTUAL TABLE docs USING fts5(doc_id UNINDEXED, body, tokenize = 'porter unicode61')`,
  )
  const insert = db.prepare('INSERT INTO docs (doc_id, body) VALUES (?, ?)')
  const select = db.prepare(
    'SELECT doc_id AS id, bm25(docs) AS rank FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?',
  )
  let documents = 0
  return {
    name: 'sqlite-fts5',
    label: 'SQLite FTS5 bm25() (porter, OR)',
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      db.transaction(() => {
        for (const d of docs) insert.run(d.id, indexText(d))
      })()
      documents += docs.length
    },
    async search(query: string, k: number) {
      const terms = queryTerms(query)
      if (terms.length === 0) return []
      const match = terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ')
      const rows = select.all(match, k) as { id: string; rank: number }[]
      return rows.map((r) => ({ id: r.id, score: -r.rank }))
    },
    stats: () => ({ documents }),
    async close() {
      db.close()
    },
  }
}
