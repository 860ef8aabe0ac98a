import type { EvidenceKind, EvidenceLink } from '../model/source.js'

/**
 * The brain's provenance relation: which passage (or structured record) supports which entity,
 * relationship or observation. Written only through `BrainStore.apply` (`WriteBatch.evidence`); rows
 * go when either side is deleted. Forgetting reads it (docs/forgetting.md).
 */
export interface EvidenceRepository {
  /** Every link whose `evidenceId` is one of `evidenceIds` (any order). */
  supportedBy(evidenceIds: string[]): Promise<EvidenceLink[]>
  /** Every evidence id of each record (uncapped), keyed by record id; records without any are left out. */
  evidenceOf(kind: EvidenceKind, recordIds: string[]): Promise<Map<string, string[]>>
}
