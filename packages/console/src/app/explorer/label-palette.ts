/**
 * Colours for entity labels: a fixed qualitative palette (Okabe & Ito, "Color Universal Design", 2008,
 * extended with ColorBrewer Set2 colours, Harrower & Brewer 2003). The labels the extractors write
 * (PERSON, ORGANIZATION, PLACE, EVENT, CONCEPT, PRODUCT, ...) each own a colour; any other label takes
 * one of the remaining colours by a hash of its name. Either way a label keeps its colour across
 * sessions, brains and reloads whatever order labels show up in.
 */
export const PALETTE = [
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

/** Labels with a reserved colour (palette index), matched case-insensitively. */
const RESERVED: Record<string, number> = {
  person: 0,
  organization: 1,
  place: 2,
  location: 2,
  event: 3,
  concept: 4,
  topic: 4,
  product: 5,
  project: 6,
}
const FREE = PALETTE.length - 7

/** Colour of nodes without any label. */
export const UNLABELLED_COLOR = '#9aa3b2'

/**
 * The colour of `label` (case-insensitive): its reserved colour, else the FNV-1a 32-bit hash of its
 * name picks one of the unreserved colours.
 */
export function labelColor(label: string | undefined): string {
  if (label === undefined || label === '') return UNLABELLED_COLOR
  const text = label.toLowerCase()
  const reserved = RESERVED[text]
  if (reserved !== undefined) return PALETTE[reserved]!
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return PALETTE[7 + (hash % FREE)]!
}
