/**
 * Normalises LoCoMo evidence ids. A few are malformed in the released data (datasets/README.md):
 * several ids in one string (`D8:6; D9:17`), leading zeros (`D30:05`), a stray colon (`D:11:26`), a bare `D`.
 * We split on `;`, `,` and whitespace, drop the stray colon, then rewrite each `D<session>:<turn>` with integer
 * parts; anything else (like `D`) is dropped.
 */
export function parseEvidenceIds(raw: readonly unknown[]): string[] {
  const out: string[] = []
  for (const item of raw) {
    for (const piece of String(item).split(/[;,\s]+/)) {
      const m = /^D:?(\d+):(\d+)$/i.exec(piece.trim())
      if (!m) continue
      const id = `D${Number(m[1])}:${Number(m[2])}`
      if (!out.includes(id)) out.push(id)
    }
  }
  return out
}
