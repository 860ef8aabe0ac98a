/**
 * The year a sentence dates a named work by, as reference writing does in two shapes:
 *
 * - the year in parentheses after the title, alone or after another name of the work ("her third album
 *   Duty (2000)", `"Ain't No Mountain High Enough" (1981)`, "Two Fighters (Dva boitsa, 1943)"): the
 *   convention Wikipedia's Manual of Style gives for films, albums and books (MOS:FILM, "the year of
 *   release in parentheses"; The Chicago Manual of Style, 17th ed., 8.185 for films);
 * - the year as an attributive before the work's kind or its title, after a possessor or an article ("her
 *   1993 album, Mi Tierra", "Aguilera's 2002 single "Beautiful"", "Taito's 1986 Arkanoid", "1987's Let It
 *   Loose", "the 1979 live recording of "Does Your Mother Know"").
 *
 * Re-DocRED dev relates 184 such pairs by "publication date" (P577) that no extracted edge joined; a
 * person's years in parentheses are a life span, not a work's date, and a place's or a date's are none.
 */

/** A four-digit year of the second millennium or this century. */
const YEAR = '(1\\d{3}|20\\d{2})'
const ANY_YEAR = new RegExp(`(?<!\\d)${YEAR}(?!\\d)`)
/** The kinds of work a year is written before ("album", "debut album", "children's book"). */
const WORK_KINDS =
  'album|single|song|track|film|movie|novel|novella|book|play|opera|musical|release|record|recording|' +
  'collection|compilation|anthology|EP|LP|mixtape|game|series|sitcom|documentary|poem|painting|' +
  'sculpture|symphony|memoir|story|comic|manga|anime|show|video'

/** "(2000)" or "(Dva boitsa, 1943)" right after the title, its closing quotation mark between. */
const YEAR_AFTER = new RegExp(`^["”]?\\s*\\((?:[^()]{1,80},\\s*)?${YEAR}\\)`)
/** A possessor or an article before the year: "her", "the", "Aguilera's", "the Beatles'". */
const DETERMINER = `(?:\\b(?:his|her|their|its|our|my|the|a)|\\p{L}['’]s|\\p{L}s['’])`
/**
 * The year before the work: after a determiner, then up to three lower-case modifiers and a kind, then a
 * comma, "of" or nothing; or directly before the title; or "1987's" (not "the 1990's", a decade).
 */
const YEAR_BEFORE = new RegExp(
  `(?:${DETERMINER}\\s+${YEAR}\\s+(?:(?:[\\p{Ll}][\\p{Ll}'’-]*\\s+){0,3}(?:${WORK_KINDS})(?:\\s*,|\\s+of)?\\s+)?` +
    `|(?<![\\p{L}\\p{N}])(?<!\\bthe\\s)${YEAR}['’]s\\s+)["“]?$`,
  'u',
)

/**
 * How far before a mention the year may stand: a determiner, a year, three modifiers and a kind fit in
 * well under this, and a longer text before each mention of a long sentence is no work for the pattern.
 */
const BEFORE_REACH = 120

/** What a year may date: a title or another name that is no person, place or date. */
const UNDATED_LABELS = new Set(['PERSON', 'PLACE', 'DATE', 'QUANTITY', 'MONEY', 'EVENT'])

export interface Spanned {
  readonly label: string
  readonly start: number
  readonly end: number
}

/** `[index of the work's mention, its year]` for each work `sentence` dates by a year. */
export function workYears(sentence: string, mentions: readonly Spanned[]): [number, string][] {
  const out: [number, string][] = []
  // Most sentences write no year: no pattern to try for their mentions.
  if (!ANY_YEAR.test(sentence)) return out
  mentions.forEach((m, i) => {
    if (UNDATED_LABELS.has(m.label)) return
    const after = YEAR_AFTER.exec(sentence.slice(m.end))
    const before =
      after === null
        ? YEAR_BEFORE.exec(sentence.slice(Math.max(0, m.start - BEFORE_REACH), m.start))
        : null
    const year = after?.[1] ?? before?.slice(1).find((y) => y !== undefined)
    if (year !== undefined) out.push([i, year])
  })
  return out
}
