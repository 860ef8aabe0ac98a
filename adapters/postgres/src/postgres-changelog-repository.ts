import type { ChangelogEntry, ChangelogRepository } from '@engram/core'
import { LIKE, parse, type Queryable } from './postgres-sql.js'

type SeqRow = { seq: string; data: string }

/** A stored entry: its JSON lacks `seq` (a bigint column, read as a string by pg). */
const entryOf = (row: SeqRow): ChangelogEntry => ({
  ...parse<Omit<ChangelogEntry, 'seq'>>(row),
  seq: Number(row.seq),
})

/**
 * The changelog of one brain. `seq` is assigned with the brain row locked (postgres-brain-store.ts),
 * so entries commit in `seq` order and `since` never misses one committed later with a lower `seq`.
 */
export function postgresChangelogRepository(db: Queryable, brainId: string): ChangelogRepository {
  return {
    async get(id) {
      const { rows } = await db.query<SeqRow>(
        'SELECT seq, data::text AS data FROM changelog WHERE brain_id = $1 AND id = $2',
        [brainId, id],
      )
      return rows[0] === undefined ? null : entryOf(rows[0])
    },
    async list(q) {
      const where = ['brain_id = $1']
      const params: unknown[] = [brainId]
      if (q.types !== undefined && q.types.length === 1) {
        // An equality, not `= ANY`: the (brain_id, type, seq) index then yields `seq` in order
        // (before PostgreSQL 17, an array condition on its second column loses the order).
        params.push(q.types[0])
        where.push(`type = $${params.length}`)
      } else if (q.types !== undefined && q.types.length > 1) {
        params.push(q.types)
        where.push(`type = ANY($${params.length}::text[])`)
      }
      if (q.queryText) {
        params.push(q.queryText)
        where.push(LIKE(`coalesce((data -> 'change')::text, '')`, params.length))
      }
      const clause = `WHERE ${where.join(' AND ')}`
      const counted = await db.query<{ n: number; lowest: string | null; highest: string | null }>(
        `SELECT count(*)::int AS n, min(seq) AS lowest, max(seq) AS highest FROM changelog ${clause}`,
        params,
      )
      const { n: total, lowest, highest } = counted.rows[0]!
      // Unfiltered, and the sequence unbroken from its lowest to its highest `seq` (entries are
      // appended at max + 1 with the brain locked and never deleted one by one; the count proves
      // it): the entry `skip` places below the newest has `seq` = highest - skip, so the page is a
      // range of the key, not `skip` index entries stepped over (issue 29 item 4).
      if (where.length === 1 && Number(highest ?? 0) - Number(lowest ?? 1) + 1 === total) {
        const { rows } = await db.query<SeqRow>(
          `SELECT seq, data::text AS data FROM changelog WHERE brain_id = $1 AND seq <= $2
           ORDER BY seq DESC LIMIT $3`,
          [brainId, Number(highest ?? 0) - q.skip, q.limit],
        )
        return { items: rows.map(entryOf), total }
      }
      // The page's sequence numbers come from an index ((brain_id, seq), or (brain_id, type, seq)
      // for one type), so a deep `skip` steps over index entries instead of the large JSON rows.
      const { rows } = await db.query<SeqRow>(
        `SELECT seq, data::text AS data FROM changelog WHERE brain_id = $1 AND seq IN (
           SELECT seq FROM changelog ${clause} ORDER BY seq DESC
           LIMIT $${params.length + 1} OFFSET $${params.length + 2}) ORDER BY seq DESC`,
        [...params, q.limit, q.skip],
      )
      return { items: rows.map(entryOf), total }
    },
    async types() {
      const { rows } = await db.query<{ v: string }>(
        'SELECT DISTINCT type AS v FROM changelog WHERE brain_id = $1 ORDER BY v',
        [brainId],
      )
      return rows.map((r) => r.v)
    },
    async since(afterSeq, limit) {
      const { rows } = await db.query<SeqRow>(
        'SELECT seq, data::text AS data FROM changelog WHERE brain_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [brainId, afterSeq, limit],
      )
      return rows.map(entryOf)
    },
    async lastSeq() {
      const { rows } = await db.query<{ n: string }>(
        'SELECT coalesce(max(seq), 0) AS n FROM changelog WHERE brain_id = $1',
        [brainId],
      )
      return Number(rows[0]!.n)
    },
    async containing(needles) {
      const wanted = [...new Set(needles.filter((n) => n !== ''))]
      if (wanted.length === 0) return []
      // One scan of the brain's changelog for all needles: `strpos` on the JSON text as written.
      const { rows } = await db.query<SeqRow>(
        `SELECT seq, data::text AS data FROM changelog c WHERE brain_id = $1
           AND EXISTS (SELECT 1 FROM unnest($2::text[]) n WHERE strpos(c.data::text, n) > 0)`,
        [brainId, wanted],
      )
      return rows.map(entryOf)
    },
  }
}
