/**
 * Person names the tagger's lexicon does not know ("Abbas Kiarostami", "Zhou Enlai"), from the evidence
 * around a capitalised phrase: a person title before it ("General Pervez Musharraf"), a birth parenthesis
 * after it ("Randy Bachman (born 1943)"), a role noun before it ("guitarist Tim Commerford"), a maker's
 * verb or a kin noun before it ("directed by Abbas Kiarostami", "the son of Raja Ram"), or its last word
 * standing alone elsewhere in the same text, the way a person is named in full once and by surname after
 * ("... Kiarostami directed"). These are the context cues and the document-centred "one name, one type"
 * reuse of Mikheev, Moens & Grover, "Named entity recognition without gazetteers" (EACL 1999, sections
 * 3-4), restricted to two- and three-word phrases with no word naming a kind of thing ("Records",
 * "River", "Cup").
 */
import { PERSON_ROLE, stripTitles } from './coreference.js'
import {
  hasKindWord,
  isCommonWord,
  isGivenName,
  isProperPhrase,
  isUnknownListedGivenName,
} from './proper-name-type.js'

/** "(born 12 May 1943", "(1943 –", "( c. 1890 -": a birth date or life span right after a name. */
const LIFE_SPAN =
  /^\s*\(\s*(?:born\b|b\.\s|née\b|[^()]{0,30}?\b\d{3,4}\s*[–-]\s*(?:[^()]{0,30}?\b\d{3,4}\b|\)))/u

/** A person's title right before a name: "Mr. ", "Dame ". */
const TITLE_BEFORE = /\b(?:Mr|Mrs|Ms|Dr|Sir|Dame|Lord|Lady)\.?\s+$/

/**
 * A role noun right before a name ("guitarist Tim Commerford", "actor Maurice Sendak", "wife Lena"), or a
 * plural one before a list of names the name continues ("actors Raf Vallone and Elena Varzi", "chemists
 * Torbern Bergman and Carl Wilhelm Scheele": each is a person).
 */
const ROLE_BEFORE = new RegExp(
  `\\b(?:${PERSON_ROLE}|${PERSON_ROLE}s(?:\\s+\\p{Lu}[\\p{L}'’.-]*){1,4}(?:\\s*,\\s*\\p{Lu}[\\p{L}'’.-]*(?:\\s+\\p{Lu}[\\p{L}'’.-]*){0,3})*\\s*(?:,|\\band\\b|,\\s*and\\b)|${PERSON_ROLE}s,?)\\s+$`,
  'u',
)

/**
 * Who made a work, or whose child or spouse someone is, right before a name: "directed by", "written by",
 * "composed by", "the son of", "the wife of". The agent of these verbs and the complement of these kin
 * nouns is a person far more often than anything else (a studio or a band is "produced by" or "performed
 * by", which are not listed; "founded by" is, as a body founded by another is named with its article, "founded
 * by the Jesuits"); an article opening the name ("The Beatles") still rules it out.
 */
const MAKER_OR_KIN_BEFORE =
  /\b(?:(?:co-)?(?:directed|written|composed|illustrated|painted|sculpted|narrated|choreographed|authored|photographed|founded)\s+by|(?:son|daughter|wife|husband|widow|widower|father|mother|brother|sister|grandson|granddaughter)\s+of)\s+$/u

/**
 * One word of a person name: a capital, then letters (accents, apostrophes and hyphens allowed), and no
 * possessive ("William Shakespeare's Pericles" names a play).
 */
