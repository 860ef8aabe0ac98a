/**
 * A date a text writes without its year ("in May", "on June 3") or its week ("on Friday") is one of
 * several; chrono-node takes the one nearest the text's time, on either side, so "We met in May"
 * written in March was this coming May and "I'll see him on Monday" written on a Wednesday the
 * Monday before. The verb's tense says which side: a past tense speaks of the last such day before
 * the time of writing, a present or a future of the next one ("My daughter starts school in
 * September", "The exam is on Monday"). This is tense's deictic reading, the event placed against
 * the time of speech (Reichenbach, Elements of Symbolic Logic, 1947, §51; Comrie, Tense, 1985, ch.
 * 2). A modal ("could", "would") or no finite verb says neither, and a date that says its side
 * itself ("last Friday", "next week", "May 2022", "tomorrow") is left as chrono-node read it.
 */

import * as chrono from 'chrono-node'

/** The side of the time of writing a clause's tense puts its date on. */
export type Tense = 'past' | 'future'

/** A tagged word as the tense reads it (compromise's terms: `implicit` is a contraction's part). */
export interface TensedTerm {
  readonly text: string
  readonly tags: readonly string[]
  readonly offset: { readonly start: number }
  readonly implicit?: string
}

const FUTURE = /^(?:will|shall|wo|'ll|’ll)$/
const PAST = /^(?:was|were|had|did|used)$/
const PERFECT = /^(?:have|has|'ve)$/
const PRESENT = /^(?:am|is|are|do|does|'m|'re|'s)$/
/** A date whose own words say its side of the time of writing. */
const SIDED = /\b(?:last|next|this|past|coming|previous|ago|since|until)\b/i

const isVerb = (t: TensedTerm) => t.tags.includes('Verb')
const word = (t: TensedTerm) => (t.implicit ?? t.text).toLowerCase()

/**
 * The tense of the verb group that governs a date at `at` (an offset in the terms' text): the
 * nearest group before it ("I saw him on Friday"), else the first after it ("On Friday we went
 * hiking"). Null for a modal or a group with no finite verb ("Going to Paris on Friday!").
 */
export function tenseAt(terms: readonly TensedTerm[], at: number): Tense | null {
  let last = -1
  for (let i = 0; i < terms.length && terms[i]!.offset.start < at; i++)
    if (isVerb(terms[i]!)) last = i
  if (last < 0) last = terms.findIndex((t) => t.offset.start > at && isVerb(t))
  if (last < 0) return null
  let first = last
  while (first > 0 && (isVerb(terms[first - 1]!) || terms[first - 1]!.tags.includes('Negative')))
    first--
  // The group's first verb is its finite one, which carries the tense ("will see", "got married").
  const group = terms.slice(first, last + 1).filter(isVerb)
  const finite = group[0]!
  const w = word(finite)
  if (FUTURE.test(w)) return 'future'
  if (PAST.test(w) || finite.tags.includes('PastTense')) return 'past'
  const participle = group.slice(1).some((t) => t.tags.includes('PastTense'))
  if (PERFECT.test(w)) return participle ? 'past' : 'future'
  if (PRESENT.test(w) || finite.tags.includes('PresentTense')) return 'future'
  // An auxiliary the tagger gives no tense takes its participle's ("got married", "could have met"); a
  // modal before an infinitive has none ("could see").
  return participle ? 'past' : null
}

/** Components as chrono-node parsed them, which take implied values (`ParsedComponents` not). */
const parsing = (c: chrono.ParsedComponents | null | undefined) =>
  c instanceof chrono.ParsingComponents ? c : null

const dayNumber = (year: number, month: number, day: number) =>
  Date.UTC(year, month - 1, day) / 86_400_000

/**
 * Whether a tense may move `result`: a date without its year whose words do not say its side. Ask
 * first, so a sentence's verbs are read only for such dates (most dates in text carry their year).
 */
export const movesWithTense = (result: chrono.ParsedResult) =>
  !result.start.isCertain('year') && !SIDED.test(result.text)

/**
 * Moves a date chrono-node read without its year or week to the side `tense` puts it on, in place
 * (its implied components; what the text wrote stays): a year back or forward for a month or a day
 * of a month, a week for a weekday alone. A range's end moves with its start.
 */
export function placeInTense(result: chrono.ParsedResult, tense: Tense | null): void {
  const start = result.start
  if (tense === null || !movesWithTense(result)) return
  const ref = result.refDate
  const today = dayNumber(ref.getFullYear(), ref.getMonth() + 1, ref.getDate())
  const [y, m, d] = [start.get('year')!, start.get('month')!, start.get('day')!]
  if (start.isCertain('month')) {
    // A month alone is compared by month: "in March" written in March is this March either way.
    const [when, now] = start.isCertain('day')
      ? [dayNumber(y, m, d), today]
      : [y * 12 + m, ref.getFullYear() * 12 + ref.getMonth() + 1]
    const years = tense === 'past' ? (when > now ? -1 : 0) : when < now ? 1 : 0
    if (years === 0) return
    for (const c of [start, result.end].map(parsing))
      if (c && !c.isCertain('year')) c.imply('year', c.get('year')! + years)
    return
  }
  if (!start.isCertain('weekday') || start.isCertain('day')) return
  const when = dayNumber(y, m, d)
  const days = tense === 'past' ? (when > today ? -7 : 0) : when < today ? 7 : 0
  if (days === 0) return
  for (const c of [start, result.end].map(parsing)) {
    if (!c || c.isCertain('day')) continue
    const moved = new Date(Date.UTC(c.get('year')!, c.get('month')! - 1, c.get('day')! + days))
    c.imply('year', moved.getUTCFullYear())
    c.imply('month', moved.getUTCMonth() + 1)
    c.imply('day', moved.getUTCDate())
  }
}
