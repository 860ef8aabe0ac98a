import type { ChangelogEntry, ChangelogRepository } from '@engram/core'
import type { SqliteStatementLike } from './sqlite-database-like.js'
import { inList, JSON_AT, LIKE, parse, type Row } from './sqlite-sql.js'

/** Needles per `containing` statement: far below SQLite's variable limit, and one statement shape per count. */
const NEEDLES_PER_QUERY = 100

type SeqRow = { seq: number; data: string }

/** A stored entry: its JSON lacks `seq`, which is the row's key. */
const entryOf = (row: SeqRow): ChangelogEntry => ({
  ...parse<Omit<ChangelogEntry, 'seq'>>(row),
  seq: row.seq,
})

const seqOf = (stmt: (sql: string) => SqliteStatementLike, sql: string) =>
  (stmt(sql).get() as { n: number | null }).n

/**
 * The unfiltered page of `q` as a range of `seq`, or null when the changelog's sequence has a gap.
 * Entries are never deleted one by one (a redaction rewrites its entry; a brain goes whole), so the
 * sequence normally runs without a gap from its lowest to its highest `seq`: then the entry `skip`
 * places below the newest has `seq` = highest - skip, and the page is read from there in
 * O(log n + limit), where `OFFSET` steps over `skip` index entries (issue 29 item 4: 1.6 ms for a
 * skip of 236,000; `benchmarks/results/op-growth.md`). `total` is the row count that proves it: a gap
 * (SQLite may leave one after a failed insert) falls back to `OFFSET`. Two statements, not
 * `SELECT min(seq), max(seq)`, which SQLite answers by a scan.
 */
function keyRangePage(
  stmt: (sql: string) => SqliteStatementLike,
  total: number,
  q: { limit: number; skip: number },
): SeqRow[] | null {
  if (total === 0) return []
  const highest = seqOf(stmt, 'SELECT max(seq) AS n FROM changelog')!
  const lowest = seqOf(stmt, 'SELECT min(seq) AS n FROM changelog')!
  if (highest - lowest + 1 !== total) return null
  return stmt('SELECT seq, data FROM changelog WHERE seq <= ? ORDER BY seq DESC LIMIT ?').all(
    highest - q.skip,
    q.limit,
  ) as SeqRow[]
}

/** The changelog of one brain; `seq` is the table's AUTOINCREMENT key, so it never goes back. */
export function sqliteChangelogRepository(
  stmt: (sql: string) => SqliteStatementLike,
): ChangelogRepository {
  return {
    async get(id) {
      const row = stmt('SELECT seq, data FROM changelog WHERE id = ?').get(id) as SeqRow | undefined
      return row === undefined ? null : entryOf(row)
    },
    async list(q) {
      const where: string[] = []
      const params: unknown[] = []
      if (q.types !== undefined && q.types.length > 0) {
        where.push(`type IN (${inList(q.types)})`)
        params.push(...q.types)
      }
      if (q.queryText) {
        where.push(LIKE(JSON_AT('data', '$.change')))
        params.push(q.queryText)
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
      const total = (
        stmt(`SELECT count(*) AS n FROM changelog ${clause}`).get(...params) as { n: number }
      ).n
      if (where.length === 0) {
        const rows = keyRangePage(stmt, total, q)
        if (rows !== null) return { items: rows.map(entryOf), total }
      }
      // The page's sequence numbers come from an index, so a deep `skip` steps over index entries
      // instead of rows (the changelog's rows are large JSON).
      const index = q.queryText
        ? ''
        : q.types !== undefined && q.types.length > 0
          ? 'INDEXED BY changelog_type'
          : 'INDEXED BY changelog_seq'
      const rows = stmt(
        `SELECT seq, data FROM changelog WHERE seq IN (SELECT seq FROM changelog ${index} ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?) ORDER BY seq DESC`,
      ).all(...params, q.limit, q.skip) as SeqRow[]
      return { items: rows.map(entryOf), total }
    },
    async types() {
      return stmt('SELECT DISTINCT type AS v FROM changelog ORDER BY v')
        .all()
        .map((r) => String((r as Row).v))
    },
    async since(afterSeq, limit) {
      return (
        stmt('SELECT seq, data FROM changelog WHERE seq > ? ORDER BY seq LIMIT ?').all(
          afterSeq,
          limit,
        ) as SeqRow[]
      ).map(entryOf)
    },
    async lastSeq() {
      return (stmt('SELECT coalesce(max(seq), 0) AS n FROM changelog').get() as { n: number }).n
    },
    async containing(needles) {
      const wanted = [...new Set(needles.filter((n) => n !== ''))]
      const found = new Map<number, ChangelogEntry>()
      // One scan of the table per 100 needles: `instr` on the stored JSON as it is, case-sensitive
      // (needles are record ids).
      for (let i = 0; i < wanted.length; i += NEEDLES_PER_QUERY) {
        const chunk = wanted.slice(i, i + NEEDLES_PER_QUERY)
        const test = chunk.map(() => 'instr(data, ?) > 0').join(' OR ')
        for (const row of stmt(`SELECT seq, data FROM changelog WHERE ${test}`).all(
          ...chunk,
        ) as SeqRow[])
          found.set(row.seq, entryOf(row))
      }
      return [...found.values()]
    },
  }
}
