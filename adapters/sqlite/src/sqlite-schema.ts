import type { SqliteDatabaseLike } from './sqlite-database-like.js'

/**
 * Schema migrations, applied in order and tracked in `PRAGMA user_version`. Never edit a released
 * migration: append a new one.
 */
const CATALOG_MIGRATIONS = [
  `CREATE TABLE brains (
     id TEXT PRIMARY KEY,
     name_key TEXT NOT NULL,
     token_hash TEXT NOT NULL,
     token_last4 TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX brains_token_hash ON brains(token_hash);`,
]

/**
 * Migration 1's `snapshots` table is unused since the port lost `getSnapshot`/`putSnapshot` (index
 * snapshots are files in `snapshotDir`). It stays: migration 1 is released, and dropping the table in a
 * new migration would destroy whatever an older version wrote there, for no gain (an empty table costs
 * one page).
 */
export const BRAIN_MIGRATIONS = [
  `CREATE TABLE passages (id TEXT PRIMARY KEY, source TEXT, inserted_at TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX passages_source ON passages(source);
   CREATE INDEX passages_inserted ON passages(inserted_at);
   CREATE TABLE entities (uuid TEXT PRIMARY KEY, name TEXT NOT NULL, last_updated TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX entities_updated ON entities(last_updated);
   CREATE TABLE entity_names (norm TEXT NOT NULL, uuid TEXT NOT NULL, PRIMARY KEY (norm, uuid)) WITHOUT ROWID;
   CREATE INDEX entity_names_uuid ON entity_names(uuid);
   CREATE TABLE entity_labels (uuid TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY (uuid, label)) WITHOUT ROWID;
   CREATE INDEX entity_labels_label ON entity_labels(label);
   CREATE TABLE relationships (uuid TEXT PRIMARY KEY, subject_uuid TEXT NOT NULL, object_uuid TEXT NOT NULL,
     name TEXT NOT NULL, last_updated TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX relationships_subject ON relationships(subject_uuid);
   CREATE INDEX relationships_object ON relationships(object_uuid);
   CREATE TABLE observations (id TEXT PRIMARY KEY, resource_id TEXT NOT NULL, inserted_at TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX observations_resource ON observations(resource_id);
   CREATE TABLE structured (id TEXT PRIMARY KEY, inserted_at TEXT NOT NULL, data TEXT NOT NULL);
   CREATE TABLE changelog (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, data TEXT NOT NULL);
   CREATE TABLE tasks (id TEXT PRIMARY KEY, status TEXT NOT NULL, created_at TEXT NOT NULL, ended_at TEXT, data TEXT NOT NULL);
   CREATE INDEX tasks_status ON tasks(status, created_at);
   CREATE TABLE vectors (space TEXT NOT NULL, id TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (space, id)) WITHOUT ROWID;
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE snapshots (name TEXT PRIMARY KEY, data BLOB NOT NULL);`,
  // Sources, provenance and forgetting (docs/forgetting.md). Passages written before have a NULL
  // source_id, and no `sourceId` in their JSON: readers fill null.
  `ALTER TABLE passages ADD COLUMN source_id TEXT;
   CREATE INDEX passages_source_id ON passages(source_id);
   CREATE TABLE sources (id TEXT PRIMARY KEY, status TEXT NOT NULL, updated_at TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX sources_listed ON sources(status, updated_at, id);
   CREATE TABLE evidence (
     evidence_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('entity', 'relationship', 'observation')),
     record_id TEXT NOT NULL,
     PRIMARY KEY (evidence_id, kind, record_id)
   ) WITHOUT ROWID;
   CREATE INDEX evidence_record ON evidence(kind, record_id);`,
  // Provenance of records written before migration 2, from the citations they carry (capped at 500
  // per record, so an entity cited more often keeps part of its evidence); a record without any was
  // written through /model/* and gets the "model" evidence that forgetting never removes.
  `INSERT OR IGNORE INTO evidence (evidence_id, kind, record_id)
     SELECT j.value, 'entity', e.uuid FROM entities e, json_each(e.data, '$.sourcePassageIds') j;
   INSERT OR IGNORE INTO evidence (evidence_id, kind, record_id)
     SELECT j.value, 'relationship', r.uuid FROM relationships r, json_each(r.data, '$.sourcePassageIds') j;
   INSERT OR IGNORE INTO evidence (evidence_id, kind, record_id)
     SELECT j.value, 'observation', o.id FROM observations o, json_each(o.data, '$.metadata.passage_ids') j;
   INSERT OR IGNORE INTO evidence (evidence_id, kind, record_id)
     SELECT 'model', 'entity', uuid FROM entities
     WHERE uuid NOT IN (SELECT record_id FROM evidence WHERE kind = 'entity');
   INSERT OR IGNORE INTO evidence (evidence_id, kind, record_id)
     SELECT 'model', 'relationship', uuid FROM relationships
     WHERE uuid NOT IN (SELECT record_id FROM evidence WHERE kind = 'relationship');
   INSERT OR IGNORE INTO evidence (evidence_id, kind, record_id)
     SELECT 'model', 'observation', id FROM observations
     WHERE id NOT IN (SELECT record_id FROM evidence WHERE kind = 'observation');`,
  // Expiry (docs/time.md): the source's `expiresAt` as a virtual column computed from its JSON (the
  // batch writes stay as they are; existing rows read NULL, never expiring), indexed for the sweep.
  `ALTER TABLE sources ADD COLUMN expires_at TEXT
     GENERATED ALWAYS AS (CASE WHEN json_valid(data) THEN json_extract(data, '$.expiresAt') END) VIRTUAL;
   CREATE INDEX sources_expiry ON sources(status, expires_at, id) WHERE expires_at IS NOT NULL;`,
  // Lists newest first walk an index in order instead of sorting the table, and skip over index
  // entries instead of rows (issue 29: their cost grew with the brain; benchmarks/results/op-growth.md).
  `DROP INDEX entities_updated;
   CREATE INDEX entities_updated ON entities(last_updated, uuid);
   CREATE INDEX relationships_updated ON relationships(last_updated, uuid);
   CREATE INDEX observations_inserted ON observations(inserted_at, id);
   CREATE INDEX changelog_seq ON changelog(seq);
   CREATE INDEX changelog_type ON changelog(type, seq);`,
  // An entity's newest observations (lists of entities show each one's) read in order from the index
  // and stop at the limit, instead of sorting all of the entity's observations.
  `DROP INDEX observations_resource;
   CREATE INDEX observations_resource ON observations(resource_id, inserted_at, id);`,
]

