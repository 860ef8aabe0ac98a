/** Normalised form used to match names and aliases: NFKC, lower-case, trimmed, single spaces. */
export function normalizeEntityName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ')
}
