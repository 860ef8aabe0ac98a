import type {
  EvidenceKind,
  EvidenceLink,
  EvidenceRepository,
  Source,
  SourceRepository,
} from '@engram/core'
import { JSON_OBJECT, LIKE, parse, type Queryable } from './postgres-sql.js'

/** The sources and the evidence relation of one brain (docs/forgetting.md). */
export function postgresSourceRepositories(
  db: Queryable,
  brainId: string,
): { sources: SourceRepository; evidence: EvidenceRepository } {
  return {
    sources: {
      async get(id) {
        const { rows } = await db.query<{ data: string }>(
          'SELECT data::text AS data FROM sources WHERE brain_id = $1 AND id = $2',
          [brainId, id],
        )
        return rows[0] === undefined ? null : parse<Source>(rows[0])
      },
      async list(q) {
        const where = ['brain_id = $1', "status = 'active'"]
        const params: unknown[] = [brainId]
        if (q.queryText) {
          params.push(q.queryText)
          const n = params.length
          where.push(
            `(${LIKE('id', n)} OR ${LIKE(`coalesce(data ->> 'title', '')`, n)} OR ${LIKE(`coalesce(data ->> 'filename', '')`, n)})`,
          )
        }
        // Compared as jsonb: same JSON type and value (`true` is not 1, 1 is not '1').
        for (const [key, value] of Object.entries(q.meta ?? {})) {
          params.push(key, JSON.stringify(value))
          const n = params.length
          where.push(`(${JSON_OBJECT("data -> 'meta'")} -> $${n - 1}::text)::jsonb = $${n}::jsonb`)
        }
        const clause = `WHERE ${where.join(' AND ')}`
        const total = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sources ${clause}`,
          params,
        )
        const { rows } = await db.query<{ data: string }>(
          `SELECT data::text AS data FROM sources ${clause} ORDER BY updated_at DESC, id DESC
           LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, q.limit, q.skip],
        )
        return { items: rows.map((r) => parse<Source>(r)), total: total.rows[0]!.n }
      },
      async expired(now, limit) {
        // The terms of the partial index `sources_expiry`, so that the planner can use it.
        const { rows } = await db.query<{ data: string }>(
          `SELECT data::text AS data FROM sources WHERE brain_id = $1 AND status = 'active'
             AND expires_at IS NOT NULL AND expires_at <= $2 ORDER BY expires_at, id LIMIT $3`,
          [brainId, now, limit],
        )
        return rows.map((r) => parse<Source>(r))
      },
    },
    evidence: {
      async supportedBy(evidenceIds) {
        if (evidenceIds.length === 0) return []
        const { rows } = await db.query<{
          evidence_id: string
          kind: EvidenceKind
          record_id: string
        }>(
          'SELECT evidence_id, kind, record_id FROM evidence WHERE brain_id = $1 AND evidence_id = ANY($2::text[])',
          [brainId, [...new Set(evidenceIds)]],
        )
        return rows.map((r): EvidenceLink => ({
          kind: r.kind,
          recordId: r.record_id,
          evidenceId: r.evidence_id,
        }))
      },
      async evidenceOf(kind, recordIds) {
        const out = new Map<string, string[]>()
        if (recordIds.length === 0) return out
        const { rows } = await db.query<{ record_id: string; evidence_id: string }>(
          `SELECT record_id, evidence_id FROM evidence WHERE brain_id = $1 AND kind = $2
             AND record_id = ANY($3::text[]) ORDER BY record_id, evidence_id`,
          [brainId, kind, [...new Set(recordIds)]],
        )
        for (const r of rows) {
          const ids = out.get(r.record_id)
          if (ids === undefined) out.set(r.record_id, [r.evidence_id])
          else ids.push(r.evidence_id)
        }
        return out
      },
    },
  }
}
