/**
 * When a sentence says its fact was true: the start (`in 2020`, `since May 2019`, `last year`), the end
 * (`until 2022`, `from 2019 to 2021`) and whether it speaks of the future (`will move`, `plans to`,
 * a date after the text was written). No LLM: patterns over the sentence, resolved against the
 * ingestion's `source_timestamp`, after the expressions TimeML's TIMEX3 names for dates and durations
 * (Pustejovsky et al., "TimeML: Robust Specification of Event and Temporal Expressions in Text", 2003)
 * and the tense cue Graphiti's edge-dating prompt asks an LLM for (getzep/graphiti, `extract_edge_dates`).
 * A date the extractor already resolved (`happenedAt`, chrono-node's reading) is the fallback start.
 */

/** What a sentence says about when its fact held. Times are ISO 8601 in UTC. */
export interface StatedTime {
  /** When the fact began, or null when the sentence names no time. */
  validAt: string | null
  /** When it ended (`until 2022`), or null. */
  invalidAt: string | null
  /** A plan or a prediction ("will move to Berlin next year"): it ends no current fact. */
  future: boolean
}

/** English month names, January first (lower case). */
export const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
const MONTH = `(${MONTH_NAMES.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?`
const YEAR = '(1[5-9]\\d\\d|20\\d\\d)'

/** Words that start a time span; `since` and `from` open it, `until` and its kin close it. */
const START =
  '(?:in|since|from|as of|starting|starting in|beginning in|during|around|by|on|early|late|mid-?)'
const END = '(?:until|till|til|through|up to|to|ended in|ending in)'

const FUTURE =
  /\b(?:will|shall|won't|going to|gonna|plans? to|planning to|intends? to|intending to|is about to|are about to|am about to|hopes? to|expects? to|is to|are to|set to|scheduled to)\b|\w'll\b/i

const span = (month: string | undefined, year: string): Date =>
  new Date(Date.UTC(Number(year), month === undefined ? 0 : monthIndex(month), 1))

function monthIndex(name: string): number {
  const key = name.toLowerCase().replace(/\.$/, '').slice(0, 3)
  return MONTH_NAMES.findIndex((m) => m.startsWith(key))
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString())

/** The first `<words> [Month] Year` in `text` as the first day of that month or year, or null. */
function dateAfter(text: string, words: string): Date | null {
  const monthYear = new RegExp(
    `\\b${words}\\s+(?:the\\s+)?(?:${MONTH}\\s+(?:of\\s+)?)?${YEAR}\\b`,
    'i',
  ).exec(text)
  if (monthYear !== null) return span(monthYear[1], monthYear[2]!)
  return null
}

/**
 * Relative expressions against `reference`: last/this/next year, last/next month names, N years ago.
 * `parsed` is the date the extractor read, which already put a month without its year on the side of the
 * reference the verb's tense says (`tensed-dates.ts`): "in September" takes its year where it is that
 * month ("My daughter starts school in September", written in March, is this September, a plan).
 */
function relative(
  text: string,
  reference: Date,
  parsed: Date | null,
): { date: Date; future: boolean } | null {
  const year = reference.getUTCFullYear()
  const yearWord = /\b(last|this|next)\s+year\b/i.exec(text)
  if (yearWord !== null) {
    const offset = { last: -1, this: 0, next: 1 }[yearWord[1]!.toLowerCase() as 'last']
    return { date: new Date(Date.UTC(year + offset, 0, 1)), future: offset > 0 }
  }
  const ago =
    /\b(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(years?|months?)\s+ago\b/i.exec(
      text,
    )
  if (ago !== null) {
    const words = [
      'a',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
    ]
    const raw = ago[1]!.toLowerCase()
    const n = /^\d+$/.test(raw) ? Number(raw) : raw === 'an' ? 1 : Math.max(1, words.indexOf(raw))
    const months = ago[2]!.toLowerCase().startsWith('year') ? 12 * n : n
    const d = new Date(Date.UTC(year, reference.getUTCMonth() - months, 1))
    return { date: d, future: false }
  }
  const month = new RegExp(`\\b(last|next|this|in)\\s+${MONTH}\\b(?!\\s+\\d)`, 'i').exec(text)
  if (month !== null) {
    const m = monthIndex(month[2]!)
    const which = month[1]!.toLowerCase()
    const now = reference.getUTCMonth()
    // "last May" is the latest May before the reference; "next May" the first after; "in May" the
    // reference year's unless that lies ahead and the sentence is not about the future.
    let y = year
    if (which === 'last' && m >= now) y--
    if (which === 'next' && m <= now) y++
    if (which === 'in' && parsed?.getUTCMonth() === m) y = parsed.getUTCFullYear()
    else if (which === 'in' && m > now && !FUTURE.test(text)) y--
    return { date: new Date(Date.UTC(y, m, 1)), future: which === 'next' }
  }
  return null
}

/**
 * What `sentence` says about when its fact held, with `reference` (the source's timestamp) anchoring
 * relative expressions and `parsed` (a date the extractor already read, ISO) as the fallback start.
 */
export function statedTime(
  sentence: string,
  reference: Date,
  parsed: string | null = null,
): StatedTime {
  const text = sentence.replace(/\s+/g, ' ')
  let start = dateAfter(text, START)
  const end = dateAfter(text, END)
  let future = FUTURE.test(text)
  const t = parsed === null ? Number.NaN : Date.parse(parsed)
  const read = Number.isFinite(t) ? new Date(t) : null
  if (start === null) {
    const rel = relative(text, reference, read)
    if (rel !== null) {
      start = rel.date
      future ||= rel.future
    }
  }
  // A bare month and year, or a year in parentheses ("Paris (2019)"), when no span word precedes it.
  if (start === null) {
    const bare = new RegExp(`(?:^|[\\s(,])(?:${MONTH}\\s+)?${YEAR}\\b`, 'i').exec(text)
    if (
      bare !== null &&
      (end === null || !text.slice(bare.index).toLowerCase().startsWith(' to'))
    ) {
      const candidate = span(bare[1], bare[2]!)
      if (end === null || candidate.getTime() !== end.getTime()) start = candidate
    }
  }
  if (start === null && read !== null) start = read
  // A start after the text was written is a plan: "moves to Berlin in 2031", said in 2025.
  if (start !== null && start.getTime() > reference.getTime()) future = true
  return {
    validAt: iso(start),
    invalidAt:
      end !== null && (start === null || end.getTime() > start.getTime()) ? iso(end) : null,
    future,
  }
}
