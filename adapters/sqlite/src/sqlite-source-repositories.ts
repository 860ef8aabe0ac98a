import type {
  EvidenceKind,
  EvidenceLink,
  EvidenceRepository,
  Source,
  SourceRepository,
} from '@engram/core'
import type { SqliteStatementLike } from './sqlite-database-like.js'
import { inList, JSON_AT, LIKE, parse } from './sqlite-sql.js'

/** Ids per statement of the evidence reads: well under SQLite's variable limit (999 before 3.32). */
const IDS_PER_QUERY = 500

/**
 * A meta key equal to a value, compared as JSON: same JSON type (`true` is not 1, 1 is not '1') and
 * same value, objects and arrays by their minified text. `json_each` takes the key as a parameter, so
 * any key works (a JSON path would have to quote it).
 */
const META_EQUALS = `EXISTS (SELECT 1 FROM json_each(${JSON_AT('data', '$.meta')}) m
  WHERE m.key = ? AND m.type = json_type(?) AND (CASE WHEN m.type IN ('object', 'array')
  THEN m.value = json(?) ELSE m.value IS json_extract(?, '$') END))`

/** The sources and the evidence relation of one brain (docs/forgetting.md). */
export function sqliteSourceRepositories(stmt: (sql: string) => SqliteStatementLike): {
  sources: SourceRepository
  evidence: EvidenceRepository
} {
  const chunks = (ids: string[]) => {
    const unique = [...new Set(ids)]
    const out: string[][] = []
    for (let i = 0; i < unique.length; i += IDS_PER_QUERY)
      out.push(unique.slice(i, i + IDS_PER_QUERY))
    return out
  }

  return {
    sources: {
      async get(id) {
        const row = stmt('SELECT data FROM sources WHERE id = ?').get(id)
        return row === undefined ? null : parse<Source>(row)
      },
      async list(q) {
        const where = ["status = 'active'"]
        const params: unknown[] = []
        if (q.queryText) {
          where.push(
            `(${LIKE('id')} OR ${LIKE(`coalesce(${JSON_AT('data', '$.title')}, '')`)} OR ${LIKE(`coalesce(${JSON_AT('data', '$.filename')}, '')`)})`,
          )
          params.push(q.queryText, q.queryText, q.queryText)
        }
        for (const [key, value] of Object.entries(q.meta ?? {})) {
          const json = JSON.stringify(value)
          where.push(META_EQUALS)
          params.push(key, json, json, json)
        }
        const clause = `WHERE ${where.join(' AND ')}`
        const total = (
          stmt(`SELECT count(*) AS n FROM sources ${clause}`).get(...params) as { n: number }
        ).n
        const rows = stmt(
          `SELECT data FROM sources ${clause} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`,
        ).all(...params, q.limit, q.skip)
        return { items: rows.map((r) => parse<Source>(r)), total }
      },
      async expired(now, limit) {
        // The terms of the partial index `sources_expiry`, so that SQLite uses it.
        const rows = stmt(
          `SELECT data FROM sources WHERE status = 'active' AND expires_at IS NOT NULL
             AND expires_at <= ? ORDER BY expires_at, id LIMIT ?`,
        ).all(now, limit)
        return rows.map((r) => parse<Source>(r))
      },
    },
    evidence: {
      async supportedBy(evidenceIds) {
        const links: EvidenceLink[] = []
        for (const chunk of chunks(evidenceIds)) {
          const rows = stmt(
            `SELECT evidence_id, kind, record_id FROM evidence WHERE evidence_id IN (${inList(chunk)})`,
          ).all(...chunk) as { evidence_id: string; kind: EvidenceKind; record_id: string }[]
          for (const r of rows)
            links.push({ kind: r.kind, recordId: r.record_id, evidenceId: r.evidence_id })
        }
        return links
      },
      async evidenceOf(kind, recordIds) {
        const out = new Map<string, string[]>()
        for (const chunk of chunks(recordIds)) {
          const rows = stmt(
            `SELECT record_id, evidence_id FROM evidence WHERE kind = ? AND record_id IN (${inList(chunk)}) ORDER BY record_id, evidence_id`,
          ).all(kind, ...chunk) as { record_id: string; evidence_id: string }[]
          for (const r of rows) {
            const ids = out.get(r.record_id)
            if (ids === undefined) out.set(r.record_id, [r.evidence_id])
            else ids.push(r.evidence_id)
          }
        }
        return out
      },
    },
  }
}
