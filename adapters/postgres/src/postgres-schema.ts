import type { PoolClient } from 'pg'

/**
 * Every per-brain table is keyed by `brain_id` first: one set of tables for all brains, every primary
 * key and index leading with `brain_id` (README, "One key column per brain"). Text columns that are
 * sorted or compared use the "C" collation, so ids sort byte-wise as they do in SQLite and in memory,
 * whatever the database's locale. Records are kept as the exact JSON text they were written as
 * (`json`, not `jsonb`: no key reordering, no rejected `\u0000`), beside the columns queries filter on.
 *
 * Never edit a released migration: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE brains (
     id text COLLATE "C" PRIMARY KEY,
     name_key text NOT NULL,
     token_hash text NOT NULL,
     token_last4 text NOT NULL,
     created_at text COLLATE "C" NOT NULL
   );
   CREATE INDEX brains_token_hash ON brains (token_hash);
   CREATE TABLE passages (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, source text COLLATE "C", inserted_at text COLLATE "C" NOT NULL,
     data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE INDEX passages_source ON passages (brain_id, source);
   CREATE INDEX passages_inserted ON passages (brain_id, inserted_at, id);
   CREATE TABLE entities (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, name text NOT NULL, last_updated text COLLATE "C" NOT NULL,
     data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE INDEX entities_updated ON entities (brain_id, last_updated, id);
   CREATE TABLE entity_names (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     norm text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
     PRIMARY KEY (brain_id, norm, id)
   );
   CREATE INDEX entity_names_id ON entity_names (brain_id, id);
   CREATE TABLE entity_labels (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, label text COLLATE "C" NOT NULL,
     PRIMARY KEY (brain_id, id, label)
   );
   CREATE INDEX entity_labels_label ON entity_labels (brain_id, label);
   CREATE TABLE relationships (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, subject_id text COLLATE "C" NOT NULL,
     object_id text COLLATE "C" NOT NULL, name text COLLATE "C" NOT NULL,
     last_updated text COLLATE "C" NOT NULL, data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE INDEX relationships_subject ON relationships (brain_id, subject_id);
   CREATE INDEX relationships_object ON relationships (brain_id, object_id);
   CREATE TABLE observations (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, resource_id text COLLATE "C" NOT NULL,
     inserted_at text COLLATE "C" NOT NULL, data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE INDEX observations_resource ON observations (brain_id, resource_id);
   CREATE TABLE structured (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, inserted_at text COLLATE "C" NOT NULL, data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE TABLE changelog (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, seq bigint NOT NULL, type text COLLATE "C" NOT NULL,
     data json NOT NULL,
     PRIMARY KEY (brain_id, id),
     UNIQUE (brain_id, seq)
   );
   CREATE TABLE tasks (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, status text COLLATE "C" NOT NULL,
     created_at text COLLATE "C" NOT NULL, ended_at text COLLATE "C", data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE INDEX tasks_status ON tasks (brain_id, status, created_at);
   CREATE TABLE vectors (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     space text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, vector bytea NOT NULL,
     PRIMARY KEY (brain_id, space, id)
   );
   CREATE TABLE meta (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     key text COLLATE "C" NOT NULL, value text NOT NULL,
     PRIMARY KEY (brain_id, key)
   );`,
  // 2: several processes on one database (postgres-coordination.ts). Each brain's writes are numbered
  // in `brains.write_seq` and listed in `writes` for processes that follow them; tasks carry the lease
  // of the process running them; `settings` holds what processes must agree on (the system token hash).
  `ALTER TABLE brains ADD COLUMN write_seq bigint NOT NULL DEFAULT 0;
   CREATE TABLE writes (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     seq bigint NOT NULL, origin text NOT NULL, summary json NOT NULL,
     written_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (brain_id, seq)
   );
   CREATE INDEX writes_written_at ON writes (written_at);
   ALTER TABLE tasks ADD COLUMN lease_owner text, ADD COLUMN lease_until timestamptz;
   CREATE INDEX tasks_open ON tasks (created_at, brain_id, id) WHERE status IN ('queued', 'started');
   CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);`,
  // 3: sources, provenance and forgetting (docs/forgetting.md). Passages written before have a NULL
  // source_id and no \`sourceId\` in their JSON: readers fill null. Adding a nullable column without a
  // default rewrites nothing.
  `ALTER TABLE passages ADD COLUMN source_id text COLLATE "C";
   CREATE INDEX passages_source_id ON passages (brain_id, source_id);
   CREATE TABLE sources (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     id text COLLATE "C" NOT NULL, status text COLLATE "C" NOT NULL,
     updated_at text COLLATE "C" NOT NULL, data json NOT NULL,
     PRIMARY KEY (brain_id, id)
   );
   CREATE INDEX sources_listed ON sources (brain_id, status, updated_at, id);
   CREATE TABLE evidence (
     brain_id text COLLATE "C" NOT NULL REFERENCES brains (id) ON DELETE CASCADE,
     evidence_id text COLLATE "C" NOT NULL,
     kind text COLLATE "C" NOT NULL CHECK (kind IN ('entity', 'relationship', 'observation')),
     record_id text COLLATE "C" NOT NULL,
     PRIMARY KEY (brain_id, evidence_id, kind, record_id)
   );
   CREATE INDEX evidence_record ON evidence (brain_id, kind, record_id);`,
  // 4: provenance of records written before 3, from the citations they carry (capped at 500 per
  // record); a record without any was written through /model/* and gets the "model" evidence.
  `INSERT INTO evidence (brain_id, evidence_id, kind, record_id)
     SELECT e.brain_id, j.value, 'entity', e.id
     FROM entities e, json_array_elements_text(e.data -> 'sourcePassageIds') j
     ON CONFLICT DO NOTHING;
   INSERT INTO evidence (brain_id, evidence_id, kind, record_id)
     SELECT r.brain_id, j.value, 'relationship', r.id
     FROM relationships r, json_array_elements_text(r.data -> 'sourcePassageIds') j
     ON CONFLICT DO NOTHING;
   INSERT INTO evidence (brain_id, evidence_id, kind, record_id)
     SELECT o.brain_id, j.value, 'observation', o.id
     FROM observations o, json_array_elements_text(
       CASE WHEN json_typeof(o.data -> 'metadata' -> 'passage_ids') = 'array'
            THEN o.data -> 'metadata' -> 'passage_ids' ELSE '[]'::json END) j
     ON CONFLICT DO NOTHING;
   INSERT INTO evidence (brain_id, evidence_id, kind, record_id)
     SELECT e.brain_id, 'model', 'entity', e.id FROM entities e
     WHERE NOT EXISTS (SELECT 1 FROM evidence v WHERE v.brain_id = e.brain_id AND v.kind = 'entity' AND v.record_id = e.id)
     ON CONFLICT DO NOTHING;
   INSERT INTO evidence (brain_id, evidence_id, kind, record_id)
     SELECT r.brain_id, 'model', 'relationship', r.id FROM relationships r
     WHERE NOT EXISTS (SELECT 1 FROM evidence v WHERE v.brain_id = r.brain_id AND v.kind = 'relationship' AND v.record_id = r.id)
     ON CONFLICT DO NOTHING;
   INSERT INTO evidence (brain_id, evidence_id, kind, record_id)
     SELECT o.brain_id, 'model', 'observation', o.id FROM observations o
     WHERE NOT EXISTS (SELECT 1 FROM evidence v WHERE v.brain_id = o.brain_id AND v.kind = 'observation' AND v.record_id = o.id)
     ON CONFLICT DO NOTHING;`,
  // 5: expiry (docs/time.md): the source's \`expiresAt\` as a generated column of its JSON (the batch
  // writes stay as they are; existing rows read NULL, never expiring), indexed for the sweep. A
  // stored generated column rewrites the sources table once: one row per source, no content.
  `ALTER TABLE sources ADD COLUMN expires_at text COLLATE "C"
     GENERATED ALWAYS AS (data ->> 'expiresAt') STORED;
   CREATE INDEX sources_expiry ON sources (brain_id, expires_at, id)
     WHERE status = 'active' AND expires_at IS NOT NULL;`,
  // 6: lists newest first walk an index backward instead of sorting the brain's rows, and a deep
  // OFFSET steps over index entries instead of rows (issue 29: their cost grew with the brain;
  // benchmarks/results/op-growth.md). Entities, passages and the changelog by seq had theirs already.
  `CREATE INDEX relationships_updated ON relationships (brain_id, last_updated, id);
   CREATE INDEX observations_inserted ON observations (brain_id, inserted_at, id);
   CREATE INDEX structured_inserted ON structured (brain_id, inserted_at, id);
   CREATE INDEX changelog_type ON changelog (brain_id, type, seq);`,
  // 7: an entity's newest observations (lists of entities show each one's, \`ofResources\`) read in
  // order from the index and stop at the limit, instead of sorting all of the entity's observations.
  `DROP INDEX observations_resource;
   CREATE INDEX observations_resource ON observations (brain_id, resource_id, inserted_at, id);`,
]

/**
 * Arbitrary constant of the advisory lock held while migrating: 'engr' in ASCII. Two processes opening
 * the same database at once queue on it; the second finds the migrations applied.
 */
export const MIGRATION_LOCK = 0x656e6772

/**
 * Applies the migrations not yet recorded in `schema_migrations`, all in one transaction holding the
 * migration lock (PostgreSQL DDL is transactional: a failed migration leaves nothing behind).
 */
export async function migrate(client: PoolClient): Promise<number> {
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    )
    const { rows } = await client.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM schema_migrations',
    )
    const current = rows[0]?.v ?? 0
    for (let i = current; i < MIGRATIONS.length; i++) {
      await client.query(MIGRATIONS[i]!)
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [i + 1])
    }
    await client.query('COMMIT')
    return MIGRATIONS.length
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
