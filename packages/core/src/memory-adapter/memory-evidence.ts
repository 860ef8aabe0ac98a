import type { EvidenceKind, EvidenceLink } from '../model/source.js'

const KINDS: ReadonlySet<string> = new Set<EvidenceKind>(['entity', 'relationship', 'observation'])

const recordKey = (kind: EvidenceKind, recordId: string) => `${kind}\u0000${recordId}`

/**
 * The memory adapter's `evidence` table: the set of links, indexed from both sides so that a delete
 * (of a passage, or of a record) and both reads cost the links they touch, not the brain's size.
 * Forgetting a one-passage source in a large brain must not scan every link.
 */
export class MemoryEvidence {
  /** evidence id -> record key -> link. */
  private readonly byEvidence = new Map<string, Map<string, EvidenceLink>>()
  /** record key -> evidence ids. */
  private readonly byRecord = new Map<string, Set<string>>()
  private count = 0

  /** Throws on a link a database would reject, before the batch changes anything. */
  static validate(link: EvidenceLink): void {
    if (
      !KINDS.has(link.kind) ||
      typeof link.recordId !== 'string' ||
      typeof link.evidenceId !== 'string'
    )
      throw new Error(`invalid evidence link: ${JSON.stringify(link)}`)
  }

  get size(): number {
    return this.count
  }

  add(link: EvidenceLink): void {
    const key = recordKey(link.kind, link.recordId)
    let links = this.byEvidence.get(link.evidenceId)
    if (links === undefined) this.byEvidence.set(link.evidenceId, (links = new Map()))
    if (links.has(key)) return
    links.set(key, { kind: link.kind, recordId: link.recordId, evidenceId: link.evidenceId })
    let ids = this.byRecord.get(key)
    if (ids === undefined) this.byRecord.set(key, (ids = new Set()))
    ids.add(link.evidenceId)
    this.count++
  }

  /** Drops every link whose evidence is `evidenceId` (a deleted passage or structured record). */
  deleteEvidence(evidenceId: string): void {
    const links = this.byEvidence.get(evidenceId)
    if (links === undefined) return
    for (const key of links.keys()) this.unlinkRecord(key, evidenceId)
    this.count -= links.size
    this.byEvidence.delete(evidenceId)
  }

  /** Drops every link of a deleted entity, relationship or observation. */
  deleteRecord(kind: EvidenceKind, recordId: string): void {
    const key = recordKey(kind, recordId)
    const ids = this.byRecord.get(key)
    if (ids === undefined) return
    for (const evidenceId of ids) {
      const links = this.byEvidence.get(evidenceId)!
      links.delete(key)
      if (links.size === 0) this.byEvidence.delete(evidenceId)
    }
    this.count -= ids.size
    this.byRecord.delete(key)
  }

  supportedBy(evidenceIds: string[]): EvidenceLink[] {
    const out: EvidenceLink[] = []
    for (const id of new Set(evidenceIds))
      for (const link of this.byEvidence.get(id)?.values() ?? []) out.push({ ...link })
    return out
  }

  evidenceOf(kind: EvidenceKind, recordIds: string[]): Map<string, string[]> {
    const out = new Map<string, string[]>()
    for (const id of recordIds) {
      const ids = this.byRecord.get(recordKey(kind, id))
      if (ids !== undefined && ids.size > 0) out.set(id, [...ids].sort())
    }
    return out
  }

  private unlinkRecord(key: string, evidenceId: string): void {
    const ids = this.byRecord.get(key)
    if (ids === undefined) return
    ids.delete(evidenceId)
    if (ids.size === 0) this.byRecord.delete(key)
  }
}
