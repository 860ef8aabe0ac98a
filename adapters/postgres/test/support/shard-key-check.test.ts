import { describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../src/postgres-schema.js'
import { brainScopedTables, unpinnedTables } from './shard-key-check.js'

const tables = brainScopedTables(MIGRATIONS)
const check = (sql: string) => unpinnedTables(sql, tables)

describe('brainScopedTables', () => {
  it('finds every table with a brain_id column, and not the catalogue', () => {
    expect([...tables].sort()).toEqual(
      [
        'passages',
        'entities',
        'entity_names',
        'entity_labels',
        'relationships',
        'observations',
        'structured',
        'changelog',
        'tasks',
        'vectors',
        'meta',
        'writes',
        'sources',
        'evidence',
      ].sort(),
    )
  })
})

describe('unpinnedTables', () => {
  it.each([
    'SELECT * FROM passages WHERE id = $1',
    'SELECT * FROM passages',
    'DELETE FROM writes WHERE written_at < now()',
    'UPDATE tasks SET lease_until = NULL WHERE lease_owner = $1',
    // An OR beside the equality restricts nothing.
    'SELECT 1 FROM passages WHERE id = $2 OR brain_id = $1',
    'SELECT 1 FROM passages WHERE (brain_id = $1 OR id = $2)',
    // Not a restriction: a FILTER, a CASE, a SET.
    'SELECT count(*) FILTER (WHERE brain_id = $1) FROM tasks',
    'SELECT CASE WHEN brain_id = $1 THEN 1 END FROM tasks',
    'UPDATE meta SET brain_id = $1 WHERE key = $2',
    // Pinned in a subquery only: the outer table is not.
    'SELECT 1 FROM entities WHERE id IN (SELECT id FROM entity_labels WHERE brain_id = $1)',
    // One branch of a UNION pinned, the other not.
    'SELECT data FROM relationships WHERE brain_id = $1 UNION ALL SELECT data FROM relationships WHERE id = $2',
    // A join on something else than brain_id.
    'SELECT 1 FROM entity_names n JOIN entities e ON e.id = n.id WHERE n.brain_id = $1',
    // Comma joins, and other uses of a table.
    'SELECT 1 FROM entities e, passages WHERE e.brain_id = $1',
    'TRUNCATE passages',
    'INSERT INTO passages (id, brain_id) VALUES ($1, $2)',
    'INSERT INTO evidence (brain_id, kind) SELECT e.brain_id, $1 FROM entities e',
    'SELECT 1 FROM tasks WHERE brain_id = ANY($1::text[])',
  ])('flags %s', (sql) => {
    expect(check(sql)).not.toEqual([])
  })

  it.each([
    'SELECT data FROM passages WHERE brain_id = $1 AND id = $2',
    'select data from passages p where p.brain_id = $1',
    'SELECT 1 FROM passages WHERE $1 = brain_id',
    'SELECT * FROM brains WHERE token_hash = $1',
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
    `INSERT INTO meta (brain_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (brain_id, key) DO UPDATE SET value = excluded.value`,
    'SELECT e.data FROM entity_names n JOIN entities e ON e.brain_id = n.brain_id AND e.id = n.id WHERE n.brain_id = $1',
    `SELECT (SELECT count(*) FROM passages WHERE brain_id = $1) AS passages,
       (SELECT count(*) FROM tasks WHERE brain_id = $1 AND status = 'x') AS tasks`,
    'SELECT data FROM relationships WHERE brain_id = $1 UNION ALL SELECT data FROM relationships WHERE brain_id = $1',
    'SELECT 1 FROM entities WHERE brain_id = $1 AND (name = $2 OR id = $3)',
    "SELECT 1 FROM passages WHERE brain_id = $1 AND data::text = 'FROM tasks'",
    'BEGIN',
    'CREATE TABLE x (brain_id text)',
    'LISTEN engram_writes',
  ])('accepts %s', (sql) => {
    expect(check(sql)).toEqual([])
  })
})
