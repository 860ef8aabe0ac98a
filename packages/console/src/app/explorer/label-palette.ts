/**
 * Colours for entity labels: a fixed qualitative palette (Okabe & Ito, "Color Universal Design", 2008,
 * extended with four of ColorBrewer's Set2, Harrower & Brewer 2003) indexed by a hash of the label, so a
 * label keeps its colour across sessions, brains and reloads whatever order labels show up in.
 */
const PALETTE = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#66c2a5',
  '#8da0cb',
  '#a6d854',
  '#e5c494',
  '#7f7f7f',
] as const

/** Colour of nodes without any label. */
export const UNLABELLED_COLOR = '#9aa3b2'

/** The colour of `label` (case-insensitive): FNV-1a 32-bit hash modulo the palette size. */
export function labelColor(label: string | undefined): string {
  if (label === undefined || label === '') return UNLABELLED_COLOR
  let hash = 0x811c9dc5
  const text = label.toLowerCase()
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return PALETTE[hash % PALETTE.length]!
}
