/**
 * Abbreviations defined in parentheses right after the name they shorten: "Escuela Latinoamericana de
 * Medicina (ELAM)", "Oberelbische Verkehrsgesellschaft Pirna Sebnitz mbH (OVPS)". The test is the
 * algorithm of Schwartz & Hearst ("A simple algorithm for identifying abbreviation definitions in
 * biomedical text", PSB 2003): every letter and digit of the short form, read from its end, is found in
 * the long form in the same order, the first one at the start of a word of the long form; and the long
 * form has at most min(|short| + 5, 2 |short|) words.
 */

/** A short form: one word of 2 to 10 characters, opening with a letter or digit, holding a capital. */
const SHORT_FORM = /^[\p{L}\p{N}][\p{L}\p{N}.&'-]{1,9}$/u

/** Whether `short` abbreviates `long` (Schwartz & Hearst's matching, case-insensitive). */
export function abbreviates(short: string, long: string): boolean {
  if (!SHORT_FORM.test(short) || !/\p{Lu}/u.test(short)) return false
  const words = long.split(/\s+/).filter((w) => w.length > 0)
  if (words.length < 2 || words.length > Math.min(short.length + 5, short.length * 2)) return false
  const s = short.toLowerCase()
  const l = long.toLowerCase()
  const alnum = /[\p{L}\p{N}]/u
  let li = l.length - 1
  for (let si = s.length - 1; si >= 0; si--) {
    const c = s[si]!
    if (!alnum.test(c)) continue
    // The first character must start a word of the long form; the others may sit anywhere.
    while (li >= 0 && (l[li] !== c || (si === 0 && li > 0 && alnum.test(l[li - 1]!)))) li--
    if (li < 0) return false
    li--
  }
  return true
}
