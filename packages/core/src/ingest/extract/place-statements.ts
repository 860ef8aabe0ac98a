/**
 * Sentences headed by a place ("Foots Creek is an unincorporated community in Jackson County, in the U.S.
 * state of Oregon"), which open most articles about towns, rivers and regions. The local extractor takes
 * the last mention before the verb as the subject (the subject-verb-object reading of Open IE extractors
 * such as ReVerb: Fader, Soderland & Etzioni, EMNLP 2011) but passes over places there, since a place
 * before the verb is mostly an adjunct ("In Paris, ..."). A place not introduced by a preposition heads
 * the clause instead; when nothing else does, it is the subject.
 */

/** A preposition (with an optional article) right before a mention: the mention is its object. */
const PREPOSITION_BEFORE =
  /\b(?:in|at|near|from|to|into|onto|on|of|by|across|within|outside|inside|throughout|around|between|along|through|via|for|with|towards?|off|over|under|beyond|upon|among|against|about)\s+(?:the\s+)?$/i

/** Whether a place mention preceded by `before` (the sentence text before it) can be a subject. */
export function placeCanBeSubject(before: string): boolean {
  return !PREPOSITION_BEFORE.test(before)
}

/** A mention as the statement rules read it: its text span in the sentence and its type. */
export interface ClauseMention {
  readonly name: string
  readonly label: string
  readonly start: number
  readonly end: number
}

/** A locative word right before a place: "in Jackson County", ", Oregon", "state of Oregon". */
const LOCATIVE_BEFORE = /(?:\b(?:in|at|near|within|of)\s+(?:the\s+)?|,\s*)$/i

/**
 * What a sentence headed by a place says about it ("Foots Creek is an unincorporated community in
 * Jackson County, in the U.S. state of Oregon"): a description of the place rather than something that
 * happened, so relationships of the place and no event. The first named thing after the verb is its
 * object, under the verb's predicate; each other place after the verb behind a locative word ("in",
 * "of", a comma) is where it lies (`LOCATED_IN`), the place-hierarchy pattern of encyclopaedic
 * definitions (Hearst-style lexico-syntactic patterns: Hearst, COLING 1992).
 */
export function placeStatements(
  sentence: string,
  mentions: readonly ClauseMention[],
  subject: number,
  verbEnd: number,
  isNamed: (m: ClauseMention) => boolean,
): { object: number; located: boolean }[] {
  const out: { object: number; located: boolean }[] = []
  const self = mentions[subject]!.name.toLowerCase()
  let objectTaken = false
  mentions.forEach((m, i) => {
    if (i === subject || m.start < verbEnd || m.name.toLowerCase() === self) return
    if (m.label === 'PLACE' && LOCATIVE_BEFORE.test(sentence.slice(0, m.start))) {
      out.push({ object: i, located: true })
    } else if (!objectTaken && isNamed(m)) {
      objectTaken = true
      out.push({ object: i, located: false })
    }
  })
  return out
}
