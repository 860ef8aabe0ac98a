/**
 * Single-valued predicates: a subject has one value at a time (one home, one employer, one spouse),
 * so a newer fact with another object ends the older one. Graphiti decides this per edge with an LLM
 * (getzep/graphiti, `get_edge_contradictions`); Engram reads it from this table, which a brain extends
 * through its settings (`temporal.single_valued_predicates`, docs/time.md). Predicates are compared
 * after dropping auxiliaries ("IS_MARRIED" is "MARRY") and trying the usual English inflections
 * ("LIVED", "LIVES", "LIVING" are "LIVE"), so the table lists base forms only.
 */

/** slot -> predicates (UPPER_SNAKE base forms) whose facts fill that slot. */
export type SingleValuedTable = Readonly<Record<string, readonly string[]>>

export const DEFAULT_SINGLE_VALUED: SingleValuedTable = {
  residence: [
    'LIVE',
    'LIVE_IN',
    'MOVE',
    'MOVE_TO',
    'RELOCATE',
    'RELOCATE_TO',
    'RESIDE',
    'RESIDE_IN',
    'SETTLE',
    'SETTLE_IN',
    'RESIDENCE',
  ],
  employer: ['WORK', 'WORK_FOR', 'WORK_AT', 'JOIN', 'EMPLOY', 'EMPLOYED_BY', 'WORK_AS', 'EMPLOYER'],
  spouse: ['MARRY', 'MARRIED_TO', 'WED', 'SPOUSE'],
  head_of: ['HEAD', 'LEAD', 'CHAIR', 'HEAD_OF', 'LEADER_OF', 'CEO_OF', 'PRESIDENT_OF'],
}

/** Words before the verb that carry tense or aspect, not meaning. */
const AUXILIARIES = new Set([
  'IS',
  'ARE',
  'AM',
  'WAS',
  'WERE',
  'BE',
  'BEEN',
  'BEING',
  'HAS',
  'HAVE',
  'HAD',
  'WILL',
  'WOULD',
  'SHALL',
  'CAN',
  'COULD',
  'MAY',
  'MIGHT',
  'DO',
  'DOES',
  'DID',
  'STARTED',
  'STARTS',
  'START',
  'BEGAN',
  'BEGINS',
  'JUST',
  'RECENTLY',
  'ALSO',
  'FINALLY',
  'GOT',
  'GETS',
  'GET',
  'NOW',
  'STILL',
  'OFFICIALLY',
  'EVENTUALLY',
  'THEN',
  'SOON',
])

const IRREGULAR: Record<string, string> = { LED: 'LEAD', RAN: 'RUN', WED: 'WED', WEDDED: 'WED' }

/** Candidate base forms of an inflected verb, most likely first. */
function baseForms(word: string): string[] {
  const forms = [word]
  if (IRREGULAR[word] !== undefined) forms.push(IRREGULAR[word])
  const strip = (suffix: string, add = '') =>
    word.endsWith(suffix) && word.length > suffix.length + 1
      ? forms.push(word.slice(0, -suffix.length) + add)
      : 0
  strip('IES', 'Y')
  strip('IED', 'Y')
  strip('ES')
  strip('S')
  strip('ED')
  strip('ED', 'E')
  strip('D')
  strip('ING')
  strip('ING', 'E')
  // "RUNNING", "PLANNED": a doubled final consonant.
  if (/([B-DF-HJ-NP-TV-Z])\1(ED|ING)$/.test(word)) forms.push(word.replace(/(.)\1(ED|ING)$/, '$1'))
  return forms
}

/** A compiled table: predicate base form -> slot. */
export class SingleValuedSlots {
  private readonly slotOfBase = new Map<string, string>()
  private readonly cache = new Map<string, string | null>()

  constructor(table: SingleValuedTable) {
    for (const [slot, predicates] of Object.entries(table))
      for (const p of predicates) this.slotOfBase.set(p.toUpperCase(), slot)
  }

  /** The slot a predicate fills, or null when it is not single-valued. */
  slotOf(predicate: string): string | null {
    const cached = this.cache.get(predicate)
    if (cached !== undefined) return cached
    const words = predicate
      .toUpperCase()
      .split('_')
      .filter((w) => w.length > 0)
    while (words.length > 1 && AUXILIARIES.has(words[0]!)) words.shift()
    let slot: string | null = null
    if (words.length > 0) {
      const rest = words.slice(1)
      for (const base of baseForms(words[0]!)) {
        // "WORKS_FOR" as "WORK_FOR", then "WORK" alone ("WORKS_AT_THE" reads as "WORK").
        slot =
          this.slotOfBase.get([base, ...rest].join('_')) ??
          (rest.length > 0 ? this.slotOfBase.get([base, rest[0]!].join('_')) : undefined) ??
          this.slotOfBase.get(base) ??
          null
        if (slot !== null) break
      }
    }
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(predicate, slot)
    return slot
  }
}

/**
 * The table a brain runs with: the defaults, with each slot the brain's settings name replaced by its
 * list (an empty list switches that slot off).
 */
export function brainSingleValued(
  override: SingleValuedTable | null | undefined,
): SingleValuedTable {
  return { ...DEFAULT_SINGLE_VALUED, ...(override ?? {}) }
}

/** Meta key of a brain's single-valued predicate table override (JSON; docs/time.md). */
export const SINGLE_VALUED_META = 'temporal.single_valued_predicates'

/** Compiled tables by override JSON: brains with the same settings share one. */
const compiled = new Map<string, SingleValuedSlots>()

/** The slots a brain runs with: its meta's override over the defaults (compiled once per table). */
export async function brainSlots(meta: {
  get(key: string): Promise<string | null>
}): Promise<SingleValuedSlots> {
  const raw = (await meta.get(SINGLE_VALUED_META)) ?? '{}'
  let slots = compiled.get(raw)
  if (slots === undefined) {
    slots = new SingleValuedSlots(brainSingleValued(JSON.parse(raw) as SingleValuedTable))
    if (compiled.size > 1000) compiled.clear()
    compiled.set(raw, slots)
  }
  return slots
}
