/** Normalised form used to match names and aliases: NFKC, lower-case, trimmed, single spaces. */
export function normalizeEntityName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ')
}

/**
 * `names` that are not `name` once normalised, each once (the first spelling kept), none empty: what an
 * entity called `name` keeps as its aliases.
 */
export function otherNames(name: string, names: readonly string[]): string[] {
  const seen = new Set([normalizeEntityName(name)])
  return names.filter((n) => {
    const norm = normalizeEntityName(n)
    if (norm.length === 0 || seen.has(norm)) return false
    seen.add(norm)
    return true
  })
}
