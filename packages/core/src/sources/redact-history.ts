import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'

/** Needles per `changelog.containing` call (the repository's bound). */
const NEEDLES = 100

/** Entries that hold ids and counts only (written by sources and deletions): nothing to redact. */
const ID_ONLY_TYPES: ReadonlySet<string> = new Set([
  'node_deleted',
  'relationship_deleted',
  'observation_deleted',
  'source_ingested',
  'source_forgotten',
])

/**
 * The redaction of history after a forget or a delete (docs/forgetting.md): every changelog entry that
 * mentions a touched record (deleted, or rewritten because some of its evidence was forgotten) keeps
 * its id, seq, time and type, and its `change` becomes the ids it referred to. Entries about a record
 * that survives lose their detail too: they may quote what was forgotten (a merge's snapshot of a
 * node carries the description and aliases of the moment), and telling which fields did would need
 * the forgotten text itself kept.
 */
export async function redactHistory(
  store: BrainStore,
  touched: readonly string[],
  reason: string,
): Promise<{ batch: WriteBatch; redacted: number }> {
  const found = new Map<string, ChangelogEntry>()
  const ids = [...new Set(touched)]
  for (let i = 0; i < ids.length; i += NEEDLES)
    for (const entry of await store.changelog.containing(ids.slice(i, i + NEEDLES)))
      found.set(entry.id, entry)
  const redactChangelog: NonNullable<WriteBatch['redactChangelog']> = []
  for (const entry of found.values()) {
    if (entry.change.redacted === true || ID_ONLY_TYPES.has(entry.type)) continue
    const json = JSON.stringify(entry.change)
    const refs = ids.filter((id) => json.includes(id))
    redactChangelog.push({
      id: entry.id,
      change: { type: entry.type, redacted: true, reason, refs },
    })
  }
  return { batch: { redactChangelog }, redacted: redactChangelog.length }
}