const NAME_WORD = /^\p{Lu}[\p{L}'’-]*\.?$/u
/** The ending of a possessive: "Tolkien's", "Mercedes'". */
export const POSSESSIVE_ENDING = /(?<=\p{L})['’]s?$/u

/** Words each of which could be part of a person's name, none a possessive. */
const areNameWords = (words: readonly string[]) =>
  words.every((w) => NAME_WORD.test(w) && !POSSESSIVE_ENDING.test(w))

/**
 * What a person does or has right after their name: a verb of speech ("Beam said", "Staunton wrote"), founding
 * ("Masaru Ibuka founded Sony"), or a possessive of a kin noun ("Armistead Maupin's father", "Jadwiga
 * Piłsudska's husband"): an organisation speaks and founds too, but its two- or three-word name holds a kind
 * word ("Shed Media"), and it has no parents or spouse; a place does none of these.
 */
const SPEECH_OR_KIN_AFTER =
  /^(?:\s+(?:said|says|told|recalled|remarked|explained|insisted|wrote|(?:co-)?founded)\b|['’]s?\s+(?:father|mother|son|daughter|wife|husband|widow|brother|sister|parents|grandfather|grandmother|grandson|granddaughter|uncle|aunt|nephew|niece|cousin)\b)/u

/** A past participle and "by" right before a name: a passive's agent ("fixed by", "written by"). */
const AGENT_BEFORE =
  /\b(?:\p{Ll}+ed|written|sung|drawn|shown|taken|given|made|led|held|built|sold|won|done|seen|told|found|run|known)\s+by\s+$/u

/** A word of initials: "C.", "J.R.R.". */
const INITIALS = /^(?:\p{Lu}\.)+$/u

/**
 * The person a capitalised concept phrase names, or null when nothing marks it as a person. `before` and
 * `after` are the sentence text around it; `standalone` holds lower-cased one-word names found alone
 * elsewhere in the text; `isPlace` says whether a word is a place of the text ("Chile Punta Arenas").
 */
export function personByCue(
  name: string,
  before: string,
  after: string,
  standalone: ReadonlySet<string>,
  isPlace: (name: string) => boolean,
  givenName = false,
): string | null {
  if (!isProperPhrase(name)) return null
  const bare = stripTitles(name)
  const titled = bare !== name || TITLE_BEFORE.test(before)
  const words = bare.split(/\s+/)
  // "N. C. Wyeth", "A. R. Rahman", "J. R. R. Tolkien": initials before a surname.
  const initialled = words.length >= 2 && words.slice(0, -1).every((w) => INITIALS.test(w))
  // "Cardinal Mazarin", "Mr Darcy": a personal title before one word no dictionary knows as a common word.
  if (
    words.length === 1 &&
    PERSONAL_TITLE.test(name) &&
    areNameWords(words) &&
    !isCommonWord(bare) &&
    !isPlace(bare)
  )
    return bare
  // "The bug was fixed by Priya": a passive's agent, one word the given-name lists hold and the lexicon
  // does not know, is a person (not "built by Mercedes", a word the lexicon knows).
  if (
    words.length === 1 &&
    AGENT_BEFORE.test(before) &&
    isUnknownListedGivenName(bare) &&
    !isPlace(bare)
  )
    return bare
  if (words.length < 2 || words.length > (initialled ? 4 : 3)) return null
  if (!areNameWords(words)) return null
  if (hasKindWord(bare) || words.some((w) => isPlace(w))) return null
  if (
    titled ||
    givenName ||
    initialled ||
    LIFE_SPAN.test(after) ||
    ROLE_BEFORE.test(before) ||
    SPEECH_OR_KIN_AFTER.test(after)
  )
    return bare
  if (MAKER_OR_KIN_BEFORE.test(before) && !/^(?:The|A|An)$/.test(words[0]!)) return bare
  return standalone.has(words.at(-1)!.toLowerCase()) ? bare : null
}

/**
 * Titles only a person carries, before a name (`TITLES` also strips ranks and offices that open names of
 * other things: "General Motors", "Major League", "Saint Louis", "President Hotel").
 */
const PERSONAL_TITLE =
  /^(?:Mr|Mrs|Ms|Mx|Dr|Prof|Professor|Sir|Dame|Rev|Reverend|Cardinal|Pope|Archbishop|Rabbi|Imam|Sheikh)\.?\s+\S+$/u

/** "was born", "died", "married" right after a name: what a person does and a place does not. */
const BIOGRAPHY_AFTER = /^\s+(?:was\s+born|died|married)\b/u

/**
 * A two-word name the tagger read as a place because its second word also heads place names ("Mary Field
 * was born in Leeds", "Peter Hall (born 1931)") is a person when its first word is a given name
 * (`isGivenName`: the tagger's lexicon, alone) and a person's cue stands beside it: a title or a role noun
 * before it, a birth date or life span after it, or "was born", "died" or "married" right after it. The
 * same cues as `personByCue`, where the kind word ("Hall", "Field") would otherwise rule the name out.
 */
export function personNamedLikePlace(name: string, before: string, after: string): boolean {
  const words = name.split(/\s+/)
  if (words.length !== 2 || !isGivenName(words[0]!)) return false
  if (!areNameWords(words)) return false
  return (
    TITLE_BEFORE.test(before) ||
    ROLE_BEFORE.test(before) ||
    LIFE_SPAN.test(after) ||
    BIOGRAPHY_AFTER.test(after)
  )
}
