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
const BRAIN_MIGRATIONS = [
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

/**
 * WAL with synchronous=NORMAL: a committed transaction survives the process being killed (the WAL is
 * written before COMMIT returns), though not necessarily a power loss; FULL would add an fsync per
 * commit. The catalog uses FULL: it is tiny and holds the tokens.
 */
export function prepareDatabase(db: SqliteDatabaseLike, kind: 'catalog' | 'brain'): void {
  db.pragma('journal_mode = WAL')
  db.pragma(kind === 'catalog' ? 'synchronous = FULL' : 'synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  migrate(db, kind === 'catalog' ? CATALOG_MIGRATIONS : BRAIN_MIGRATIONS)
}