function migrate(db: SqliteDatabaseLike, migrations: string[]): void {
  const version = Number(db.pragma('user_version', { simple: true }))
  for (let i = version; i < migrations.length; i++) {
    db.transaction(() => {
      db.exec(migrations[i]!)
      db.pragma(`user_version = ${i + 1}`)
    })()
  }
}

/** Upper bound of a brain connection's page cache, in KiB (negative `cache_size` is KiB). */
export const BRAIN_CACHE_KIB = 64 * 1024
/** Size a brain's WAL file is cut back to when SQLite starts it over (`journal_size_limit`). */
export const BRAIN_WAL_LIMIT_BYTES = 64 * 2 ** 20

/**
 * WAL with synchronous=NORMAL: a committed transaction survives the process being killed (the WAL is
 * written before COMMIT returns), though not necessarily a power loss; FULL would add an fsync per
 * commit. The catalog uses FULL: it is tiny and holds the tokens.
 *
 * Brains set `secure_delete`: SQLite then overwrites deleted content, in the page and in freed pages,
 * with zeros (https://www.sqlite.org/pragma.html#pragma_secure_delete), so that a forgotten text does
 * not linger in free space of the file; `BrainStore.purge` then truncates the WAL, which still holds
 * the page images written before the delete. It is a per-connection setting, hence set at every open.
 * ON, not FAST: FAST leaves freed overflow pages as they were, and a passage longer than a page kept
 * its text in the file (sqlite-forgetting.test.ts fails with FAST). Cost, measured on the 2-core
 * machine: 100,000 upserts of 1.2 KB records and 10,000 deletes took the same time with and without it
 * (2.7 to 3.3 s either way, within run-to-run noise).
 *
 * Brains get a page cache of up to {@link BRAIN_CACHE_KIB} KiB instead of better-sqlite3's 16 MB
 * (`-16000`). A list page reads its count over one index and its rows over another
 * (`relationships_object` and `relationships_updated` are 7 and 11 MB at 140,000 relationships);
 * with 16 MB each query evicted
 * the other's pages, so every request read ~18 MB back from the OS: a deep `/retrieve/relationships`
 * page took 11.5 ms there against 2.6 ms with the indexes cached (benchmarks/results/op-growth.md,
 * issue 29 item 4). SQLite allocates cache pages as it reads them, so a small brain holds only what
 * it has read; the bound is per open connection, and a brain's connection is closed while the engine
 * holds none of its indexes.
 *
 * A WAL file never shrinks by itself: SQLite writes it over from the start once a checkpoint has
 * copied every frame, but leaves the file as large as it once grew. Brains set `journal_size_limit`
 * ({@link BRAIN_WAL_LIMIT_BYTES}) so that the file is cut back when the WAL starts over
 * (https://www.sqlite.org/pragma.html#pragma_journal_size_limit); `checkpointOnWorker` makes sure it
 * does start over under a steady stream of writes.
 */
export function prepareDatabase(db: SqliteDatabaseLike, kind: 'catalog' | 'brain'): void {
  db.pragma('journal_mode = WAL')
  db.pragma(kind === 'catalog' ? 'synchronous = FULL' : 'synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  if (kind === 'brain') {
    db.pragma('secure_delete = ON')
    db.pragma(`cache_size = -${BRAIN_CACHE_KIB}`)
    db.pragma(`journal_size_limit = ${BRAIN_WAL_LIMIT_BYTES}`)
  }
  migrate(db, kind === 'catalog' ? CATALOG_MIGRATIONS : BRAIN_MIGRATIONS)
}
