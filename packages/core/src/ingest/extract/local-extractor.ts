import nlp from 'compromise'
import * as chrono from 'chrono-node'
import type { Extractor } from '../../contracts/extractor.js'
import type { ExtractedGraph } from '../../contracts/extractor.js'
import { predicateName } from '../../model/relationship.js'
import { normalizeEntityName } from '../../model-writes/normalize-entity-name.js'
import { polarityOf } from './polarity.js'
import { loopYielder } from '../../loop-yielder.js'
import { typeCoordinatedNames } from './coordinated-names.js'
import {
  LEADING_DASHES,
  NICKNAME,
  OrganizationNames,
  PersonNames,
  personName,
  stripTitles,
} from './coreference.js'
import {
  CAPITALS_ONLY,
  isEventOrWorkHead,
  isFirstName,
  isInfinitive,
  isLexiconDemonym,
  isListedDemonym,
  isFunctionWord,
  isListedGivenName,
  isListedGivenNameLabel,
  isOrganizationHead,
  isCommonWord,
  isProperPhrase,
  namesRealm,
  isTeamName,
  NAME_LABELS,
  ofPhraseLabel,
  opensWithListedGivenName,
  organizationByContext,
  placeInPhrase,
  placeRank,
  properNameType,
} from './proper-name-type.js'
import { locatedThrough } from './place-closure.js'
import {
  containedPlaces,
  nationalityCountries,
  organizationsInPlaces,
  placesInScope,
} from './gazetteer.js'
import { movesWithTense, placeInTense, tenseAt } from './tensed-dates.js'
import {
  continuesList,
  definedKind,
  definedTitle,
  laterTitleSpans,
  kindBefore,
  quotedTitles,
  type DefinedKind,
} from './definition-cues.js'
import { POSSESSIVE_ENDING, personByCue, personNamedLikePlace } from './person-cues.js'
import { abbreviates } from './abbreviations.js'
import {
  placeCanBeSubject,
  placeChain,
  placeStatements,
  statedHierarchy,
  divisionsOf,
  DIVISION_AFTER,
} from './place-statements.js'
import { codeSpans, maskMarkdown, unfencedPassageTexts } from './markdown-mask.js'
import { singleQuotesAsDouble } from './single-quotes.js'
import {
  CARDINAL_WORDS,
  COMPASS_WORDS,
  INTERJECTIONS,
  LEADING_GREETING,
  SPEAKER,
  opensUtterance,
} from './closed-class-words.js'
import { installBulkMatch } from './compromise-sweep.js'
import { mentionGender, PersonGenders, pronounGender } from './pronoun-agreement.js'
import { joinSoftWraps } from './soft-wraps.js'
import { winkEntities } from './wink-entities.js'
import { workYears } from './work-years.js'

interface Mention {
  name: string
  label: string
  start: number
  end: number
  /** A nationality adjective naming a language there (`namesLanguage`): never typed a place. */
  language?: boolean
  /** The speaker's label opening a conversation turn (`speakerOf`). */
  speaker?: boolean
  /** Inside an inline code span (`codeSpans`): an identifier, never typed a person, place or organisation. */
  code?: boolean
  /** The name as written, before `personName` took a title off it ("Saint John" of "John"). */
  written?: string
}

type Entity = ExtractedGraph['entities'][number]

/** An entity's key within one extraction: its label and normalised name (one entity per key). */
const keyOf = (name: string, label: string) => `${label}:${normalizeEntityName(name)}`

// compromise's rule sweep with its candidate rules gathered more cheaply (same tags: compromise-sweep.ts).
installBulkMatch(nlp.world() as unknown as Parameters<typeof installBulkMatch>[0], nlp.version)
const WINK_LABELS: Record<string, string> = {
  MONEY: 'MONEY',
  EMAIL: 'EMAIL',
  URL: 'URL',
  CARDINAL: 'QUANTITY',
  PERCENT: 'QUANTITY',
  DURATION: 'QUANTITY',
  MEASURE: 'QUANTITY',
}
const DETERMINERS = /^(the|a|an|this|that|these|those|my|your|his|her|its|our|their|some|any)\s+/i
/**
 * Pro-forms: words that stand for a thing, a person or a place named elsewhere, or for none, and name
 * nothing themselves. Personal and demonstrative pronouns; the indefinite ones ("nothing", "anyone",
 * "everywhere"), which compromise tags as common nouns, so "Gina: Dancing lets nothing" made "nothing" a
 * concept; reflexive and possessive ones; and the pro-adverbs "here" and "there" ("Melanie: I love it
 * here" made "here" a concept, and every "been there" of a conversation an edge to it: 57 such mentions
 * in LoCoMo dev's first two conversations). The list is the closed class of pronouns and pro-adverbs an
 * English grammar gives, not words picked from a dataset.
 */
const PRONOUNS = new Set(
  (
    'i me you he she it we they him her us them this that these those one ' +
    'something anything everything nothing someone anyone everyone somebody anybody everybody nobody ' +
    'none somewhere anywhere everywhere nowhere here there ' +
    'myself yourself himself herself itself oneself ourselves yourselves themselves ' +
    'mine yours hers ours theirs whoever whatever whichever'
  ).split(' '),
)
/**
 * Whether a word is written as any word would be there: in small letters, or capitalised where it opens
 * the utterance (`before` is the sentence up to it). Capitalised elsewhere it may be a title ("the score
 * for Up"), and in capitals an acronym.
 */
const byPosition = (word: string, before: string) =>
  /^\p{Ll}/u.test(word) || (/^\p{Lu}\p{Ll}/u.test(word) && opensUtterance(before))

/**
 * An interjection where it opens an utterance (`opensUtterance`): `text[from, to)` is its sentence up to
 * it, cut only for the few names that are interjections.
 */
const isInterjection = (name: string, text: string, from: number, to: number) =>
  INTERJECTIONS.has(name.toLowerCase()) && opensUtterance(text.slice(from, to))
/**
 * A reply, a salutation or an imperative that the tagger joined into one name with the first name after
 * it at the opening of an utterance ("Absolutely Jon, let's do it!", "Awesome John!", "Dear Anna,",
 * "Remember Jon, ..."): a word of `INTERJECTIONS`, "Dear" or a verb's base form (the lexicon has none that
 * is also a first name). Returns how many characters of `written` to cut (0: none). Only at the opening
 * (`before`: the sentence up to the mention) and only before a first name: "Go Packers!" makes no person.
 */
function replyBeforeName(written: string, before: string): number {
  const [, word, name] = /^(\p{L}+)\s+(\p{Lu}\p{L}*)$/u.exec(written) ?? []
  if (word === undefined || name === undefined || !opensUtterance(before)) return 0
  if (!isFirstName(name)) return 0
  const lower = word.toLowerCase()
  return INTERJECTIONS.has(lower) || lower === 'dear' || isInfinitive(word)
    ? written.length - name.length
    : 0
}
/**
 * An auxiliary opening a question before its subject pronoun or "there" ("User: Can you remind me ...",
 * "Could you book ...", "Jon: Is there anything ..."): capitalised after a speaker's label, compromise
 * takes it for a noun, which made "Can" a concept and the subject of "Can remind dentist appointment".
 */
const OPENING_AUXILIARY =
  /^(?:can|could|would|will|should|shall|may|might|must|do|does|did|have|has|is|are|was|were)$/i
/**
 * An imperative opening an utterance ("Jon: Keep it up!", "Go for it!", "Let's keep going"): after a
 * speaker's label compromise reads the capitalised verb as a noun, which made concepts "Keep", "Go" and
 * "Let", and "Let" the subject of "Let keep going dreams". A concept whose first word the lexicon knows
 * as a verb's base form, at the opening and not followed by a verb of its own ("Love is all you need").
 */
const opensWithImperative = (m: Mention, sentence: string) =>
  m.label === 'CONCEPT' &&
  isInfinitive(m.name.split(' ')[0]!) &&
  opensUtterance(sentence.slice(0, m.start)) &&
  !/^\s+(?:is|are|was|were|has|have|had|can|could|will|would|makes?|made|means?)\b/i.test(
    sentence.slice(m.end),
  )
const opensQuestion = (name: string, sentence: string, start: number) =>
  OPENING_AUXILIARY.test(name) &&
  opensUtterance(sentence.slice(0, start)) &&
  /^\s+(?:you|i|we|he|she|they|it|there)\b/i.test(sentence.slice(start + name.length))
const SUBJECT_PRONOUNS = new Set(['he', 'she', 'they', 'i', 'we'])
/** A double quotation mark, straight or curly, or a guillemet: a sentence that quotes someone. */
const QUOTATION_MARK = /["“”„«»]/
/**
 * The auxiliary a subject pronoun may carry contracted ("I'm", "we've", "she'll", "they'd"): the tagger
 * reads it as the start of the verb group, so the pronoun's word ends in it.
 */
const CONTRACTED = `['\u2019](?:m|re|ve|ll|d|s)`
/** A sentence's first word without a contracted auxiliary: "I'm" is "i". */
const CONTRACTION_END = new RegExp(`${CONTRACTED}$`, 'iu')
const withoutContraction = (word: string) => word.replace(CONTRACTION_END, '')
/** The third person singular of the first verbs of a group whose subject is the speaker. */
const SINGULAR: Record<string, string> = { am: 'is', are: 'is', were: 'was', have: 'has' }
const SPEAKER_AGREEMENT = /^(?:am|are|were|have)\b/
/** What joins a subject to a mention describing it: "Sarah Chen from Acme", "analysts at Morgan Stanley". */
const ATTACHED_TO_SUBJECT = /^\s*(?:from|at)\s+(?:the\s+|an?\s+)?$/i
/** The first-person subject pronouns: never a name before them taken up again. */
const FIRST_PERSON = /^(?:i|we)$/i
/** A subject pronoun ending a text but for two words at most (adverbs: "she later"). */
const PRONOUN_BEFORE_VERB = new RegExp(
  `(?:^|[^\\p{L}'\u2019])(I|he|she|we|they)(?:${CONTRACTED})?(?:\\s+[\\p{L}'\u2019]+){0,2}\\s*$`,
  'iu',
)
/**
 * "It" with nothing to refer to: a copula or a verb of seeming, one word (an adverb before it at most),
 * then the clause or infinitive it stands for ("It is believed that ...", "It was important to ...", "It
 * is hard for ..."), the extraposition pattern of the expletive-"it" detectors (Paice & Husk, "Towards
 * the automatic recognition of anaphoric features in English text: the impersonal pronoun 'it'",
 * Computer Speech and Language 2(2), 1987).
 */
const EXPLETIVE_IT =
  /^\s*It\s+(?:is|was|has\s+been|had\s+been|will\s+be|would\s+be|seems|seemed|appears|appeared|became)\s+(?:not\s+)?(?:\p{Ll}+ly\s+)?\p{Ll}+\s+(?:that|to|whether|if|for)\b/u

/** Characters of code and markup, never of a name. */
const CODE = /[(){}[\]<>=;`|\\]/

/** Every run of whitespace as one space. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ')

/**
 * Merges each entity whose key `into` maps into the entity of the key it maps to: its passages, its name
 * as an alias, and the relationships and observations citing it. An edge it would make from that entity to
 * itself is dropped, and one the kept entity has already ("Bergen is a Norwegian city in Norway": in
 * Norwegian and in Norway) joins that one's passages.
 */
function mergeEntities(
  graph: Pick<ExtractedGraph, 'relationships' | 'observations'>,
  entities: Map<string, Entity>,
  into: ReadonlyMap<string, string>,
): void {
  if (into.size === 0) return
  for (const [from, to] of into) {
    const merged = entities.get(from)!
    const kept = entities.get(to)!
    kept.passageIds = [...new Set([...kept.passageIds, ...merged.passageIds])]
    kept.aliases = [...(kept.aliases ?? []), merged.name]
    entities.delete(from)
  }
  const key = (k: string) => into.get(k) ?? k
  const edges = new Map<string, ExtractedGraph['relationships'][number]>()
  for (const r of graph.relationships) {
    const edge = { ...r, subjectKey: key(r.subjectKey), objectKey: key(r.objectKey) }
    if (edge.subjectKey === edge.objectKey) continue
    const id = [edge.subjectKey, edge.name, edge.objectKey, edge.eventKey ?? ''].join(' ')
    const same = edges.get(id)
    if (same === undefined) edges.set(id, edge)
    else same.passageIds = [...new Set([...same.passageIds, ...edge.passageIds])]
  }
  graph.relationships.splice(0, graph.relationships.length, ...edges.values())
  for (const o of graph.observations) o.aboutKey = key(o.aboutKey)
}

/** An initialism with its last period: "U.S.", "Washington, D.C.". */
const DOTTED_INITIALISM_END = /(?:^|\s)(?:\p{Lu}\.){2,}$/u

function clean(text: string): string {
  const trimmed = text.trim()
  // An initialism keeps its periods ("U.S.", "D.C."): one name wherever the sentence ends.
  return (DOTTED_INITIALISM_END.test(trimmed) ? trimmed : trimmed.replace(/[.,;:!?"“”()]+$/g, ''))
    .replace(/^["“(]+/, '')
    .replace(/['’]s$/, '')
    .replace(DETERMINERS, '')
    .trim()
}

/** A term of compromise's JSON output; offsets are into the parsed passage. */
interface Term {
  text: string
  /** What precedes the word: an opening bracket or quote, for one. */
  pre: string
  post: string
  tags: string[]
  offset: { start: number; length: number }
  /** What a contraction's part stands for: "am" for the empty second term of "I'm". */
  implicit?: string
}

interface Sentence {
  offset: { start: number; length: number }
  terms: Term[]
}

const has = (t: Term, tag: string) => t.tags.includes(tag)
const NAMED: [tag: string, label: string][] = [
  ['Person', 'PERSON'],
  ['Place', 'PLACE'],
  ['Organization', 'ORGANIZATION'],
]
/**
 * A nationality or people ("German", "Canadian") stands for its country, as DocRED annotates it (Yao et
 * al., ACL 2019: nationalities are LOC), and is kept as a place even inside a phrase ("German skeleton racer").
 */
const DEMONYM: [tag: string, label: string][] = [['Demonym', 'PLACE']]
/** A linguistic noun after a nationality adjective: "English stopwords", "the Spanish translation". */
const LANGUAGE_NOUN =
  /^\s*(?:-\s*)?(?:language|stopwords?|words?|inflections?|grammar|spelling|translations?|text|dub|dubbed|subtitles?|dialects?|speakers?|speaking|alphabet|pronunciation|vocabulary|stemmer|lyrics)\b/i
/**
 * A preposition or verb of speaking before an adjective that ends its phrase: "written in English.",
 * "other than English".
 */
const LANGUAGE_BEFORE = /\b(?:in|into|than|speaks?|spoke|spoken|speaking|learn|learned|learnt)\s+$/i
/**
 * Whether a nationality adjective names a language there, not a country: before a linguistic noun, or
 * ending its phrase after "in", "into", "than" or a verb of speaking ("languages other than English").
 */
function namesLanguage(sentence: string, d: Mention): boolean {
  const after = sentence.slice(d.end)
  if (LANGUAGE_NOUN.test(after)) return true
  return (
    LANGUAGE_BEFORE.test(sentence.slice(0, d.start)) &&
    /^\s*(?:[,.;:!?)|]|(?:and|or|by|for|with|from|as|at|on|in|to|until|since)\b|$)/.test(after)
  )
}
/**
 * A term with neither a letter nor a digit is no part of a name or a phrase ("Ada → Babbage": compromise
 * tags the arrow a person), except the ampersand of "Procter & Gamble".
 */
const SYMBOL_TERM = /^[^\p{L}\p{N}&]*$/u
const tagged = (t: Term, tag: string) =>
  !SYMBOL_TERM.test(t.text) && (has(t, tag) || (tag === 'Demonym' && isListedDemonym(t.text)))
/**
 * A nationality the tagger read into another kind where a common noun follows ("a Japanese company":
 * compromise makes "Japanese" an organisation): the lexicon's `Demonym`, capitalised. Not before a
 * capitalised word, where it opens a name ("European Union").
 */
const retaggedDemonym = (terms: Term[], i: number) =>
  /^\p{Lu}/u.test(terms[i]!.text) &&
  isLexiconDemonym(terms[i]!.text) &&
  !/^\p{Lu}/u.test(terms[i + 1]?.text ?? '')
const BREAKS_AFTER = /[,.;:!?()"“”]/
/**
 * Whether a phrase ends after term `t`: at punctuation, except the period of an abbreviation ("Dr.",
 * "Ms.", "Inc."), which compromise keeps inside its sentence. Cutting there made "Dr. Smith" a concept
 * "Dr" and a concept "Smith" beside the person.
 */
const endsPhrase = (t: Term, next: Term | undefined) =>
  endsAtPossessive(t, next) ||
  opensBracket(next) ||
  (next !== undefined && opensQuote(next)) ||
  BREAKS_AFTER.test(has(t, 'Abbreviation') ? t.post.replace('.', '') : t.post)
/**
 * Whether a bracket opens before term `next`: compromise keeps it in that term's `pre` ("Janne Johnsen
 * (Conservative Party)"), so a phrase ran on into the parenthesis and, holding a bracket, was then
 * dropped as code (`CODE`) with both names in it.
 */
const opensBracket = (next: Term | undefined) => next !== undefined && /[([{]/.test(next.pre)
/**
 * Whether a quotation mark opens before term `t` (in its `pre`, as a bracket): a phrase or a verb group
 * ends there. 'The concept "daughter Lily" was typed' made the concept 'concept "daughter Lily', and 'I
 * loved "Becoming Nicole"' the verb group 'loved "Becoming'.
 */
const opensQuote = (t: Term) => /["“]/.test(t.pre)
/** One capital (or a run such as "J.R.R") followed by its period. */
const initialShape = (t: Term | undefined) =>
  t !== undefined && /^(?:\p{Lu}\.){0,3}\p{Lu}$/u.test(t.text) && /^\.\s*$/.test(t.post)

/**
 * Whether term `k` of a phrase starting at term `first` is a name's initial, whose period ends no phrase:
 * before a capitalised word, either one of a run of initials ("N. C. Wyeth", "A. R. Rahman") or read by
 * the tagger as part of a person's name ("Samuel C. Brightman"; cutting there made a concept "Samuel C"
 * beside the person). A lone capital otherwise ends its sentence or phrase there: "vitamin C. Patients",
 * "plan A. Then".
 */
const isInitial = (terms: Term[], k: number, first: number) =>
  initialShape(terms[k]) &&
  /^\p{Lu}/u.test(terms[k + 1]?.text ?? '') &&
  (has(terms[k]!, 'Person') ||
    initialShape(terms[k + 1]) ||
    (k > first && initialShape(terms[k - 1])))
/** A title alone ("a PhD in Economics", "Dr" cut from its name) names no one. */
const onlyTitles = (terms: Term[], first: number, last: number) =>
  terms.slice(first, last + 1).every((t) => has(t, 'Honorific'))

/**
 * Whether `t` is a named possessor: a capitalised possessive before no capitalised word. A phrase ends
 * there and the name is the possessor without its ending ("Boris Yeltsin's administration" names "Boris
 * Yeltsin", then "administration"; "J.R.R. Tolkien's fictional universe"); before a capital the possessive
 * is part of a name ("King's College London", "Martha's Vineyard"; but see `possessorBeforeName`), and a
 * common noun's stays in its phrase ("dog's toys").
 */
const possessor = (t: Term, next: Term | undefined) =>
  namedPossessive(t) &&
  (next === undefined || !/^\p{Lu}/u.test(next.text) || BREAKS_AFTER.test(t.post))

/**
 * Whether `t` is a place's possessive before another name ("Tehran's Central Railway Station", "Italy's
 * Franca Raimondi"): the tagger knows the possessor as a place, so "St. Martin's College", "Martha's
 * Vineyard" and "King's College London" stay whole. Both are names: the place without its ending, and
 * what follows it. A surname's possessive ("James Joyce's Ulysses") is left inside its name: split too,
 * it gained Re-DocRED dev 0.0006 of typed-F1 and cost MuSiQue-100's graph-only search one passage at
 * R@2 (benchmarks/LOG.md, 2026-12-04).
 */
const possessorBeforeName = (t: Term, next: Term | undefined) =>
  next !== undefined && namedPossessive(t) && /^\p{Lu}/u.test(next.text) && has(t, 'Place')

/** Whether a name ends at `t`'s possessive ending (`possessor` or `possessorBeforeName`). */
const endsAtPossessive = (t: Term, next: Term | undefined) =>
  possessor(t, next) || possessorBeforeName(t, next)

/** A capitalised word with a possessive ending: "Yeltsin's", "Tehran's", "Mercedes'". */
const namedPossessive = (t: Term) =>
  has(t, 'Possessive') && /^\p{Lu}/u.test(t.text) && POSSESSIVE_ENDING.test(t.text)

/** A name ending with capitals with periods between, the last period not kept: "U.S", "Washington, D.C". */
const INITIALISM_END = /(?:^|\s)(?:\p{Lu}\.)+\p{Lu}$/u

/** A mention from `first` to `last` (inclusive), offsets relative to the sentence starting at `base`. */
function mention(
  text: string,
  terms: Term[],
  first: number,
  last: number,
  label: string,
  base: number,
): Mention | null {
  const from = terms[first]!.offset.start
  let to =
    terms[last]!.offset.start +
    terms[last]!.offset.length -
    (endsAtPossessive(terms[last]!, terms[last + 1])
      ? (POSSESSIVE_ENDING.exec(terms[last]!.text)?.[0].length ?? 0)
      : 0)
  // An initialism keeps its last period, which the tagger leaves out where it may end the sentence:
  // "U.S" of "left the U.S. in 1990" was another name than "U.S." of "a U.S. state".
  if (text[to] === '.' && INITIALISM_END.test(text.slice(from, to))) to++
  const written = text.slice(from, to)
  // "Thanks Nate": the name is what follows the greeting.
  let lead = LEADING_GREETING.exec(written)?.[0].length ?? 0
  // "Absolutely Jon": the tagger's person or a concept typed later; either way the person is "Jon".
  const replied =
    lead === 0 && (label === 'PERSON' || label === 'CONCEPT')
      ? replyBeforeName(written, text.slice(base, from))
      : 0
  if (replied > 0) [lead, label] = [replied, 'PERSON']
  const raw = written.slice(lead)
  // Whitespace inside a name is one space: a name may run across a line break, and blanked Markdown
  // ("the ingestion's `source_timestamp`") leaves two spaces where its syntax was. The offsets still
  // span the name as written.
  const cleaned = clean(raw)
  const name = oneLine(cleaned)
  const start = from - base + lead + Math.max(0, raw.indexOf(name.split(' ')[0] ?? ''))
  // "US" in capitals, which the tagger read as a place, is the country, not the pronoun.
  const country = label === 'PLACE' && /^\p{Lu}+$/u.test(name)
  if (name.length <= 1 || (PRONOUNS.has(name.toLowerCase()) && !country)) return null
  if (isInterjection(name, text, base, base + start)) return null
  return { name, label, start, end: start + cleaned.length }
}

/** A negative pro-form opening what follows a verb ("have nothing", "saw no one", "went nowhere"). */
const NEGATIVE_OBJECT = /^\s+(?:nothing|none|nobody|no one|nowhere)\b/i
/** A word in small letters only, standing alone ("null" of "is null", not "nullable" or "Null"). */
const LOWER_CASE_WORD = /(?<![\p{L}\p{N}_])\p{Ll}{2,}(?![\p{L}\p{N}_])/gu

const CARDINAL = new RegExp(`^(?:${CARDINAL_WORDS})$`, 'i')
/** A capitalised compass word that may open a nationality adjective ("South African", "North Korean"). */
const isCompass = (word: string) => /^\p{Lu}/u.test(word) && CARDINAL.test(word)

/** Titles of rulers and saints before a name that a regnal number may follow ("King Carol I"). */
const REGNAL_TITLE =
  /^(?:King|Queen|Emperor|Empress|Pope|Tsar|Czar|Tsarina|Kaiser|Sultan|Shah|Pharaoh|Prince|Princess|Duke|Duchess|Archduke|Grand|Count|Countess|Earl|Margrave|Elector|Saint|St\.?)$/
/** A regnal number from II on after a capitalised word: "Carol II", "Elizabeth II", "Louis XIV". */
const REGNAL_NUMBER =
  /(\p{Lu}[\p{L}'’-]*) (?:II|III|IV|V|VI|VII|VIII|IX|X|XI|XII|XIII|XIV|XV|XVI|XVII|XVIII|XIX|XX)\b/gu
let regnalText: string | null = null
let regnalNames = new Set<string>()
/** The words a regnal number from II on follows anywhere in `text` (one text remembered). */
function numberedRulers(text: string): ReadonlySet<string> {
  if (text !== regnalText) {
    regnalText = text
    regnalNames = new Set([...text.matchAll(REGNAL_NUMBER)].map((m) => m[1]!))
  }
  return regnalNames
}

/**
 * Whether the "I" after the person name of terms `first`..`last` is the name's regnal number ("Ferdinand
 * I", "Carol I"), which the tagger reads as the pronoun: cutting it made "Carol I" the bare "Carol", whom
 * coreference then joined to "Carol II" of the same text. The number is read where a ruler's title opens
 * the name ("Duke Léopold I"), where the text numbers the same name from II on ("Elizabeth I" beside
 * "Elizabeth II"), or where no verb follows it: the end of the sentence, punctuation, "and", "or", or
 * "of" and a name ("Ferdinand I of Romania"). The pronoun stands before its verb ("when I met Paul I
 * left").
 */
function regnalI(text: string, terms: Term[], first: number, last: number): boolean {
  const numeral = terms[last + 1]
  if (numeral?.text !== 'I' || BREAKS_AFTER.test(terms[last]!.post)) return false
  const titled = [terms[first - 1]?.text, terms[first]!.text].some(
    (w) => w !== undefined && REGNAL_TITLE.test(w),
  )
  if (titled || numberedRulers(text).has(terms[last]!.text)) return true
  const next = terms[last + 2]
  return (
    next === undefined ||
    BREAKS_AFTER.test(numeral.post) ||
    /^(?:and|or)$/.test(next.text) ||
    (next.text === 'of' && /^\p{Lu}/u.test(terms[last + 3]?.text ?? ''))
  )
}

/**
 * Whether the organisation of terms `i`..`j` is a place the tagger read as a sports team's first word
 * across a comma: "Saint Louis County, Minnesota, United States" tags "Minnesota" a team by "Minnesota
 * United", so the state was an organisation and no place chain held it. One term that ends at punctuation
 * and that the lexicon or the place lists rank as a place (`placeRank`).
 */
const teamAcrossComma = (terms: Term[], i: number, j: number) =>
  i === j &&
  has(terms[i]!, 'SportsTeam') &&
  BREAKS_AFTER.test(terms[i]!.post) &&
  placeRank(terms[i]!.text) !== undefined

/** Maximal runs of terms carrying the tag of a named-entity kind (compromise tags Person, Place, Organization). */
function namedMentions(text: string, terms: Term[], base: number, kinds = NAMED): Mention[] {
  const out: Mention[] = []
  for (const [tag, label] of kinds) {
    for (let i = 0; i < terms.length; i++) {
      if (!tagged(terms[i]!, tag) && !(tag === 'Demonym' && retaggedDemonym(terms, i))) continue
      let j = i
      while (
        j + 1 < terms.length &&
        tagged(terms[j + 1]!, tag) &&
        !endsAtPossessive(terms[j]!, terms[j + 1]) &&
        !opensBracket(terms[j + 1]) &&
        !BREAKS_AFTER.test(terms[j]!.post.replace('.', ''))
      )
        j++
      if (tag === 'Person' && regnalI(text, terms, i, j)) j++
      // What a name possesses is no name ("Yeltsin's administration": compromise's organisation).
      const possessed =
        i > 0 && possessor(terms[i - 1]!, terms[i]) && !/^\p{Lu}/u.test(terms[i]!.text)
      // "South Korean", "East German": the compass word belongs to the nationality (a country of its own).
      const from =
        tag === 'Demonym' &&
        i > 0 &&
        isCompass(terms[i - 1]!.text) &&
        !BREAKS_AFTER.test(terms[i - 1]!.post)
          ? i - 1
          : i
      const m =
        onlyTitles(terms, i, j) || possessed
          ? null
          : mention(text, terms, from, j, teamAcrossComma(terms, i, j) ? 'PLACE' : label, base)
      if (m !== null) out.push(m)
      i = j
    }
  }
  return out
}

/**
 * A clause's punctuation standing apart ("from `happened_at`, `as_of`" once Markdown's backticks are
 * blanked): compromise makes it a term of its own, tagged as a noun.
 */
const PUNCTUATION_TERM = /^[,.;:!?]+$/
const isPunctuation = (t: Term) => PUNCTUATION_TERM.test(t.text.trim())

const nominal = (t: Term) =>
  (has(t, 'Noun') || has(t, 'Adjective') || has(t, 'Value')) &&
  // Punctuation standing apart (`isPunctuation`) included.
  !SYMBOL_TERM.test(t.text) &&
  !has(t, 'Pronoun') &&
  !has(t, 'Date') &&
  !has(t, 'Gerund') &&
  !has(t, 'Verb') &&
  !has(t, 'Adverb') &&
  !has(t, 'QuestionWord') &&
  !has(t, 'Expression') &&
  !has(t, 'Preposition') &&
  !has(t, 'Conjunction')

/**
 * Noun phrases as concepts: a regular-expression chunker over part-of-speech tags, `DT? (JJ|NN|CD)* NN`
 * (Bird, Klein & Loper, Natural Language Processing with Python, ch. 7.2), cut at punctuation.
 */
function nounPhrases(text: string, terms: Term[], base: number): Mention[] {
  const out: Mention[] = []
  for (let i = 0; i < terms.length; i++) {
    // "A. R. Rahman": the tagger reads an initial "A" as the article.
    if (!nominal(terms[i]!) && !isInitial(terms, i, i) && !editionYear(terms, i)) continue
    let j = i
    while (
      j + 1 < terms.length &&
      nominal(terms[j + 1]!) &&
      (!endsPhrase(terms[j]!, terms[j + 1]) || isInitial(terms, j, i))
    )
      j++
    let last = j
    // The phrase ends on its last noun; a possessive determiner ("my", "their") is never that noun. A
    // name's numbering ends it too: "World War II", "Apollo XI" (a Roman numeral after a capital).
    const isHead = (k: number) =>
      ((has(terms[k]!, 'Noun') || has(terms[k]!, 'ProperNoun')) &&
        !DETERMINERS.test(`${terms[k]!.text.toLowerCase()} `)) ||
      (has(terms[k]!, 'RomanNumeral') && k > i && /^\p{Lu}/u.test(terms[k - 1]!.text))
    while (last >= i && !isHead(last)) last--
    if (last < i && adjectiveAsNoun(terms, i, j)) last = i
    if (last >= i && numberedOne(terms, last)) j = last = last + 1
    if (last >= i) {
      const m = mention(text, terms, i, last, 'CONCEPT', base)
      if (m !== null) out.push(m)
    }
    // What a name possesses ("Boris Yeltsin's administration", "LeBron's skills") is no concept of its
    // own: a relational noun that, apart from its possessor, would join unrelated passages.
    if (possessor(terms[j]!, terms[j + 1]))
      while (
        j + 1 < terms.length &&
        nominal(terms[j + 1]!) &&
        (possessor(terms[j]!, terms[j + 1]) || !endsPhrase(terms[j]!, terms[j + 1]))
      )
        j++
    i = j
  }
  return out
}

/** The adjectives that open a relative date: "last week", "next year", "this summer". */
const DATE_OPENERS = /^(?:last|next|this|past)$/i
/**
 * Whether the phrase of terms `i`..`j`, which holds no noun, is an adjective standing for its noun after
 * "a" or "an": the tagger reads "novel" of "I read a novel last week" as the adjective (there is no noun
 * after it, only a relative date), so the sentence had no object and no event. The article needs a noun,
 * so the adjective right after it is the head when a relative date follows it ("last week", "yesterday"):
 * not "a great day" (the tagger's date, and a noun) or "a safe and loving home". Before a preposition or
 * the sentence's end the tagger reads the noun itself.
 */
function adjectiveAsNoun(terms: Term[], i: number, j: number): boolean {
  const article = terms[i - 1]
  return (
    article !== undefined &&
    /^an?$/i.test(article.text) &&
    !BREAKS_AFTER.test(article.post) &&
    has(terms[i]!, 'Adjective') &&
    !has(terms[i]!, 'Comparative') &&
    !has(terms[i]!, 'Superlative') &&
    terms.slice(i + 1, j + 1).every((t) => DATE_OPENERS.test(t.text)) &&
    (j > i || (relativeDay(terms[j + 1]) && !BREAKS_AFTER.test(terms[j]!.post)))
  )
}
/** A date the tagger reads as no noun: "yesterday", "tonight" (not "day" of "a great day"). */
const relativeDay = (t: Term | undefined) => t !== undefined && has(t, 'Date') && !has(t, 'Noun')

/**
 * Whether `terms[i]` is the year of a named event's edition ("2008 Summer Olympics", "1998 FIFA World
 * Cup"), which the tagger reads as a date when a season follows it: the year, then a capitalised name of
 * nominal words ending with a kind of event (`isEventOrWorkHead`). Without it, every edition of the
 * Olympics was one node "Summer Olympics".
 */
function editionYear(terms: Term[], i: number): boolean {
  if (!/^\d{4}$/.test(terms[i]!.text) || BREAKS_AFTER.test(terms[i]!.post)) return false
  let j = i + 1
  while (
    j < terms.length &&
    /^\p{Lu}/u.test(terms[j]!.text) &&
    (nominal(terms[j]!) || has(terms[j]!, 'ProperNoun'))
  ) {
    if (isEventOrWorkHead(terms[j]!.text)) return true
    if (endsPhrase(terms[j]!, terms[j + 1])) return false
    j++
  }
  return false
}

/**
 * "World War I": compromise reads a numbering "I" as the pronoun, so the phrase stopped at "War". After a
 * capitalised kind of event or work (`isEventOrWorkHead`: "War", "Act") and before punctuation, a
 * conjunction, a preposition or the end, "I" is the name's number; before a verb it is the speaker ("after
 * the Civil War I moved").
 */
function numberedOne(terms: Term[], last: number): boolean {
  const next = terms[last + 1]
  if (next?.text !== 'I' || BREAKS_AFTER.test(terms[last]!.post)) return false
  if (!/^\p{Lu}/u.test(terms[last]!.text) || !isEventOrWorkHead(terms[last]!.text)) return false
  const after = terms[last + 2]
  return (
    after === undefined ||
    BREAKS_AFTER.test(next.post) ||
    has(after, 'Conjunction') ||
    has(after, 'Preposition')
  )
}

const DATE_WORDS =
  /^(?:from|to|until|till|since|between|and|the|early|late|mid|[-–,]|\d{1,2}(?:st|nd|rd|th)?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?)$/i
/** A year (or a decade: "1990s") of the last millennium or this century. */
const YEAR = /^(?:1\d{3}|20\d{2})s?$/
/**
 * A year the sentence dates itself by, when chrono-node reads no date in it ("moved to Paris in 1891",
 * "the album Heroes (1977)"): the first year after "in", "since", "from", "during", "until", "by" or
 * "of", or alone in parentheses, written as the year alone (ISO 8601's reduced precision, not a first of
 * January the text never said). A number of that size elsewhere ("hired 1500 assistants"), or before a
 * plural noun ("in 1500 soldiers"), is no year.
 */
function statedYear(sentence: string): string | null {
  return STATED_YEAR.exec(sentence)?.[1] ?? null
}
const STATED_YEAR =
  /(?:\b(?:in|since|from|during|until|till|by|of)\s+|\(\s*)(1\d{3}|20\d{2})(?![\d\p{L}]|\s*[-–]\s*\d)(?!\s+\p{Ll}+s\b)/iu

/**
 * The dates a sentence writes with a year, as written, each a `DATE` node its events occurred on: each
 * side of a range ("from March 1990 to June 1995", "from 1731 to 1733"), else the year the sentence
 * dates itself by (`statedYear`: "moved to Paris in 1891"). A date without a year ("on Monday",
 * "yesterday") names no node: the day it means depends on when the text was written, which the event's
 * `happened_at` keeps. Dates as nodes join what a text relates through its dates (a person and their
 * date of birth), as document-level relation extraction annotates them (DocRED's `TIME` entities; Yao
 * et al., ACL 2019).
 */
function writtenDates(dates: readonly chrono.ParsedResult[], sentence: string): string[] {
  const written: string[] = []
  for (const d of dates) {
    if (!d.start.isCertain('year') && d.end?.isCertain('year') !== true) continue
    const sides = d.end ? d.text.split(RANGE_SEPARATOR) : [d.text]
    for (const side of sides) {
      const name = side.replace(LEADING_DATE_WORDS, '').replace(/[\s,.;:]+$/, '')
      if (HAS_YEAR.test(name)) written.push(name)
    }
  }
  if (written.length > 0) return written
  // chrono-node reads no range of bare years ("from 1731 to 1733", "between 1920 and 1930").
  for (const [, from, to] of sentence.matchAll(YEAR_RANGE)) written.push(from!, to!)
  if (written.length > 0) return written
  const year = statedYear(sentence)
  return year === null ? [] : [year]
}
const YEAR_RANGE =
  /(?<![\d\p{L}])(1\d{3}|20\d{2})\s*(?:to|until|till|through|and|-|–|—)\s*(1\d{3}|20\d{2})(?![\d\p{L}])/giu
const RANGE_SEPARATOR = /\s*(?:\b(?:to|until|till|through)\b|[-–—])\s*/i
const LEADING_DATE_WORDS = /^(?:(?:from|since|in|on|at|by|during|between|until|till|of|the)\s+)+/i
const HAS_YEAR = /(?<!\d)(?:1\d{3}|20\d{2})s?(?!\d)/

/** A copula that may state when its subject happens: "is", "was", "will be" ("'s" of "exam's"). */
const SCHEDULING_COPULA = /^(?:is|are|was|were|'s|will be)$/
/** Between a copula and its date: nothing, or the preposition of a day, a time or a year. */
const BEFORE_COMPLEMENT_DATE = /^\s+(?:(?:on|in|at|for|from)\s+)?$/i
/** What may follow a complement that is the date alone: the clause's or the sentence's end. */
const CLAUSE_CLOSES = /^\s*(?:[.!?;:,)\u2013\u2014-]|$)/
/** A year alone as a copula's complement ("was in 2019"), which chrono-node does not read. */
const COMPLEMENT_YEAR = /^\s+(?:in\s+)?(1\d{3}|20\d{2})(?=\s*(?:[.!?;:,)\u2013\u2014-]|$))/

/**
 * The date a copula's complement is, when it is a date and nothing else ("is on June 3", "is next
 * Tuesday", "was last Saturday", "is at 3pm tomorrow", "is from June 3 to June 5", "was in 2019"): the
 * date as written but for a leading "on", and when it is (ISO 8601, resolved against the text's time as
 * every date of the sentence is; a range's start; a year alone stays a year). Null when the complement
 * holds anything else ("is on the list", "is in Paris on June 3"; "was born on June 3" is no copula
 * alone).
 */
function dateComplement(
  sentence: string,
  verbEnd: number,
  dates: readonly chrono.ParsedResult[],
): { written: string; at: string } | null {
  const d = dates.find((date) => date.index >= verbEnd)
  // chrono-node's text may end with the comma after the date ("last Saturday,").
  const text = d?.text.replace(/[\s,.;:]+$/, '')
  if (
    d !== undefined &&
    text !== undefined &&
    BEFORE_COMPLEMENT_DATE.test(sentence.slice(verbEnd, d.index)) &&
    CLAUSE_CLOSES.test(sentence.slice(d.index + text.length))
  )
    return { written: oneLine(text).replace(/^on\s+/i, ''), at: isoDate(d) }
  const year = COMPLEMENT_YEAR.exec(sentence.slice(verbEnd))?.[1]
  return year === undefined ? null : { written: year, at: year }
}

/** Years with the words of a range around them ("from 1992 to 2002", "1997 - 8"): a date, not a count. */
function isDateSpan(value: string): boolean {
  const tokens = value.split(/\s+/).filter((t) => t.length > 0)
  return tokens.some((t) => YEAR.test(t)) && tokens.every((t) => DATE_WORDS.test(t) || YEAR.test(t))
}

/** Between a name and the parenthesis after it: at most one word ("... Pirna Sebnitz mbH (OVPS)"). */
const ABBREVIATION_GAP = /^\s*(?:([\p{L}.&]+)\s*)?\(\s*$/u

/**
 * A mention in parentheses right after another that it abbreviates (`abbreviates`: "Escuela
 * Latinoamericana de Medicina (ELAM)") is no mention of its own: the abbreviation is recorded in
 * `abbreviations`, so that its other mentions in the text name the same thing, and dropped here.
 * `mentions` are in sentence order.
 */
function withoutDefinedAbbreviations(
  sentence: string,
  mentions: Mention[],
  abbreviations: Map<string, Mention>,
): Mention[] {
  return mentions.filter((short, i) => {
    const long = mentions[i - 1]
    // A word between the name and the parenthesis is a suffix the name left out ("mbH").
    const gap =
      long === undefined ? null : ABBREVIATION_GAP.exec(sentence.slice(long.end, short.start))
    if (long === undefined || gap === null || !/^\s*\)/.test(sentence.slice(short.end))) return true
    if (!abbreviates(short.name, gap[1] ? `${long.name} ${gap[1]}` : long.name)) return true
    abbreviations.set(short.name, long)
    return false
  })
}

/**
 * Whether a mention (or a verb group) lies inside a parenthesis of its sentence ("Janne Johnsen
 * (Conservative Party) is the mayor"): an aside, never the sentence's subject.
 */
function inParenthesis(sentence: string, m: { start: number }): boolean {
  if (m.start === 0) return false
  return sentence.lastIndexOf('(', m.start - 1) > sentence.lastIndexOf(')', m.start - 1)
}

/**
 * Where an apposition between commas ends right before the verb, its start: "Dr. Jane Smith, a professor at
 * Stanford University, published a paper" is Jane Smith's doing, not the university's (the last name before
 * the verb), and "Dana Whitfield, our lead engineer, wrote the plan" Dana Whitfield's. An article or a
 * possessive determiner opens the apposition; -1 when there is none.
 */
function appositionBefore(sentence: string, verbStart: number): number {
  const m = /,\s*(?:a|an|the|my|your|his|her|its|our|their)\s[^,;:()]*,\s*$/i.exec(
    sentence.slice(0, verbStart),
  )
  return m === null ? -1 : m.index
}

/**
 * Names that a kind noun right before them types (`kindBefore`: "publisher Enix", "bands such as
 * Kamikaze, Alakran and Rata Blanca", the later names of the list through `continuesList`): an
 * organisation kind makes an organisation of any other name, a person kind a person of a concept; a
 * place kind changes nothing (as a definition's place does not type). The kind holds at the name's other
 * mentions too (`defined`), unless the text defines the name itself. `mentions` are in sentence order.
 */
function typeByKindBefore(
  sentence: string,
  mentions: Mention[],
  defined: Map<string, DefinedKind>,
): void {
  let listed: { kind: DefinedKind; end: number } | null = null
  for (const m of mentions) {
    let kind = kindBefore(sentence.slice(0, m.start))
    if (kind === null && listed !== null && continuesList(sentence.slice(listed.end, m.start)))
      kind = listed.kind
    listed = kind !== null ? { kind, end: m.end } : null
    if (kind === null || kind === 'PLACE' || !isProperPhrase(m.name)) continue
    if (m.label !== 'CONCEPT' && !(kind === 'ORGANIZATION' && m.label !== 'ORGANIZATION')) continue
    m.label = kind
    const key = m.name.toLowerCase()
    if (!defined.has(key)) defined.set(key, kind)
  }
}

const POSSESSIVE_OR_PRONOUN = /\b(?:he|she|his|her|him|hers)\b/i
const PRONOUN_WORD = /\b(?:he|she|they)\b/i
/**
 * The person a text opens with as an object pronoun, in its subject form ("him" -> "he"), or null. "her"
 * only where no noun can follow it ("admired her;", "met her in"): "her character" is possessive.
 */
function objectPronoun(text: string): string | null {
  const found = OBJECT_PRONOUN.exec(text)?.[1]?.toLowerCase()
  return found === undefined ? null : ({ him: 'he', her: 'she', me: 'i', us: 'we' }[found] ?? null)
}
/**
 * "it" or "them" right after a verb, then at most two words and a preposition before what the clause
 * names next ("lists it as delayed in Chicago"); group 1 is that stretch, articles left out.
 */
const THING_PRONOUN_THEN =
  /^\s+((?:it|them)(?:\s+\p{Ll}+){0,2}\s+(?:at|in|on|to|into|from|for|with|near|inside|outside))\s+(?:the\s+|a\s+|an\s+)?$/iu
const OBJECT_PRONOUN =
  /^\s+(him|me|us|her(?=\s*(?:$|[^\s\p{L}]|(?:about|after|again|at|because|before|by|for|from|in|on|once|since|to|today|too|when|while|with|yesterday)\b)))\b/iu

/** The first subject pronoun of `text` ("he", "she", "they"), or null. */
const firstPronoun = (text: string) => PRONOUN_WORD.exec(text)?.[0].toLowerCase() ?? null

/** "the" right before a word: "the Oilers", a plural nickname, where a surname stands bare. */
const THE_BEFORE = /\bthe\s+$/i

/** What joins a kind word to the name it is of: "of (the)", or a Romance language's "de (la)", "di", "du" ... */
const OF_PHRASE = /^ (?:of|de|del|della|di|du|des|da|do|dos|das)(?: (?:the|la|le|les|los|las))? $/i
/**
 * What joins an organisation's kind word to its remit: "Hospital for Tropical Diseases", "Institute for
 * Advanced Study"; "on" only after a body that deliberates on a subject ("Commission on Judicial Conduct",
 * "Council on Foreign Relations"), as "the Army on Okinawa" is an army on an island.
 */
const REMIT_PHRASE = /^ for (?:the )?$/i
const SUBJECT_PHRASE = /^ on (?:the )?$/i
const BODIES_ON_A_SUBJECT = new Set(
  'commission committee subcommittee council board panel'.split(' '),
)
/** Chambers whose "for" names a seat, not a remit ("Member of Parliament for Mpwapwa"). */
const CHAMBERS = new Set('parliament assembly congress senate legislature'.split(' '))

/**
 * "Liverpool School" + "of" + "Tropical Medicine": the chunker stops at the preposition, but a proper
 * phrase ending in a kind word followed by `OF_PHRASE` and another proper phrase is one name, as in the
 * organisation-designator patterns of Mikheev, Moens & Grover (EACL 1999), typed by that word
 * (`ofPhraseLabel`): "Berklee College of Music", "Kingdom of Benares", "Colegio de San José"
 * (organisations), "Duchy of Burgundy" (a place), "Battle of Midway", "War of the Spanish Succession" (named
 * events, concepts). A place on the right stays a mention of its own too.
 */
function joinOfPhrases(sentence: string, mentions: Mention[]): Mention[] {
  const out: Mention[] = []
  for (let i = 0; i < mentions.length; i++) {
    const a = mentions[i]!
    const b = mentions[i + 1]
    const kind = a.name.split(/\s+/).at(-1)!
    const label = ofPhraseLabel(kind)
    if (
      b !== undefined &&
      label !== null &&
      a.label !== 'PERSON' &&
      b.label !== 'PERSON' &&
      joinsKindToName(sentence.slice(a.end, b.start), kind, label, b) &&
      isProperPhrase(a.name) &&
      isProperPhrase(b.name)
    ) {
      out.push({
        name: sentence.slice(a.start, b.end),
        label,
        start: a.start,
        end: b.end,
      })
      if (b.label === 'PLACE') out.push(b)
      i++
      continue
    }
    out.push(a)
  }
  return out
}

/** An organisation's name ending with its remit after "of", "for" or "on" ("Academy of Sciences"). */
const ENDS_WITH_REMIT = /\s(?:of|for|on)\s+(?:the\s+)?\p{Lu}\S*(?:\s+\p{Lu}\S*)?$/u
const LIST_COMMA = /^, $/
const LIST_AND = /^,? and $/
/**
 * An organisation's remit may be a list whose items name no kind of their own: "European Academy of
 * Sciences" + "and Arts", "Moscow School of Painting" + ", Sculpture and Architecture", "National Council
 * for Peace" + "and Order" are one name each, the chunker having stopped at the conjunction (the
 * designator patterns of `joinOfPhrases`, across a coordination). The items are proper phrases of one or
 * two words, neither a person, a place nor an organisation's kind, after commas and ending after "and";
 * "the Academy of Sciences and the Royal Society" are two. Re-DocRED dev writes 33 organisations with an
 * "and"; this joins 10 names there, all right (fragmentation 1.1366 -> 1.1352; benchmarks/LOG.md,
 * 2026-12-06).
 */
function joinRemitLists(sentence: string, mentions: Mention[]): Mention[] {
  const out: Mention[] = []
  for (let i = 0; i < mentions.length; i++) {
    const a = mentions[i]!
    const more =
      a.label === 'ORGANIZATION' && ENDS_WITH_REMIT.test(a.name)
        ? remitList(sentence, mentions, i + 1, a)
        : 0
    if (more === 0) {
      out.push(a)
      continue
    }
    const last = mentions[i + more]!
    out.push({ ...a, name: sentence.slice(a.start, last.end), end: last.end })
    i += more
  }
  return out
}

/** How many mentions from `from` continue a remit list after `first` (`joinRemitLists`); 0 for none. */
function remitList(sentence: string, mentions: Mention[], from: number, first: Mention): number {
  let previous = first
  for (let j = from; j < mentions.length; j++) {
    const m = mentions[j]!
    const gap = sentence.slice(previous.end, m.start)
    const words = m.name.split(/\s+/)
    const item =
      m.label !== 'PERSON' &&
      m.label !== 'PLACE' &&
      isProperPhrase(m.name) &&
      words.length <= 2 &&
      !words.some(isOrganizationHead)
    if (!item) return 0
    if (LIST_AND.test(gap)) return j - from + 1
    if (!LIST_COMMA.test(gap)) return 0
    previous = m
  }
  return 0
}

/**
 * Whether `gap` joins the kind word `kind` (typing the joined name `label`) to the name `b` after it: "of"
 * for every kind; "for" or "on" for an organisation's remit (`REMIT_PHRASE`), which is no place, and
 * not after a chamber (`CHAMBERS`).
 */
function joinsKindToName(gap: string, kind: string, label: string, b: Mention): boolean {
  if (OF_PHRASE.test(gap)) return true
  const k = kind.toLowerCase()
  if (label !== 'ORGANIZATION' || b.label === 'PLACE' || CHAMBERS.has(k)) return false
  return REMIT_PHRASE.test(gap) || (SUBJECT_PHRASE.test(gap) && BODIES_ON_A_SUBJECT.has(k))
}

/**
 * A noun phrase mixing a name and common nouns: "bassist Tim Commerford", "band Ladytron", "Fox network",
 * "Rajanews website". The capitalised run is the mention (an apposition of a kind and a name); when the
 * common noun beside it is an organisation's head word ("band", "network", "club") the name is typed an
 * organisation, the head-word feature of Nadeau & Sekine (2007) read across the apposition. A lone
 * capitalised word after other words is kept only after such a head ("band Vama"), since the tagger
 * capitalises nothing else mid-phrase.
 */
function properPart(c: Mention, opensSentence: boolean): Mention {
  const words = c.name.split(' ')
  const cap = (w: string) => /^\p{Lu}/u.test(w)
  // "Chief executive Tim Cook said": a common word capitalised only because it opens the sentence is
  // the lower-case kind word it is elsewhere ("the company's chief executive Tim Cook"), when a name
  // follows the kind. Not a reply opening a turn ("Glad my friend Jen came").
  const sentenceCase =
    opensSentence &&
    words.length > 2 &&
    /^\p{Ll}/u.test(words[1]!) &&
    isCommonWord(words[0]!) &&
    !INTERJECTIONS.has(words[0]!.toLowerCase())
  const named = sentenceCase ? nameAfterKind(c) : null
  if (named !== null) return named
  if (!cap(words[0]!)) return nameAfterKind(c) ?? c
  let i = 0
  while (i < words.length && cap(words[i]!)) i++
  if (i === words.length || words.slice(i).some(cap)) return c
  // "Canada team", "Liverpool club": a place names what it owns, so the head types nothing here.
  // "CBS' legal drama": the possessive's apostrophe is no part of the name.
  const name = words
    .slice(0, i)
    .join(' ')
    .replace(/(?<=[sS])['’]$/, '')
  return { name, label: c.label, start: c.start, end: c.start + name.length }
}

/**
 * The capitalised name ending a phrase after a lower-case kind word ("bassist Tim Commerford", "band
 * Ladytron"), typed an organisation after an organisation head; a one-word name only there. Null when
 * the phrase does not end so.
 */
function nameAfterKind(c: Mention): Mention | null {
  const words = c.name.split(' ')
  let i = words.length
  while (i > 0 && /^\p{Lu}/u.test(words[i - 1]!)) i--
  // "2010 Winter Olympics": a number before a name is part of it, not a kind.
  if (i === 0 || i === words.length || !/^\p{Ll}/u.test(words[i - 1]!)) return null
  const organization = isOrganizationHead(words[i - 1]!)
  const kin = KIN.test(words[i - 1]!)
  if (words.length - i < 2 && !organization && !kin) return null
  const name = words.slice(i).join(' ')
  const start = c.start + c.name.length - name.length
  const label = organization ? 'ORGANIZATION' : kin ? 'PERSON' : c.label
  return { name, label, start, end: start + name.length }
}

/**
 * Nouns of kinship and of people one knows, which a name after them names a person by ("my daughter
 * Lily", "her friend Jen"), however unknown the name is to the tagger's lexicon: the apposition cue of
 * `personByCue`'s role nouns, for a one-word name, which is how people name those close to them.
 */
const KIN =
  /^(?:wife|husband|son|daughter|brother|sister|father|mother|mom|mum|dad|uncle|aunt|cousin|niece|nephew|grand(?:son|daughter|mother|father|ma|pa)|step(?:son|daughter|mother|father|brother|sister)|friend|boyfriend|girlfriend|fianc[eé]e?|partner|colleague|co-?worker|boss|neighbou?r|roommate|classmate|teammate)$/

/**
 * The name at the end of a "Qualifier kind Name" phrase ("Japanese recording artist Ayumi Hamasaki",
 * "English football club Everton"), which stays whole as a concept (`properPart`): the name is a mention
 * of its own too, typed an organisation by an organisation head, else left to the person cues (a role noun
 * before it makes a person).
 */
const titledName = (c: Mention): Mention | null =>
  c.label === 'CONCEPT' && /^\p{Lu}/u.test(c.name) ? (nameAfterKind(c) ?? nameAfterOffice(c)) : null

/**
 * The person a capitalised phrase names after an office written as a title, past what qualifies the
 * office ("Georgia Governor Jimmy Carter", "Vice-President Joe Biden", "Prime Minister Shinzo Abe"): a
 * name of two words or more after it. The tagger reads the whole as one noun phrase, where it reads a
 * title opening the phrase ("President Gerald Ford") as part of the person's name.
 */
function nameAfterOffice(c: Mention): Mention | null {
  const name = NAME_AFTER_OFFICE.exec(c.name)?.[1]
  // "Governor Lasalle's French troops": a possessor, not a name.
  if (name === undefined || /['’]s\b/.test(name)) return null
  const start = c.start + c.name.length - name.length
  return { name, label: 'PERSON', start, end: start + name.length }
}
const NAME_AFTER_OFFICE =
  /(?:^|\s|-)(?:President|Governor|Senator|Mayor|Minister|Chancellor|Ambassador|Premier|Secretary|Congressman|Congresswoman|Representative|Judge|Justice|Commissioner|Bishop|Archbishop)\s+(\p{Lu}\p{Ll}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*)+)$/u

/**
 * Whether a label alone names a person: compromise reads it as one, or it is a listed given name the
 * lexicon does not know ("Priya:", `isListedGivenNameLabel`). By label (labels repeat turn after turn).
 */
const personLabels = new Map<string, boolean>()
function isPersonLabel(label: string): boolean {
  let person = personLabels.get(label)
  if (person === undefined) {
    const terms = parse(label).flatMap((s) => s.terms)
    person =
      (terms.length > 0 && terms.every((t) => has(t, 'Person'))) || isListedGivenNameLabel(label)
    if (personLabels.size >= 1000) personLabels.clear()
    personLabels.set(label, person)
  }
  return person
}

/** Whether the sentence at `base` opens a line of the passage: where a transcript's turn begins. */
const opensLine = (text: string, base: number) =>
  base === 0 || /\n[ \t]*$/.test(text.slice(Math.max(0, base - 64), base))

/** Chat roles that stand for the person an assistant talks with: "User:" and "Human:" are the person "User". */
const USER_ROLES = new Set(['user', 'human'])

/**
 * The speaker of a conversation turn: a label opening the passage ("Tim: The Wolves are solid") that
 * compromise, reading it alone, takes for a person's name. In the turn compromise often reads it as an
 * interjection ("Tim:" and "Caroline:" before some words), so a speaker was a person in some of their
 * turns and nothing in others. A chat transcript's "User:" or "Human:" is the person "User" (the roles of
 * chat-model APIs), so what a user tells an assistant is about someone. Undefined when the passage opens
 * with no label; null when its label names no one ("Assistant:", "Note:", "Summary:"): that turn's "I"
 * and "we" are then no one, where they went to the last person named ("User: Melanie visited me. I took
 * her to Fenway Park" made "Melanie took Fenway Park").
 */
function speakerOf(sentence: string, transcript: ReadonlySet<string>): Mention | null | undefined {
  const found = SPEAKER.exec(sentence)
  if (found === null) return undefined
  const label = found[1]!
  const end = found[0].indexOf(label) + label.length
  if (USER_ROLES.has(label.toLowerCase()))
    return { name: 'User', label: 'PERSON', start: end - label.length, end, speaker: true }
  if (!isPersonLabel(label) && !transcript.has(label)) return null
  const name = stripTitles(label)
  return { name, label: 'PERSON', start: end - name.length, end, speaker: true }
}

/** A labelled line's words that only a conversation has: "I", "you", "we", a question or an exclamation. */
const CONVERSATIONAL = /\b(?:i|me|my|you|your|we|us|our)\b|[?!]/i

/**
 * The labels of a transcript's speakers that name no one alone: listed given names the lexicon also
 * knows as something else ("Maya:" an interjection, "Leo:" a noun), which `isPersonLabel` leaves out, so
 * that such a chat had no speakers and no "I" anyone's. They count where the text reads as a
 * conversation: two or more labels opening its lines are people's names, listed or not, and at least
 * half of their lines say "I", "you" or "we", ask or exclaim. A record's fields ("Name: Ada Lovelace",
 * "Price: $5", two listed given names) say none of these.
 */
function transcriptSpeakers(lines: readonly LabelledLine[]): Set<string> {
  const named = lines.filter(
    ({ label }) => !/\s/.test(label) && (isPersonLabel(label) || isListedGivenName(label)),
  )
  const labels = new Set(named.map(({ label }) => label))
  const spoken = named.filter(({ rest }) => CONVERSATIONAL.test(rest)).length
  if (labels.size < 2 || spoken * 2 < named.length) return new Set()
  return new Set([...labels].filter((label) => !isPersonLabel(label)))
}

/**
 * A label opening a line: "City: London", "role: admiral", or a path to a field of a JSON document as
 * `jsonToText` writes one ("contact.city: Denver", "orders[0].product: drone"). Group 1 is the label.
 */
const LINE_LABEL =
  /^[ \t]*(\p{L}[\p{L}\p{N}_ -]{0,30}?(?:\.\p{L}[\p{L}\p{N}_-]{0,30}|\[\d+\])*):[ \t]+\S/gmu
/** A label that is a path into a JSON document (`LINE_LABEL`): a field's name, even used once. */
const FIELD_PATH = /[.[]/

/** A line opening with a label (`LINE_LABEL`): the label as written, its span, and what the line says. */
interface LabelledLine {
  label: string
  start: number
  end: number
  rest: string
}

/** Each text's labelled lines, read once for `transcriptSpeakers` and `fieldLabels`. */
function labelledLines(texts: readonly string[]): LabelledLine[][] {
  return texts.map((text) =>
    [...text.matchAll(LINE_LABEL)].map((m) => {
      const start = m.index + m[0].indexOf(m[1]!)
      // The match ends at the first character of what the line says.
      const from = m.index + m[0].length - 1
      const close = text.indexOf('\n', from)
      return {
        label: m[1]!,
        start,
        end: start + m[1]!.length,
        rest: text.slice(from, close < 0 ? text.length : close),
      }
    }),
  )
}

/**
 * The field names of record-shaped text, per passage, as [start, end) spans: the labels opening lines
 * that open two or more lines among the passages and name no person ("Name: Ada Lovelace\nCity:
 * London\nRole: mathematician", as a CSV or JSON upload is ingested). They name a column, not something
 * the record is about; read as mentions they made "City" a place and "Role" a concept joined to every
 * record. A speaker's label names a person and stays one; a label used once ("Paris: the capital") stays.
 */
function fieldLabels(
  lines: readonly (readonly LabelledLine[])[],
  transcript: ReadonlySet<string>,
): [number, number][][] {
  const found = lines.map((labels) =>
    labels.map(({ label, start, end }) => ({ label: label.toLowerCase(), start, end })),
  )
  const uses = new Map<string, number>()
  for (const labels of found)
    for (const { label } of labels) uses.set(label, (uses.get(label) ?? 0) + 1)
  const spoken = new Set([...transcript].map((label) => label.toLowerCase()))
  const fields = new Set(
    [...uses]
      .filter(
        ([label, n]) =>
          (n >= 2 || FIELD_PATH.test(label)) &&
          !USER_ROLES.has(label) &&
          !isPersonLabel(label) &&
          !spoken.has(label),
      )
      .map(([label]) => label),
  )
  return found.map((labels) =>
    labels.filter(({ label }) => fields.has(label)).map(({ start, end }) => [start, end]),
  )
}

interface VerbGroup {
  text: string
  start: number
  end: number
}

/** A verb group as events, edges and place statements name it: one line, lower case. */
const verbName = (verb: VerbGroup) => oneLine(clean(verb.text)).toLowerCase()

/**
 * An adverb that may split a verb group between its auxiliary and its verb ("was later elected", "has
 * also worked", "will really help"), or a relative pronoun and its verb (`RELATIVE_GAP`).
 */
const ADVERBS = String.raw`\p{L}+ly|also|always|sometimes|just|later|then|still|now|once|never|first|often|again|soon`
const SPLITTING_ADVERB = new RegExp(`^(?:${ADVERBS})$`, 'iu')

/**
 * The first verb group (auxiliaries, modals, negation and the verb) of a sentence, or of its terms from
 * index `from` on. One or two adverbs between an auxiliary and its verb belong to the group's span but
 * not to its name: "John Smith was later elected to the Senate" is "was elected" (the copula alone made
 * "John Smith was Senate"), "The band was originally formed ... by Ian Brown" a passive with its agent.
 */
function firstVerb(text: string, terms: Term[], base: number, from = 0): VerbGroup | null {
  const verbal = (t: Term) =>
    (has(t, 'Verb') || has(t, 'Auxiliary') || has(t, 'Modal') || has(t, 'Negative')) &&
    !isPunctuation(t)
  const i = terms.findIndex((t, k) => k >= from && has(t, 'Verb'))
  if (i < 0) return null
  let first = i
  while (
    first > from &&
    verbal(terms[first - 1]!) &&
    !BREAKS_AFTER.test(terms[first - 1]!.post) &&
    !opensQuote(terms[first]!)
  )
    first--
  let last = i
  const skipped = new Set<number>()
  for (;;) {
    while (
      last + 1 < terms.length &&
      verbal(terms[last + 1]!) &&
      !BREAKS_AFTER.test(terms[last]!.post) &&
      !opensQuote(terms[last + 1]!)
    )
      last++
    const helper = terms[last]!
    if (!has(helper, 'Auxiliary') && !has(helper, 'Copula') && !has(helper, 'Modal')) break
    let k = last + 1
    while (
      k < terms.length &&
      k - last <= 2 &&
      !BREAKS_AFTER.test(terms[k - 1]!.post) &&
      SPLITTING_ADVERB.test(terms[k]!.text)
    )
      k++
    const verb = terms[k]
    if (
      k === last + 1 ||
      verb === undefined ||
      BREAKS_AFTER.test(terms[k - 1]!.post) ||
      !has(verb, 'Verb') ||
      has(verb, 'Adjective')
    )
      break
    for (let j = last + 1; j < k; j++) skipped.add(j)
    last = k
  }
  const start = terms[first]!.offset.start
  const end = terms[last]!.offset.start + terms[last]!.offset.length
  // A contracted auxiliary has no text of its own ("I'm working": "", "working"): before a verb it is
  // named by what it stands for, "am working", as "I am working" is. Alone ("I'm here", "Here's a pic")
  // the group stays unnamed, so the sentence makes no event.
  const contracted = terms[first]!.text === '' && last > first ? (terms[first]!.implicit ?? '') : ''
  const named =
    skipped.size === 0
      ? contracted + text.slice(start, end)
      : terms
          .slice(first, last + 1)
          .filter((_, j) => !skipped.has(first + j))
          .map((t) => t.text || (t.implicit ?? ''))
          .join(' ')
  return { text: named, start: start - base, end: end - base }
}

/** A verb that gives another name ("also known as", "originally titled"): an aside's, never the sentence's. */
const ALIAS_VERB =
  /\b(?:known|called|named|renamed|nicknamed|titled|retitled|styled|spelled|abbreviated)$/

/**
 * The sentence's first verb group that is no aside: a verb inside a parenthesis ("Martin Ulrich (born
 * December 16, 1969) is a retired Austrian ice hockey defenceman") is the sentence's verb only when the
 * parenthesis names what it relates ("(born 13 March 1963 in Mediaș, Transylvania)": a place, a person, an
 * organisation or another proper name, no date and no common noun: "Tyche (from Túkhē, meaning luck) was
 * the presiding deity who governed ..." is about what Tyche was); otherwise the first verb after it is,
 * since taking the aside's verb made "Martin Ulrich born retired Austrian ice hockey defenceman" out of a
 * biography's first sentence. A verb that gives the subject another name ("(also known as Wedding
 * Trough)") is never the sentence's. The first verb group as `firstVerb` finds it when none follows.
 */
function verbOutsideAsides(
  sentence: string,
  text: string,
  terms: Term[],
  base: number,
  mentions: readonly Mention[],
): VerbGroup | null {
  const first = firstVerb(text, terms, base)
  for (let verb = first; verb !== null;) {
    if (!inParenthesis(sentence, verb)) return verb
    const close = sentence.indexOf(')', verb.end)
    if (close < 0) return verb
    if (
      !ALIAS_VERB.test(verbName(verb)) &&
      mentions.some(
        (m) =>
          m.start >= verb!.end &&
          m.end <= close &&
          m.label !== 'DATE' &&
          (m.label !== 'CONCEPT' || isProperPhrase(m.name)),
      )
    )
      return verb
    const next = terms.findIndex((t) => t.offset.start - base > close)
    verb = next < 0 ? null : firstVerb(text, terms, base, next)
  }
  // A parenthesis that holds the verb alone is a label, no clause: "Tomás Silva (backend), Lena Vogel
  // (design)" made "Tomás Silva backend Lena Vogel".
  if (first !== null && inParenthesis(sentence, first)) {
    const inside = sentence.slice(
      sentence.lastIndexOf('(', first.start) + 1,
      sentence.indexOf(')', first.end),
    )
    if (inside.trim() === sentence.slice(first.start, first.end).trim()) return null
  }
  return first
}

/**
 * Between two places, words that put the first in the second: "in", "within", after a comma or not, with
 * "the" and a compass adjective ("Gmina Wielbark, within Szczytno County, in northern Poland").
 */
const PLACE_IN_PLACE = new RegExp(
  `^\\s*(?:,\\s*)?(?:in|within)\\s+(?:the\\s+)?(?:(?:${COMPASS_WORDS})\\s+)?$`,
  'i',
)

/** A copula on its own: the verb group of "X is a painter who ...". */
const BARE_COPULA = /^(?:is|are|was|were|am|'s)$/
/**
 * A copula's complement up to a relative pronoun that restricts it ("a Polish physicist who", "a Canadian
 * reality television series that") or describes it ("a German antique dealer, who"): an article and words,
 * with no parenthesis or preposition that would bring in another noun the pronoun could refer to ("the son
 * of Pierre Curie, who"), and a comma only right before "who" or "which".
 */
const COMPLEMENT_THEN_RELATIVE =
  /^\s+(?:a|an|the)\s+(?:(?!(?:of|in|at|from|for|with|by|on|to|as|who|which|that)\s)[^\s,;:()]+\s+)*?(?:who|which|that|[^\s,;:()]+,\s*(?:who|which))\s+$/i

const RELATIVE_PRONOUN = /^(?:who|which|that)$/i

/**
 * What may stand between a relative pronoun and its verb when the pronoun is the clause's subject: an
 * adverb ("who later became"). Another word there is the clause's own subject ("a song that I love"),
 * and the pronoun its object.
 */
const RELATIVE_GAP = new RegExp(String.raw`^\s+(?:(?:${ADVERBS})\s+)?$`, 'iu')

/**
 * The verb of the relative clause that follows a bare copula's complement: "Marie Curie was a Polish
 * physicist who won two Nobel Prizes" says who won what (the complement is the subject, so the clause's
 * subject is the sentence's), where the copula with the first noun after it made "Marie Curie was Nobel
 * Prizes". The clause's verb group must follow its pronoun (`RELATIVE_GAP`). Null when the sentence has
 * no such clause.
 */
function relativeClauseVerb(
  sentence: string,
  text: string,
  terms: Term[],
  base: number,
  verb: VerbGroup,
): VerbGroup | null {
  if (!BARE_COPULA.test(verbName(verb))) return null
  const pronoun = terms.findIndex(
    (t) =>
      t.offset.start - base >= verb.end &&
      RELATIVE_PRONOUN.test(t.text) &&
      COMPLEMENT_THEN_RELATIVE.test(
        sentence.slice(verb.end, t.offset.start - base + t.offset.length) + ' ',
      ),
  )
  if (pronoun < 0 || BREAKS_AFTER.test(terms[pronoun]!.post)) return null
  const clause = firstVerb(text, terms, base, pronoun + 1)
  if (clause === null) return null
  const gap = sentence.slice(
    terms[pronoun]!.offset.start - base + terms[pronoun]!.offset.length,
    clause.start,
  )
  return RELATIVE_GAP.test(gap) ? clause : null
}

/**
 * The verb group with an adjective's complement when it ends on a copula ("is afraid of", "was happy
 * with", "are allergic to"): a form of "be", adverbs, one or more adjectives and a preposition. The
 * preposition's object is what the adjective relates the subject to, so naming the event by the copula
 * alone made "Melanie is afraid of spiders" the event "Melanie is spiders". The adjective-preposition
 * complement of predicative adjectives (Huddleston & Pullum, The Cambridge Grammar of the English
 * Language, 2002, ch. 7 section 2). The group itself when nothing of that shape follows it.
 */
function withAdjectiveComplement(
  text: string,
  terms: Term[],
  base: number,
  verb: VerbGroup,
): VerbGroup {
  // A contracted copula alone has no span: its term is the empty one where the group starts.
  const last =
    verb.start === verb.end
      ? terms.findIndex((t) => t.text === '' && t.offset.start - base === verb.start)
      : terms.findLastIndex((t) => t.offset.start - base < verb.end)
  if (last < 0 || !has(terms[last]!, 'Copula') || BREAKS_AFTER.test(terms[last]!.post)) return verb
  let i = last + 1
  while (i < terms.length && has(terms[i]!, 'Adverb') && !BREAKS_AFTER.test(terms[i]!.post)) i++
  const adjectives = i
  while (
    i < terms.length &&
    has(terms[i]!, 'Adjective') &&
    !has(terms[i]!, 'Noun') &&
    !BREAKS_AFTER.test(terms[i]!.post)
  )
    i++
  if (i === adjectives || i + 1 >= terms.length) return verb
  // The tagger reads "to" after an adjective as a conjunction at times ("allergic to peanuts").
  if (!has(terms[i]!, 'Preposition') && !/^to$/i.test(terms[i]!.text)) return verb
  // "important to me", "special to watch": the preposition's object is a pronoun or no noun at all.
  const next = terms[i + 1]!
  if (
    (has(next, 'Pronoun') && !has(next, 'Possessive')) ||
    (has(next, 'Verb') && !has(next, 'Noun'))
  )
    return verb
  const end = terms[i]!.offset.start + terms[i]!.offset.length - base
  // "I'm" alone ("I'm allergic to peanuts") is named by what it stands for, as before a verb
  // (`firstVerb`). Not another pronoun's: "You're", "They're" and "That's" had no subject rule to read
  // ("You're really inspiring with your commitment" made the speaker inspiring).
  if (verb.text === '' && terms[last]!.implicit !== 'am') return verb
  const copula = verb.text === '' ? 'am' : verb.text
  return { text: copula + text.slice(verb.end + base, end + base), start: verb.start, end }
}

/**
 * The main clause's verb group when the sentence opens with a clause of its own ("Born in Warsaw, Marie
 * Curie moved to Paris", "Having won the race, John celebrated"): the first verb group after the comma
 * that closes the opening clause (whose verb group is `opening`). Null when no comma or verb follows.
 */
function mainClauseVerb(
  text: string,
  terms: Term[],
  base: number,
  opening: VerbGroup,
): VerbGroup | null {
  const comma = terms.findIndex((t) => t.offset.start - base >= opening.end - 1 && /,/.test(t.post))
  return comma < 0 ? null : firstVerb(text, terms, base, comma + 1)
}

/**
 * The phrase a possessor mention opens, as written ("LeBron's favourite team" for the mention "LeBron"):
 * what an event's name calls its object, since the possessed noun is no mention of its own
 * (`nounPhrases`). The mention's own name when no possessive ending follows it.
 */
function possessedPhrase(text: string, terms: Term[], base: number, m: Mention): string {
  const k = terms.findIndex(
    (t, i) =>
      t.offset.start - base < m.end &&
      t.offset.start + t.offset.length - base >= m.end &&
      possessor(t, terms[i + 1]),
  )
  // The possessive ending ends a phrase: the possessed noun is on the other side of it.
  return k < 0 ? m.name : phraseOn(text, terms, base, m, k, true)
}

/**
 * A mention's name run on over the nominal terms after its term `k`, to the last noun, as written; the
 * name alone when no noun follows. `acrossFirst`: the first step may cross what ends a phrase.
 */
function phraseOn(
  text: string,
  terms: Term[],
  base: number,
  m: Mention,
  k: number,
  acrossFirst: boolean,
): string {
  let j = k
  while (
    j + 1 < terms.length &&
    nominal(terms[j + 1]!) &&
    ((acrossFirst && j === k) || !endsPhrase(terms[j]!, terms[j + 1]))
  )
    j++
  // The phrase ends on its last noun ("LeBron's new", cut at a verb the tagger missed, is no phrase).
  while (j > k && !has(terms[j]!, 'Noun')) j--
  if (j === k) return m.name
  const end = terms[j]!.offset.start + terms[j]!.offset.length
  return oneLine(clean(text.slice(base + m.start, end)))
}

/** The index of the nationality adjective a mention ends on; -1 when it ends on another word. */
function demonymEnding(terms: Term[], base: number, m: Mention): number {
  const k = terms.findIndex((t) => t.offset.start + t.offset.length - base === m.end)
  return k >= 0 && tagged(terms[k]!, 'Demonym') ? k : -1
}

/**
 * The noun phrase a mention ending on a nationality adjective opens, as written ("Norwegian painter" for
 * the mention "Norwegian" in "Edvard Munch was a Norwegian painter"): what an event's name calls such an
 * object, since the adjective is the mention (a place, the annotation convention of Re-DocRED) and the noun
 * after it none of its own, so the event read "Edvard Munch was Norwegian". Otherwise what
 * `possessedPhrase` names.
 */
function nationalityPhrase(text: string, terms: Term[], base: number, m: Mention): string {
  const k = demonymEnding(terms, base, m)
  return k < 0 ? possessedPhrase(text, terms, base, m) : phraseOn(text, terms, base, m, k, false)
}

/** Lower-case role words between a nationality and a person's name: "writer", "recording artist". */
const ROLE_WORDS = /^\s+(?:[\p{Ll}][\p{Ll}-]*\s+){1,3}$/u
/**
 * `[person, nationality]` for each person a nationality qualifies through the role before the name ("the
 * Indian writer Mulk Raj Anand", "Japanese recording artist Ayumi Hamasaki"): the qualifier-kind-name
 * apposition of Nadeau & Sekine (2007) read as the person's country, as DocRED annotates "country of
 * citizenship" (Yao et al., ACL 2019). One to three lower-case words between, no punctuation.
 */
function nationalityQualifiers(
  sentence: string,
  mentions: readonly Mention[],
  demonymAt: (m: Mention) => number,
): [number, number][] {
  const out: [number, number][] = []
  mentions.forEach((m, i) => {
    if (m.label !== 'PERSON') return
    const nation = mentions.findIndex(
      (d) =>
        d.label === 'PLACE' &&
        d.end < m.start &&
        demonymAt(d) >= 0 &&
        ROLE_WORDS.test(sentence.slice(d.end, m.start)),
    )
    if (nation >= 0) out.push([i, nation])
  })
  return out
}

/** A verb group in the passive voice: a form of "be" or "get" before a participle (no "-ing" form). */
const PASSIVE = /\b(?:is|are|was|were|be|been|being|get|gets|got)\s+(?:\S+\s+)*(?!\S*ing$)\S+$/
/**
 * A past participle alone before "by": a passive with no auxiliary, as a reduced relative clause writes it
 * ("Researchers led by Anna Lindqvist found ...", "The deal, announced by Maria Gonzalez, ..."), whose
 * agent "by" names (these made "Researchers led Anna Lindqvist").
 */
function reducedPassive(sentence: string, verb: VerbGroup, terms: Term[], base: number): boolean {
  if (/\s/.test(verb.text.trim()) || !/^\s+by\s/i.test(sentence.slice(verb.end))) return false
  const term = terms.find((t) => t.offset.start - base === verb.start)
  return term !== undefined && (has(term, 'PastTense') || has(term, 'Participle'))
}
/**
 * "by" (and an article) right before the mention: the agent of a passive verb; also past an office in
 * capitals that is no mention of its own ("by CEO Maria Gonzalez"). Any two words between cost Re-DocRED
 * dev's event precision (0.5499 -> 0.5482, benchmarks/LOG.md 2026-12-07).
 */
const AGENT_BEFORE = /\bby\s+(?:the\s+|a\s+|an\s+)?(?:\p{Lu}{2,4}\s+)?$/u
/**
 * "by", a nationality and lower-case words right before the mention: the agent that nationality describes
 * ("by Australian expatriate James Hunt", "by the American singer Lee Greenwood").
 */
const AGENT_AFTER_NATIONALITY =
  /\bby\s+(?:the\s+|a\s+|an\s+)?\p{Lu}[\p{L}-]*\s+(?:\p{Ll}[\p{L}-]*\s+){1,3}$/u

/**
 * The agent of a passive verb ending at `end`: the first mention right after "by", unless that is a
 * nationality describing the one after it ("was established in London in 1975 by Australian expatriate
 * James Hunt" was established by Hunt, not by "Australian").
 */
function passiveAgent<T extends { m: Mention }>(
  after: readonly T[],
  sentence: string,
  end: number,
  terms: Term[],
  base: number,
): T | undefined {
  const agent = after.find(({ m }) => AGENT_BEFORE.test(sentence.slice(end, m.start)))
  if (agent === undefined || demonymEnding(terms, base, agent.m) < 0) return agent
  const described = after.find(
    ({ m }) => m.start > agent.m.end && AGENT_AFTER_NATIONALITY.test(sentence.slice(end, m.start)),
  )
  return described ?? agent
}

/** The mentions from offset `from` on (each with its index) other than `subjectKey`'s. */
/**
 * A person addressed at the end of a conversation turn's sentence ("That bowl is amazing, Mel!"): a comma
 * before the name and nothing but punctuation or emoji after it. No part of what the sentence says, so
 * "Caroline: bowl is Mel" was its event.
 */
const isVocative = (m: Mention, sentence: string) =>
  m.label === 'PERSON' &&
  /,\s*$/.test(sentence.slice(0, m.start)) &&
  /^[^\p{L}\p{N}]*$/u.test(sentence.slice(m.end))

/**
 * A person a greeting opening the sentence addresses ("Hi Tom, thanks for the update", "Dear Anna,"):
 * the reader, not the subject of what follows, which made "Tom thanks update" of an e-mail to Tom.
 */
const isAddressed = (m: Mention, sentence: string) =>
  m.label === 'PERSON' &&
  GREETING.test(sentence.slice(0, m.start)) &&
  /^\s*[,!:]/.test(sentence.slice(m.end))
const GREETING =
  /^\s*(?:hi|hello|hey|dear|hiya|greetings|good\s+(?:morning|afternoon|evening)|morning|thanks|thank\s+you|cheers)[\s,!]+$/i

const mentionsAfter = (
  mentions: readonly Mention[],
  keys: readonly string[],
  from: number,
  subjectKey: string | undefined,
) =>
  mentions.map((m, i) => ({ m, i })).filter(({ m, i }) => m.start >= from && keys[i] !== subjectKey)

/**
 * Where a clause opened by a conjunction and its own subject pronoun begins ("I moved to Boston and I work
 * at Google", "..., but she stayed in Warsaw", "I was in Paris when I met Jon"), or a semicolon, a colon or
 * a dash (an em dash, or an en dash or hyphen between spaces: "moved to Paris in 1891 — she studied
 * physics" made "Marie Curie moved physics"): the end of the verb's clause.
 */
const CLAUSE_BREAK =
  /[;:—]|\s[–-]\s|\b(?:and|but|or|so|yet|because|while|whereas|although|though|when|whenever|if|once|until|after|before)\s+(?:I|you|he|she|we|they|it|there)\b/i

/** "A", "A and B", "A, B and C": names as a sentence lists them. */
function listed(names: readonly string[]): string {
  return names.length < 2
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** Between two coordinated names: a comma, "and" or "&", or both. */
const COORDINATION_GAP = /^\s*(?:,\s*(?:(?:and|&)\s+)?|(?:and|&)\s+)$/
/**
 * A preposition or a conjunction before a list, which makes it no subject ("the marriage of A and B",
 * "broadcast on Freeview, Sky and Virgin Media", "such as Tails, Amy, and Knuckles").
 */
const GOVERNED_BEFORE =
  /(?:\b(?:of|with|between|by|for|from|to|on|in|at|into|onto|over|under|about|as|than|like|including|and|or)|&)\s*$/i

/**
 * The names coordinated with a sentence's subject before it, first first: "Marie Curie and Pierre Curie
 * discovered polonium" is both their discovery, where the subject was the last name alone and the first
 * only took part. Names of the subject's label (people with a person, organisations with an
 * organisation), joined by commas and a last "and" or "&", opening the clause: not after a preposition
 * ("the marriage of Marie and Pierre produced ...") and not a list with no "and" (an apposition).
 */
function coordinatedSubjects<T extends { m: Mention }>(
  sentence: string,
  before: readonly T[],
): T[] {
  const subject = before.at(-1)!
  if (subject.m.label !== 'PERSON' && subject.m.label !== 'ORGANIZATION') return []
  const chain: T[] = []
  for (let j = before.length - 2; j >= 0; j--) {
    const item = before[j]!
    const gap = sentence.slice(item.m.end, (chain[0] ?? subject).m.start)
    if (item.m.label !== subject.m.label || !COORDINATION_GAP.test(gap)) break
    // The "and" stands before the subject, the list's last name.
    if (chain.length === 0 && !/\band\b|&/.test(gap)) break
    chain.unshift(item)
  }
  if (chain.length === 0 || GOVERNED_BEFORE.test(sentence.slice(0, chain[0]!.m.start))) return []
  return chain
}

/**
 * Where a verb's clause ends at a second verb of the same subject, left unsaid ("lived in Saint John, and
 * served on the Commission" made "Wayne Gretzky lived Commission"): the comma before "and", "but" or "or"
 * whose next word the tagger reads as a finite verb, or without a comma that word itself when it is in
 * the past tense ("was born in New York City in 1906 and graduated from Vassar College" made "Grace
 * Hopper was born Vassar College"), or after "and" or "but" in the present tense, no gerund, when the verb
 * before is ("lives in Lyon and works at Airbus" made "... lives Airbus"), after the verb group `group` of
 * `sentence` (`terms` are the sentence's, `base` its offset in their passage). `end` is where the clause
 * ends and `verb` the second verb's term; the sentence's length and -1 when there is none.
 */
function coordinatedVerbAt(
  sentence: string,
  group: VerbGroup,
  terms: readonly Term[],
  base: number,
): { end: number; verb: number } {
  const from = group.end
  let present: boolean | undefined
  for (let i = 0; i + 1 < terms.length; i++) {
    const at = terms[i]!.offset.start - base
    if (at <= from || !COORDINATOR.test(terms[i]!.text)) continue
    const next = terms[i + 1]!
    if (!has(next, 'Verb')) continue
    const comma = sentence.lastIndexOf(',', at)
    if (comma >= from && sentence.slice(comma + 1, at).trim() === '') {
      if (has(next, 'PastTense') || has(next, 'PresentTense')) return { end: comma, verb: i + 1 }
    } else if (
      has(next, 'PastTense') ||
      (/^(?:and|but)$/i.test(terms[i]!.text) &&
        finitePresent(next) &&
        (present ??= presentGroup(terms, base, group)))
    )
      return { end: at, verb: i + 1 }
  }
  return { end: sentence.length, verb: -1 }
}
const COORDINATOR = /^(?:and|but|or)$/i

/** A verb in the present tense that is no gerund (compromise's `Gerund` is a `PresentTense`). */
const finitePresent = (term: Term) => has(term, 'PresentTense') && !has(term, 'Gerund')

/** Whether the last verb of a verb group is in the present tense: "lives", "has worked" is not. */
function presentGroup(terms: readonly Term[], base: number, group: VerbGroup): boolean {
  const last = terms.findLast(
    (t) =>
      t.offset.start - base >= group.start && t.offset.start - base < group.end && has(t, 'Verb'),
  )
  return last !== undefined && finitePresent(last)
}

/** The offset of the first ")" in `sentence` from `from` on; the sentence's length when there is none. */
function closing(sentence: string, from: number): number {
  const at = sentence.indexOf(')', from)
  return at < 0 ? sentence.length : at
}

/** The offset in `sentence` where the clause of a verb group ending at `from` ends. */
function clauseEnd(sentence: string, from: number): number {
  const found = CLAUSE_BREAK.exec(sentence.slice(from))
  return found === null ? sentence.length : from + found.index
}

/**
 * What a verb targets: a place `adjacent` to it, else the first mention after it that is no place, or
 * else the first place, in the verb's own clause (before `end`); in the rest of the sentence only when its
 * clause names nothing. Without the clause, "I moved to Boston and I work at Google" made "Caroline moved
 * Google". An origin ("from Paris") gives way to a goal of the same clause ("to Berlin"): "Kenji moved
 * from Paris to Berlin" made "Kenji moved Paris", where he no longer lives.
 */
function objectOf<T extends { m: Mention }>(
  after: readonly T[],
  end: number,
  adjacent: (m: Mention) => boolean,
  sentence: string,
): T | undefined {
  const inClause = after.filter(({ m }) => m.start < end)
  const pool = inClause.length > 0 ? inClause : after
  // A place right after the verb is its direct object ("hiked Mount Hood with their dog", "visited
  // Paris and met John"), and one after "to" its goal ("moved to Paris with Pierre Curie"), not where
  // something else happened.
  const chosen =
    pool[0] !== undefined && pool[0].m.label === 'PLACE' && adjacent(pool[0].m)
      ? pool[0]
      : (pool.find(({ m }) => m.label !== 'PLACE') ?? pool[0])
  if (chosen === undefined || !isOrigin(sentence, chosen.m)) return chosen
  return (
    pool.find(({ m }) => m.start > chosen.m.start && GOAL_BEFORE.test(before(sentence, m))) ??
    chosen
  )
}

/** The few characters of `sentence` before mention `m`: enough for a preposition and an article. */
const before = (sentence: string, m: Mention) => sentence.slice(Math.max(0, m.start - 14), m.start)
const ORIGIN_BEFORE = /\bfrom\s+(?:(?:the|a|an|his|her|their|its|our|my|your)\s+)?$/i
const GOAL_BEFORE = /\b(?:to|into|onto)\s+(?:(?:the|a|an|his|her|their|its|our|my|your)\s+)?$/i
/** Whether a mention is introduced by "from": where something came from ("joined from Rakuten"). */
const isOrigin = (sentence: string, m: Mention) => ORIGIN_BEFORE.test(before(sentence, m))

/**
 * Whether a mention follows offset `end` of `sentence` directly (an article at most between), or as the
 * goal of a motion after "to", "into" or "onto" ("moved back to Paris in 1891 with Pierre Curie": where
 * she moved, not whom; "in" and "with" stay adjuncts).
 */
const adjacentTo = (sentence: string, end: number) => (m: Mention) =>
  /^\s*(?:(?:back|over|away|out|up|down)\s+)?(?:(?:in)?to\s+|onto\s+)?(?:the\s+)?$/i.test(
    sentence.slice(end, m.start),
  )

/** A month's name alone, as chrono-node reads one ("August", "June", "Sept."). */
const MONTH_ONLY =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/i
/** A word that makes the month after it a date ("in June", "last May", "since April"). */
const DATE_LEAD =
  /\b(?:in|on|last|this|next|since|until|till|by|of|early|late|mid|during|every|through|from|to|before|after)\s+$/i

/**
 * A month's name alone that is part of a person's name the tagger reads ("Henrik August Angell", "June
 * Carter Cash"): no date. chrono-node read it as that month of the reference year, and a name overlapping a
 * date is dropped, so the person was lost and the sentence had no subject. A month after a word that dates
 * ("in June Caroline ran ...") stays a date.
 */
function monthInName(d: chrono.ParsedResult, sentence: string, named: readonly Mention[]): boolean {
  const end = d.index + d.text.length
  return (
    MONTH_ONLY.test(d.text.trim()) &&
    !DATE_LEAD.test(sentence.slice(0, d.index)) &&
    named.some(
      (n) =>
        n.label === 'PERSON' &&
        n.start <= d.index &&
        end <= n.end &&
        (n.start < d.index || n.end > end),
    )
  )
}

/** A weekday's abbreviation alone, as chrono-node reads one ("Sun", "Wed", "Sat"). */
const WEEKDAY_ABBREVIATION = /^(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)$/i

/**
 * A weekday's abbreviation that opens a name ("Sun Microsystems", "Sun Yat-sen", "Sat Nam Singh"): no date.
 * chrono-node read it as that weekday of the reference week, and a name overlapping a date is dropped, so
 * "Oracle bought Sun Microsystems" lost its object. It opens a name when a capitalised word follows it and
 * nothing before it dates ("on Sun", "last Sat" stay dates).
 */
function weekdayInName(d: chrono.ParsedResult, sentence: string): boolean {
  return (
    WEEKDAY_ABBREVIATION.test(d.text) &&
    !DATE_LEAD.test(sentence.slice(0, d.index)) &&
    /^ [A-Z][a-z]/.test(sentence.slice(d.index + d.text.length))
  )
}

/**
 * Two numbers and a range word with no calendar part ("1 to 256 characters", "from 6 to 12", "2 - 0",
 * "0.33-0.38 s", "1.09 to 1.19"): chrono-node's casual parser reads them as a range of hours (a decimal
 * point as the hour's separator), which made a count a `DATE` and set the sentence's event to that hour
 * of the reference day. A year range is `isDateSpan`'s; a time of day keeps its "am", "pm" or colon.
 */
const CALENDAR: chrono.Component[] = ['day', 'month', 'year', 'weekday']
const COUNT_RANGE = /^(?:from\s+)?\d+(?:\.\d+)?\s*(?:to|until|till|through|-|–)\s*\d+(?:\.\d+)?$/i
const isCountRange = (result: chrono.ParsedResult) =>
  COUNT_RANGE.test(result.text.trim()) && !CALENDAR.some((c) => result.start.isCertain(c))

function isoDate(result: chrono.ParsedResult): string {
  const date = result.start.date()
  return result.start.isCertain('hour') ? date.toISOString() : date.toISOString().slice(0, 10)
}

/**
 * compromise's tags for a passage, as sentences of terms with offsets. `nlp()` runs every registered
 * hook; the last one, `chunks` (compromise/three's chunker), only fills `term.chunk`, which this
 * extractor never reads, and costs about 6% of a parse. The tags are the same without it (checked on
 * every LoCoMo dev turn and session and a SciFact sample). The hook list is swapped for this
 * synchronous call only, so other users of compromise in the process see no change.
 */
function parse(text: string): Sentence[] {
  const world = nlp.world() as unknown as { hooks: string[] }
  const hooks = world.hooks
  world.hooks = hooks.filter((hook) => hook !== 'chunks')
  try {
    return nlp(text).json({ offset: true, terms: { tags: true, offset: true } }) as Sentence[]
  } finally {
    world.hooks = hooks
  }
}

/**
 * A sentence's clauses after a semicolon that opens one with its own subject and verb ("Olga Petrova
 * manages hiring; she reports to Ana Ruiz", "Lena raised concerns; Priya agreed to review it"), read as
 * sentences of their own, as they would be after a full stop: a sentence has one event, so the second
 * clause's subject was lost and its object became the first verb's ("Olga Petrova manages hiring Ana
 * Ruiz"), and "she" found no one. The subject is a subject pronoun or a name (terms tagged `Person` or
 * `ProperNoun`), and a verb follows it directly; a list in semicolons ("Paris, France; Berlin, Germany")
 * stays one sentence.
 */
function clausesAtSemicolons(sentences: readonly Sentence[]): Sentence[] {
  const out: Sentence[] = []
  for (const s of sentences) {
    let from = 0
    for (let i = 0; i < s.terms.length - 1; i++) {
      if (!s.terms[i]!.post.includes(';') || !opensClause(s.terms, i + 1)) continue
      out.push(termsAsSentence(s, from, i + 1))
      from = i + 1
    }
    out.push(from === 0 ? s : termsAsSentence(s, from, s.terms.length))
  }
  return out
}

/** Whether term `at` opens a clause: a subject pronoun or a name, then a verb. */
function opensClause(terms: readonly Term[], at: number): boolean {
  let j = at
  if (SUBJECT_PRONOUNS.has(terms[j]!.text.toLowerCase())) j++
  else while (j < terms.length && (has(terms[j]!, 'Person') || has(terms[j]!, 'ProperNoun'))) j++
  return j > at && j < terms.length && has(terms[j]!, 'Verb')
}

/** Terms `[from, to)` of a sentence as a sentence: from its first term's start to the last one's end. */
function termsAsSentence(s: Sentence, from: number, to: number): Sentence {
  const terms = s.terms.slice(from, to)
  const start = from === 0 ? s.offset.start : terms[0]!.offset.start
  const end =
    to === s.terms.length
      ? s.offset.start + s.offset.length
      : terms.at(-1)!.offset.start + terms.at(-1)!.offset.length
  return { offset: { start, length: end - start }, terms }
}

/** `sentence` without its quoted titles and the marks around them. */
function outsideTitles(
  sentence: string,
  titles: readonly { start: number; end: number }[],
): string {
  let out = sentence
  for (const t of titles) {
    const from = Math.max(0, t.start - 1)
    const to = Math.min(sentence.length, t.end + 2)
    out = out.slice(0, from) + ' '.repeat(to - from) + out.slice(to)
  }
  return out
}

/** A person, place or organisation, or a capitalised name: what an edge relates at both ends. */
const isNamed = (m: Mention) => m.label !== 'CONCEPT' || isProperPhrase(m.name)
/** ", who" or ", which" right after a name, opening a relative clause about it. */
const RELATIVE_AFTER = /^\s*,\s*(?:who|which)\s+/i

/**
 * The relative clauses that describe a named mention after a comma ("Pierre Curie, who discovered
 * radium"): the mention's index and the clause's verb group, which follows the pronoun directly or after
 * one adverb ("who later joined Shopify").
 */
function relativeClauses(
  sentence: string,
  text: string,
  terms: Term[],
  base: number,
  mentions: readonly Mention[],
): { from: number; group: VerbGroup }[] {
  const out: { from: number; group: VerbGroup }[] = []
  mentions.forEach((m, from) => {
    if (!isNamed(m)) return
    // The last place of a chain ("a team based in Beijing, China, which plays ...") may not be what the
    // clause is about: the team plays, not China.
    const previous = mentions[from - 1]
    if (
      m.label === 'PLACE' &&
      previous?.label === 'PLACE' &&
      /^\s*,\s*$/.test(sentence.slice(previous.end, m.start))
    )
      return
    const pronoun = RELATIVE_AFTER.exec(sentence.slice(m.end))
    if (pronoun === null) return
    const at = m.end + pronoun[0].length
    const first = terms.findIndex((t) => t.offset.start - base >= at)
    const group = first < 0 ? null : firstVerb(text, terms, base, first)
    if (group === null) return
    const gap = sentence.slice(at, group.start).trim()
    if (gap === '' || (SPLITTING_ADVERB.test(gap) && !/\s/.test(gap))) out.push({ from, group })
  })
  return out
}

/** Whether term `t` lies inside `span` of its sentence (offsets from the sentence's start `base`). */
const within = (t: Term, base: number, span: { start: number; end: number }) =>
  t.offset.start - base >= span.start && t.offset.start - base + t.offset.length <= span.end

/** The tags that make a term a verb for these rules. */
const VERB_TAGS = new Set([
  'Verb',
  'Infinitive',
  'Imperative',
  'PresentTense',
  'PastTense',
  'Gerund',
  'Participle',
  'PhrasalVerb',
  'Passive',
])

/**
 * A name whose first word the tagger reads as a verb, in a sentence that defines it ("Square Enix is a
 * Japanese video game company", "Hope Town is one of the districts of the Bahamas", "Camp Caves was a US Army
 * training camp", "Mount Shinn is a mountain"): that word is retagged as a proper noun, taking the named kind
 * of the word after it, so the name is whole ("Enix", "Town", "Caves" and "Shinn" were the names) and the
 * copula is the sentence's verb (the sentence had no event, its verb having no subject before it). Only a
 * capitalised first word of the sentence, followed by capitalised words none of which is a person's name
 * ("Hope Jon is doing well" keeps its verb) and then a finite verb, a copula, a past tense or a present
 * tense in "-s" ("Project Falcon is late"; a copula and an article alone until 2026-12-07): the shape of a
 * statement about the name, not of a wish or an order ("Let Jon know", "Visit Paris").
 */
function nameOpeningVerb(terms: Term[]): void {
  const first = terms[0]
  if (
    first === undefined ||
    !has(first, 'Verb') ||
    has(first, 'Copula') ||
    has(first, 'Auxiliary') ||
    has(first, 'Modal') ||
    !/^\p{Lu}\p{Ll}/u.test(first.text) ||
    BREAKS_AFTER.test(first.post)
  )
    return
  let j = 1
  while (
    j < terms.length &&
    /^\p{Lu}/u.test(terms[j]!.text) &&
    !has(terms[j]!, 'Verb') &&
    !has(terms[j]!, 'Person') &&
    !has(terms[j]!, 'Pronoun')
  ) {
    if (BREAKS_AFTER.test(terms[j]!.post)) return
    j++
  }
  // The name's own finite verb right after it: "Square Enix is a ...", "Project Falcon is late",
  // "Project Falcon started in May" (which named "Falcon"); not "Let Jon know" (a person's name ends the
  // words, and "know" is no finite verb), not a contraction's implied "is" ("Following Microsoft's open
  // ..."), and after a gerund, which may open a participle's clause, only a definition.
  const verb = terms[j]
  if (
    j === 1 ||
    verb === undefined ||
    !/\p{L}/u.test(verb.text) ||
    !(
      (has(verb, 'Copula') && /^(?:a|an|the|one)$/i.test(terms[j + 1]?.text ?? '')) ||
      (!has(first, 'Gerund') &&
        (has(verb, 'Copula') ||
          has(verb, 'PastTense') ||
          (has(verb, 'PresentTense') && /s$/.test(verb.text) && !has(verb, 'Gerund'))))
    )
  )
    return
  const kinds = terms[1]!.tags.filter((tag) => tag === 'Place' || tag === 'Organization')
  first.tags = [...first.tags.filter((tag) => !VERB_TAGS.has(tag)), 'Noun', 'ProperNoun', ...kinds]
}

/**
 * A listed given name the tagger reads as a verb by its ending ("Erling Haaland scored twice": "Erling" a
 * gerund, so the sentence had no subject and "Haaland" was a concept), before a capitalised word that is
 * no verb: the two are a person's name (`opensWithListedGivenName`: a given name of given-names.ts the
 * lexicon does not know, then a word it knows as nothing but a name).
 */
function givenNameReadAsVerb(terms: Term[]): void {
  for (let i = 0; i + 1 < terms.length; i++) {
    const [first, next] = [terms[i]!, terms[i + 1]!]
    if (
      !has(first, 'Verb') ||
      has(next, 'Verb') ||
      !/^\p{Lu}\p{Ll}/u.test(first.text) ||
      !/^\p{Lu}\p{Ll}/u.test(next.text) ||
      BREAKS_AFTER.test(first.post) ||
      !opensWithListedGivenName(`${first.text} ${next.text}`)
    )
      continue
    first.tags = [
      ...first.tags.filter((tag) => !VERB_TAGS.has(tag)),
      'Noun',
      'ProperNoun',
      'Person',
    ]
    if (!has(next, 'Person')) next.tags = [...next.tags, 'Person']
  }
}

/**
 * A result's verb the tagger reads as a noun between two names ("Manchester City beat Arsenal 3-1": a
 * concept "Manchester City beat Arsenal" and no event), as the sentence's only verb candidate: retagged as
 * the verb. Only these words, which the lexicon knows as nouns or names ("beat", "drew").
 */
function resultVerbReadAsNoun(terms: Term[]): void {
  if (terms.some((t) => has(t, 'Verb'))) return
  for (let i = 1; i + 1 < terms.length; i++) {
    const [before, verb, after] = [terms[i - 1]!, terms[i]!, terms[i + 1]!]
    if (
      RESULT_VERB.test(verb.text) &&
      /^\p{Lu}/u.test(before.text) &&
      (/^\p{Lu}/u.test(after.text) || /^(?:with|to)$/i.test(after.text)) &&
      !BREAKS_AFTER.test(before.post)
    ) {
      verb.tags = ['Verb', verb.text.endsWith('s') ? 'PresentTense' : 'PastTense']
      return
    }
  }
}
const RESULT_VERB = /^(?:beat|beats|drew|draws)$/

/**
 * A label opening a line, up to four words before a colon ("Notes: Jane asked Bob for a discount", "notes:
 * ..." of a JSON record, "Next steps: ..."), whose words the tagger may read as verbs, so that the
 * sentence's verb was the label and had no subject before it: they are retagged as nouns. Not "He said:
 * ..." (a pronoun) nor a colon inside a line.
 */
function labelReadAsVerb(terms: Term[], text: string): void {
  const colon = terms.findIndex((t) => /^:/.test(t.post))
  if (colon < 0 || colon > 3) return
  const label = terms.slice(0, colon + 1)
  if (
    !opensLine(text, terms[0]!.offset.start) ||
    label.some((t, i) => (i < colon && BREAKS_AFTER.test(t.post)) || has(t, 'Pronoun'))
  )
    return
  for (const term of label) if (has(term, 'Verb')) term.tags = ['Noun', 'Singular']
}

/**
 * A second past-tense verb the tagger reads as an adjective ("Bob Martin moved to Toulouse and joined
 * Siemens": "joined" an adjective, so no second verb): retagged as the verb where it follows "and" or "but"
 * after an earlier verb in the past tense and comes before a name or a determiner (what a verb takes; "was
 * tired and bored." stays), when taking off "d" or "ed" leaves a verb the lexicon knows.
 */
function pastReadAsAdjective(terms: Term[]): void {
  let past = false
  for (let i = 1; i + 1 < terms.length; i++) {
    past ||= has(terms[i - 1]!, 'PastTense') && has(terms[i - 1]!, 'Verb')
    const [before, word, after] = [terms[i - 1]!, terms[i]!, terms[i + 1]!]
    if (
      past &&
      has(word, 'Adjective') &&
      /^(?:and|but)$/i.test(before.text) &&
      /^\p{Ll}+ed$/u.test(word.text) &&
      !BREAKS_AFTER.test(word.post) &&
      (has(after, 'ProperNoun') || has(after, 'Determiner')) &&
      (isInfinitive(word.text.slice(0, -1)) || isInfinitive(word.text.slice(0, -2)))
    )
      word.tags = ['Verb', 'PastTense']
  }
}

export interface LocalExtractorOptions {
  /** Longest noun phrase kept as a concept, in words (default 5). */
  maxConceptWords?: number
}

/**
 * The built-in extractor: no network, no LLM (DESIGN.md section 3). People, places and organisations
 * from compromise; money, quantities, emails and urls from wink-nlp; dates from chrono-node, resolved
 * against the source timestamp; other noun phrases as concepts; per sentence a verb-centred
 * subject-verb-object event (EVENT node, legs actor -> event -> object and -> place, sharing one
 * event key); sentences about an entity as observations (a pronoun subject refers to the last person
 * named), with polarity from a small lexicon.
 */
export function localExtractor(options: LocalExtractorOptions = {}): Extractor {
  const maxWords = options.maxConceptWords ?? 5
  return {
    kind: 'extractor',
    name: 'local',
    async extract(input, ctx) {
      const reference = new Date(input.sourceTimestamp)
      const entities = new Map<string, Entity>()
      const relationships: ExtractedGraph['relationships'] = []
      const observations: ExtractedGraph['observations'] = []
      const focus = input.observateFor.map((f) => f.toLowerCase()).filter((f) => f.length > 0)

      const entityKey = (name: string, label: string, passageId: string): string => {
        const key = keyOf(name, label)
        const existing = entities.get(key)
        if (existing === undefined)
          entities.set(key, {
            key,
            // A date or number can run across a line break ("December\n16, 1969"): one line, as names are.
            name: oneLine(name),
            labels: [label],
            properties: {},
            passageIds: [passageId],
          })
        // Passages are read in order, so a passage already cited is the last one (no scan of the list).
        else if (existing.passageIds.at(-1) !== passageId) existing.passageIds.push(passageId)
        return key
      }

      // The NLP libraries are synchronous: yield to the event loop every ~10 ms so requests keep flowing.
      const pause = loopYielder()
      // First pass: every sentence's mentions, and the text's full person names (for coreference).
      const people = new PersonNames()
      /** The text's conversation speakers: the same name in any turn is that person ("Thanks Priya!"). */
      const speakerNames = new Set<string>()
      /** Names the text defines ("Roketsan is a Turkish weapons manufacturer"), lower-cased, with that kind. */
      const defined = new Map<string, DefinedKind>()
      /** Abbreviations the text defines ("... de Medicina (ELAM)"): the mention of the name each stands for. */
      const abbreviations = new Map<string, Mention>()
      /** Titles the text defines (`definedTitle`), with their label: their later mentions are joined too. */
      const titles = new Map<string, string>()
      const read: {
        passage: (typeof input.passages)[number]
        base: number
        sentence: string
        terms: Term[]
        dates: chrono.ParsedResult[]
        mentions: Mention[]
        /** Markdown was blanked out of the passage (`maskMarkdown`). */
        masked: boolean
        /** The sentence opens a turn whose label names no one (`speakerOf`). */
        speakerless: boolean
        /**
         * Titles in quotation marks (`quotedTitles`): no number inside one is a date or a count, and its
         * marks quote no one.
         */
        quoted: readonly { name: string; start: number; end: number }[]
      }[] = []
      // Markdown syntax blanked, offsets kept: no "# Heading" or "**Name**" entity, no code.
      // The inline code spans are read off before `maskMarkdown` blanks their backticks.
      const unfenced = unfencedPassageTexts(input)
      // Line breaks that only wrap a paragraph read as spaces (compromise ends a sentence at each).
      // Quotations in single marks as in double ones (British usage), offsets kept.
      const maskedTexts = unfenced.map((text) =>
        joinSoftWraps(text, singleQuotesAsDouble(maskMarkdown(text))),
      )
      const codes = unfenced.map(codeSpans)
      /** Ids of the passages that hold an inline code span: technical text. */
      const withCode = new Set(
        input.passages.filter((_, i) => codes[i]!.length > 0).map((p) => p.id),
      )
      const lines = labelledLines(maskedTexts)
      const transcript = transcriptSpeakers(lines.flat())
      const fields = fieldLabels(lines, transcript)
      let lowerWords: Set<string> | null = null
      const usedInLowerCase = (word: string) =>
        (lowerWords ??= new Set(maskedTexts.flatMap((t) => t.match(LOWER_CASE_WORD) ?? []))).has(
          word.toLowerCase(),
        )
      /**
       * The first pass over one sentence: its mentions, typed and joined, into `read`. The two passes'
       * bodies are functions of their own, not the loops' bodies, so that V8 optimises each on its own:
       * as one function of ~570 lines, `extract` took about half a second to compile, again after each
       * deoptimisation (benchmarks/LOG.md, 2026-12-02).
       */
      const readSentence = (
        passage: (typeof input.passages)[number],
        stored: (typeof input.passages)[number],
        index: number,
        nicknamed: readonly { start: number; end: number; name: string; nickname: string }[],
        s: Sentence,
      ): void => {
        const base = s.offset.start
        const sentence = passage.text.slice(base, base + s.offset.length)
        const named = namedMentions(passage.text, s.terms, base)
        // Only the characters right before the sentence: a test of the whole prefix is quadratic in the text.
        const quoted = quotedTitles(
          sentence,
          /["“]\s*$/.test(passage.text.slice(Math.max(0, base - 8), base)),
        )
        // A word of a quoted title is no verb of the sentence: 'Our group, "Connected LGBTQ Activists",
        // is made of ...' made the event "group connected all kinds".
        if (quoted.length > 0)
          for (const t of s.terms)
            if (has(t, 'Verb') && quoted.some((q) => within(t, base, q)))
              t.tags = ['Noun', 'Singular']
        const dates = chrono
          .parse(sentence, reference)
          .filter(
            (d) =>
              !isCountRange(d) &&
              !monthInName(d, sentence, named) &&
              !weekdayInName(d, sentence) &&
              !quoted.some((q) => d.index < q.end && q.start < d.index + d.text.length),
          )
        for (const d of dates)
          if (movesWithTense(d)) placeInTense(d, tenseAt(s.terms, base + d.index))
        const inDate = (m: { start: number; end: number }) =>
          dates.some((d) => m.start < d.index + d.text.length && d.index < m.end)
        const concepts: Mention[] = []
        // A phrase too long for a concept still ends with the name its kind word introduces ("the
        // Italian melodic death metal band Disarmonia Mundi"): that name is a mention.
        const longNames: Mention[] = []
        for (const c of nounPhrases(passage.text, s.terms, base)) {
          if (inDate(c)) continue
          if (c.name.split(/\s+/).length <= maxWords) concepts.push(c)
          else {
            const name = nameAfterKind(c)
            if (name !== null) longNames.push(name)
          }
        }
        // A named span inside a longer capitalised noun phrase ("AI" in "AI Ethics Meetup") yields to the phrase.
        let mentions: Mention[] = []
        const opening = sentence.search(/\S/)
        for (const c of concepts.map((c) => properPart(c, c.start <= opening))) {
          const covered = named.filter((n) => n.start >= c.start && n.end <= c.end)
          const capitalised = /^[A-Z0-9]/.test(c.name) && c.name.split(/\s+/).length > 1
          // A name typed by the kind beside it ("band Ladytron") outranks the tagger's lexicon.
          const typed = c.label !== 'CONCEPT'
          if (!typed && covered.length === 1 && covered[0]!.name === c.name) continue
          if (!typed && covered.length > 0 && !capitalised) continue
          mentions.push(c)
          const titled = titledName(c)
          if (titled !== null) mentions.push(titled)
        }
        for (const n of [...named, ...longNames])
          if (!mentions.some((c) => n.start >= c.start && n.end <= c.end) && !inDate(n))
            mentions.push(n)
        for (const d of namedMentions(passage.text, s.terms, base, DEMONYM)) {
          const same = mentions.find((m) => m.start === d.start && m.end === d.end)
          if (namesLanguage(sentence, d)) {
            if (same !== undefined) same.language = true
            continue
          }
          // A nationality opening a place's name is part of that name, no country of its own ("British
          // Columbia", "Dutch Republic"); it stays one before an organisation's or an event's name, whose
          // country it says ("Polish Academy of Sciences", "Korean War"), and inside a common phrase
          // ("German skeleton racer"). A state named by its kind is a place whatever the tagger read
          // it as (step 3 types it).
          const inName = mentions.some(
            (m) =>
              m.start <= d.start &&
              m.end > d.end &&
              ((m.label === 'PLACE' && isProperPhrase(m.name)) || namesRealm(m.name)),
          )
          if (same === undefined) {
            if (!inName) mentions.push(d)
          } else if (same.label === 'CONCEPT') same.label = d.label
        }
        for (const nick of nicknamed) {
          const start = nick.start - base
          const end = nick.end - base
          if (start < 0 || end > sentence.length) continue
          mentions = mentions.filter((m) => m.end <= start || m.start >= end)
          mentions.push({ name: nick.name, label: 'PERSON', start, end })
          people.addFullName(nick.name, [nick.nickname])
        }
        const qualifiers: Mention[] = []
        for (const m of mentions) {
          const place = m.label === 'ORGANIZATION' ? null : placeInPhrase(m.name)
          if (place === null) continue
          const phraseStart = m.start
          m.start += m.name.lastIndexOf(place)
          m.end = m.start + place.length
          m.name = place
          m.label = 'PLACE'
          // "the U.S. state of Oregon": the country the phrase names before the division's kind is a
          // place of its own (its nationality, "Canadian province of Alberta", is one already).
          const country = named.find(
            (n) =>
              n.start >= phraseStart &&
              n.end < m.start &&
              DIVISION_AFTER.test(sentence.slice(n.end)) &&
              !mentions.some((o) => o.start === n.start && o.end === n.end),
          )
          if (country !== undefined) qualifiers.push({ ...country, label: 'PLACE' })
        }
        mentions.push(...qualifiers)
        // Code and markup are not entities (`of(entityUuid`, `a[i]`), nor an interjection left as the
        // capitalised part of a phrase ("Great" of "Great job!").
        mentions = mentions.filter(
          (m) =>
            !CODE.test(m.name) &&
            !isInterjection(m.name, sentence, 0, m.start) &&
            !opensQuestion(m.name, sentence, m.start) &&
            !opensWithImperative(m, sentence) &&
            !(
              m.label === 'CONCEPT' &&
              !/\s/.test(m.name) &&
              isFunctionWord(m.name) &&
              byPosition(m.name, sentence.slice(0, m.start))
            ) &&
            !fields[index]!.some(([from, to]) => base + m.start < to && from < base + m.end),
        )
        // `ON DELETE CASCADE`, `Node`: code, which names no one, is a concept whatever the tagger said.
        for (const m of mentions)
          if (codes[index]!.some(([from, to]) => base + m.start >= from && base + m.end <= to)) {
            m.code = true
            if (NAME_LABELS.has(m.label)) m.label = 'CONCEPT'
          }
        const speaker = opensLine(passage.text, base) ? speakerOf(sentence, transcript) : undefined
        if (speaker) {
          mentions = mentions.filter((m) => m.start > speaker.end)
          mentions.push(speaker)
          speakerNames.add(speaker.name)
        }
        // Dashes open no name: "- General Sir George Prévost" of "Lieutenant - General", split at its hyphen.
        for (const m of mentions) {
          const dashes = LEADING_DASHES.exec(m.name)?.[0].length ?? 0
          if (dashes === 0 || dashes === m.name.length) continue
          m.name = m.name.slice(dashes)
          m.start += dashes
        }
        // A name the text defines takes that kind, here and at its other mentions (second pass).
        for (const m of mentions) {
          if (m.code === true || !NAME_LABELS.has(m.label) || !isProperPhrase(m.name)) continue
          const kind = definedKind(sentence.slice(m.end))
          if (kind === null) continue
          m.label = kind
          defined.set(m.name.toLowerCase(), kind)
        }
        for (const m of mentions) {
          if (m.label !== 'PERSON') continue
          const name = personName(m.name)
          if (name !== m.name) m.written = m.name
          m.name = name
          people.addFullName(m.name)
        }
        mentions.sort((a, b) => a.start - b.start)
        mentions = withoutDefinedAbbreviations(sentence, mentions, abbreviations)
        typeByKindBefore(sentence, mentions, defined)
        mentions = joinRemitLists(sentence, joinOfPhrases(sentence, mentions))
        // Again after the joins, which make the name an abbreviation stands for where the tagger cut
        // it at "of" or "for" ("The Washington Institute for Near East Policy (WINEP)").
        mentions = withoutDefinedAbbreviations(sentence, mentions, abbreviations)
        const joinTitle = (title: { name: string; start: number; end: number }, label: string) => {
          mentions = mentions.filter((m) => m.end <= title.start || m.start >= title.end)
          const after = mentions.findIndex((m) => m.start > title.start)
          mentions.splice(after < 0 ? mentions.length : after, 0, { ...title, label })
        }
        // Titles an earlier sentence defined, written again and cut again by the tagger.
        for (const [name, label] of titles)
          for (const span of laterTitleSpans(sentence, name, mentions))
            joinTitle({ name, ...span }, label)
        // A title the sentence opens by defining is one name, however the tagger cut it at its small
        // words; after the joins, which name "Institute for Near East Policy" by its kind word.
        const title = definedTitle(sentence, mentions)
        if (title !== null) {
          const kind = definedKind(sentence.slice(title.end))
          if (kind !== null) defined.set(title.name.toLowerCase(), kind)
          titles.set(title.name, kind ?? 'CONCEPT')
          joinTitle(title, kind ?? 'CONCEPT')
        }
        // A title in quotation marks is one name, unless the tagger already named it whole with a type.
        for (const q of quoted) {
          const inside = mentions.filter((m) => m.start < q.end && q.start < m.end)
          const whole = inside.length === 1 && inside[0]!.name === q.name
          if (whole && inside[0]!.label !== 'CONCEPT') continue
          joinTitle(q, 'CONCEPT')
          if (/\s/.test(q.name)) titles.set(q.name, 'CONCEPT')
        }
        read.push({
          passage,
          base,
          sentence,
          terms: s.terms,
          dates,
          mentions,
          masked: passage.text !== stored.text,
          speakerless: speaker === null,
          quoted,
        })
      }
      for (const [index, stored] of input.passages.entries()) {
        if (ctx.signal.aborted) throw new Error('extraction aborted')
        const passage = { ...stored, text: maskedTexts[index]! }
        // `First "Nick" Last`: one person, `First Last`, also called `Nick`.
        const nicknamed = [...passage.text.matchAll(NICKNAME)].map((m) => ({
          start: m.index,
          end: m.index + m[0].length,
          name: stripTitles(`${m[1]} ${m[3]}`),
          nickname: m[2]!,
        }))
        // One parse per passage: compromise's tagging is most of the cost (~0.75 of ~1 ms a turn).
        const parsed = parse(passage.text)
        for (const s of parsed) {
          nameOpeningVerb(s.terms)
          givenNameReadAsVerb(s.terms)
          resultVerbReadAsNoun(s.terms)
          pastReadAsAdjective(s.terms)
          labelReadAsVerb(s.terms, passage.text)
        }
        for (const s of clausesAtSemicolons(parsed)) {
          await pause()
          readSentence(passage, stored, index, nicknamed, s)
        }
      }

      // Second pass: coreference and types, then entities, events and observations per sentence.
      const places = new Set<string>()
      const isPlace = (name: string) => places.has(name.toLowerCase())
      const standalone = new Set<string>()
      /** One-word organisations of the text: "Google" of "Google Maps", which names no one. */
      const organizationWords = new Set<string>()
      for (const r of read)
        for (const m of r.mentions) {
          if (m.label === 'PLACE') places.add(m.name.toLowerCase())
          // "the Oilers" is a team's nickname, not a bare surname: no person cue for "Edmonton Oilers".
          else if (
            /^\p{Lu}[\p{L}'’-]+$/u.test(m.name) &&
            !(m.name.endsWith('s') && THE_BEFORE.test(r.sentence.slice(0, m.start)))
          )
            standalone.add(m.name.toLowerCase())
          if (m.label === 'ORGANIZATION' && !/\s/.test(m.name))
            organizationWords.add(m.name.toLowerCase())
        }
      // People the tagger left as concepts or read as places ("Mary Field"), found by a title, a birth
      // date, a later bare surname or a verb only a person takes.
      for (const r of read)
        for (const m of r.mentions) {
          if (
            m.label === 'PLACE' &&
            personNamedLikePlace(m.name, r.sentence.slice(0, m.start), r.sentence.slice(m.end))
          ) {
            m.label = 'PERSON'
            people.addFullName(m.name)
            continue
          }
          if (m.label !== 'CONCEPT' || m.code === true) continue
          const before = r.sentence.slice(0, m.start)
          const first = r.terms.find((t) => t.offset.start - r.base === m.start)
          const found = personByCue(
            m.name,
            before,
            r.sentence.slice(m.end),
            standalone,
            isPlace,
            first !== undefined && (has(first, 'FirstName') || opensWithListedGivenName(m.name)),
          )
          if (found === null) continue
          // Typed a person now: a sentence's first word read into the name goes ("During Johnson").
          const name = personName(found)
          m.start += m.name.lastIndexOf(name)
          m.end = m.start + name.length
          m.name = name
          m.label = 'PERSON'
          people.addFullName(name)
        }
      let lastPerson: string | null = null
      /** The keys of the text's conversation speakers. */
      const speakers = new Set<string>()
      /** The text is a conversation: turns of two or more speakers. */
      const conversation = speakerNames.size >= 2
      /** A speaker of a conversation: never "he", "she", "they" or "It", nor its main person. */
      const conversing = (key: string | null) => conversation && key !== null && speakers.has(key)
      // The first person a text names is its main person: an encyclopaedia article's subject, and the
      // usual referent of a sentence opening with "He" or "She" (the centering preference for the
      // topic of the discourse: Grosz, Joshi & Weinstein, Computational Linguistics 21(2), 1995).
      let mainPerson: string | null = null
      let mainTopic: string | null = null
      let lastPassage: string | null = null
      /** The people of the passage's sentences so far, most recent last. */
      let recentPeople: string[] = []
      /** The speaker of the current turn, when the passage is a conversation: who "I" and "we" are. */
      let speakerKey: string | null = null
      /** The current turn's label names no one: its "I" and "we" are no one. */
      let speakerless = false
      /** The current sentence holds a quotation mark: its "I" and "we" may be someone's words. */
      let quoting = false
      const genders = new PersonGenders()
      /**
       * Who a subject pronoun refers to. "He" or "she" (also "In 1895, she ..."): the main person, else
       * the last person named, else the person named most recently in the passage, the first of them its
       * gender agrees with ("Pierre Curie married Marie Sklodowska. She ..."). "I" and "we" in a
       * conversation turn: its speaker, or no one when its label names no one ("Assistant:"). "I" or
       * "we" in a sentence that quotes ('"I will come," he said'), and "they": the last person named.
       * "I" and "we" elsewhere are whoever wrote the text, whom it does not name: no one ("I promised to
       * send Priya the slides" after "her sister Anika is getting married" made Anika promise).
       */
      const pronounReferent = (pronoun: string): string | null => {
        if (pronoun === 'i' || pronoun === 'we') {
          if (speakerKey !== null) return speakerKey
          if (speakerless || !quoting) return null
        }
        const gender = pronounGender(pronoun)
        // In a conversation of two or more speakers, "he", "she" and "they" are someone the speakers
        // talk about, not a speaker ("Maya: Jordan got the job. Leo: He starts in Stockholm" is Jordan's
        // start, not Maya's). A lone turn's are left to the rules above: taking its speaker out of them
        // cost LoCoMo dev's default search R@10 0.7185 -> 0.7121 (benchmarks/LOG.md, 2026-12-07).
        const third = (key: string | null): key is string =>
          key !== null && !(speakerKey !== null && conversing(key))
        if (gender === null) return third(lastPerson) ? lastPerson : null
        for (const key of [mainPerson, lastPerson])
          if (third(key) && genders.agrees(key, gender)) return key
        return recentPeople.findLast((key) => third(key) && genders.agrees(key, gender)) ?? null
      }
      /**
       * The first thing the text names when that is neither its main person nor, in a conversation, a
       * speaker: what "It ..." is about.
       */
      const thingTopic = (): string | null =>
        mainTopic !== mainPerson && !conversing(mainTopic) ? mainTopic : null
      const organizations = new OrganizationNames(isOrganizationHead)
      /** The second pass over one sentence: its entities, events, edges and observations. */
      const relateSentence = (r: (typeof read)[number]): void => {
        const { passage, base, sentence, terms, dates, mentions, masked } = r
        if (passage.id !== lastPassage) {
          lastPerson = null
          recentPeople = []
          speakerKey = null
          speakerless = false
        }
        lastPassage = passage.id
        // A sentence quotes someone when it holds a quotation mark other than a title's: "We watched
        // 'Peaky Blinders'" is the writer's, no one quoted (its "We" was taken for the last person named).
        quoting = QUOTATION_MARK.test(outsideTitles(sentence, r.quoted))
        for (const m of mentions) {
          if (m.code === true) continue
          // An abbreviation the text defined is the name it stands for, typed as that name's mention
          // was (earlier in the text, so typed already).
          const long = abbreviations.get(m.name)
          if (long !== undefined) {
            m.name = long.name
            m.label = long.label
          }
          // A defined organisation, person or place is that (first pass), at every mention: a defined
          // place is no person, not even by coreference.
          const kind = NAME_LABELS.has(m.label) ? defined.get(m.name.toLowerCase()) : undefined
          if (kind !== undefined) m.label = kind
          if (kind === 'ORGANIZATION') continue
          // A defined person is still the full name it is part of: "Samuel C. Brightman (1911 - 1992) was a
          // journalist" defines "Brightman" too (cut at the initial), and "Brightman started ..." is he.
          const full =
            (kind === undefined || kind === 'PERSON') &&
            (m.label === 'PERSON' || (m.label === 'CONCEPT' && isProperPhrase(m.name)))
              ? (people.fullNameOf(m.name) ?? (speakerNames.has(m.name) ? m.name : null))
              : null
          if (full !== null) {
            m.name = full
            m.label = 'PERSON'
          }
          if (kind === 'PERSON' || m.language === true) continue
          m.label = properNameType(
            m.name,
            m.label,
            sentence.slice(0, m.start),
            sentence.slice(m.end),
            isPlace,
          )
          // A "person" the surroundings make a place is named as written: "in Saint John, New Brunswick".
          if (m.label === 'PLACE' && m.written !== undefined) m.name = m.written
          // An acronym's shape is no organisation where its word is one the text also writes in small
          // letters ("NULL", "ENTITY"; an organisation's acronym is not: "NATO", "ASCAP"), nor in a
          // passage that holds code (an inline code span), where it names a term of the trade far more
          // often ("HNSW", "SHA", "WAL", "MCP"), unless its words say so ("developed by IBM").
          if (
            m.label === 'ORGANIZATION' &&
            CAPITALS_ONLY.test(m.name) &&
            (usedInLowerCase(m.name) ||
              (withCode.has(passage.id) &&
                !organizationByContext(sentence.slice(0, m.start), sentence.slice(m.end))))
          )
            m.label = 'CONCEPT'
          // A "person" opening with an organisation the text named, a word no one has as a given name, is
          // its product or service ("Google Maps", "Toyota Avalon"): named like a person, it is none.
          if (m.label === 'PERSON') {
            const first = m.name.split(/\s+/)[0]!
            if (
              first !== m.name &&
              organizationWords.has(first.toLowerCase()) &&
              !isFirstName(first)
            )
              m.label = 'CONCEPT'
          }
          if (m.label === 'PLACE') places.add(m.name.toLowerCase())
          // "the Royals" after "Kansas City Royals": a team's nickname is the team.
          const team =
            m.label === 'CONCEPT' || m.label === 'ORGANIZATION'
              ? organizations.teamOf(m.name)
              : null
          if (team !== null) {
            m.name = team
            m.label = 'ORGANIZATION'
          } else if (m.label === 'ORGANIZATION') {
            if (!/\s/.test(m.name)) organizationWords.add(m.name.toLowerCase())
            m.name = organizations.fullNameOf(m.name)
            if (isTeamName(m.name)) organizations.addTeam(m.name)
          }
        }
        // "Tarragona, Alt Penedès and Garraf": a list's untyped names take the type its typed ones share.
        for (const m of typeCoordinatedNames(
          sentence,
          [...mentions].sort((a, b) => a.start - b.start),
        ))
          if (m.label === 'PLACE') places.add(m.name.toLowerCase())
        for (const m of mentions)
          if (m.code === true && NAME_LABELS.has(m.label)) m.label = 'CONCEPT'
        {
          const keys = mentions.map((m) => entityKey(m.name, m.label, passage.id))
          /**
           * What verb group `group` relates `subjectKey` to by an edge: the first thing its clause (to
           * `end`) names (`objectOf`) and the verb's name; undefined when it names nothing or the verb
           * has no letters. The further verbs, a main clause and relative clauses read their edges so.
           */
          const verbEdge = (
            subjectKey: string | undefined,
            group: VerbGroup,
            end = clauseEnd(sentence, group.end),
          ) => {
            const target = objectOf(
              mentionsAfter(mentions, keys, group.end, subjectKey),
              end,
              adjacentTo(sentence, group.end),
              sentence,
            )
            const name = verbName(group)
            return target !== undefined && /[a-z]/.test(name) ? { target, name } : undefined
          }
          const spoken = mentions.findIndex((m) => m.speaker === true && m.label === 'PERSON')
          // A labelled line begins the next turn of a transcript held in one passage.
          if (spoken >= 0 || r.speakerless) {
            speakerKey = spoken >= 0 ? keys[spoken]! : null
            if (speakerKey !== null) speakers.add(speakerKey)
            speakerless = r.speakerless
          }
          mentions.forEach((m, i) => {
            if (m.label !== 'PERSON') return
            const inName = terms.filter(
              (t) => t.offset.start >= base + m.start && t.offset.start < base + m.end,
            )
            genders.note(keys[i]!, mentionGender(inName, sentence.slice(0, m.start)))
          })
          for (const e of winkEntities(sentence)) {
            let label = WINK_LABELS[e.type]
            if (label === undefined || r.quoted.some((q) => q.name.includes(e.value))) continue
            // A span chrono reads as a date ("from 1992 to 2002") is a date; a bare count ("four", "8") is
            // no entity, nor is a bare number inside a date ("60" of "within 60 s", "10" of "at 10 on
            // Monday"): only a year names a date on its own.
            const bare =
              (e.type === 'CARDINAL' || e.type === 'DURATION') && !/\s/.test(e.value.trim())
            if (bare && !YEAR.test(e.value.trim())) continue
            if (
              isDateSpan(e.value) ||
              dates.some((d) => d.text.includes(e.value) || e.value.includes(d.text))
            )
              label = 'DATE'
            else if (bare) continue
            entityKey(e.value, label, passage.id)
          }

          // "Vancouver, British Columbia, Canada", "Aetolia-Acarnania in Greece", "within Szczytno
          // County, in northern Poland": each place of such a run lies in the next, not in a list of
          // places ("Denmark, Germany and Sweden"). A people is in no place ("the French in Algeria").
          const inPlace = (i: number) =>
            PLACE_IN_PLACE.test(sentence.slice(mentions[i]!.end, mentions[i + 1]!.start)) &&
            demonymEnding(terms, base, mentions[i]!) < 0
          const sentenceEdges = relationships.length
          /** An edge of this passage that is no event's leg; a verb's carries the sentence. */
          const edge = (
            subjectKey: string,
            name: string,
            objectKey: string,
            description: string | null = null,
          ) =>
            relationships.push({
              subjectKey,
              objectKey,
              name,
              description,
              passageIds: [passage.id],
            })
          /** Mention `inner` `-LOCATED_IN->` mention `outer`. */
          const locate = (inner: number, outer: number) =>
            edge(keys[inner]!, 'LOCATED_IN', keys[outer]!)
          for (const i of placeChain(sentence, mentions, (i) => keys[i] !== keys[i + 1], inPlace))
            locate(i, i + 1)
          // "the U.S. state of Oregon", "the Indian state of Kerala": the division lies in the country.
          for (const [inner, outer] of divisionsOf(sentence, mentions))
            if (keys[inner] !== keys[outer]) locate(inner, outer)
          // "the Indian writer Mulk Raj Anand": the person `-NATIONALITY->` the nationality before the role.
          for (const [person, nation] of nationalityQualifiers(sentence, mentions, (m) =>
            demonymEnding(terms, base, m),
          ))
            if (keys[person] !== keys[nation]) edge(keys[person]!, 'NATIONALITY', keys[nation]!)
          // "her 1993 album, Mi Tierra", "Duty (2000)": the work `-DATED->` its year.
          for (const [work, year] of workYears(sentence, mentions))
            edge(keys[work]!, 'DATED', entityKey(year, 'DATE', passage.id))

          // The reader a greeting addresses is "you" in what follows: no subject, no "he" or "she".
          const person = mentions.findIndex(
            (m) => m.label === 'PERSON' && !isAddressed(m, sentence),
          )
          const firstWord = withoutContraction(sentence.trim().split(/\s+/)[0]?.toLowerCase() ?? '')
          let subjectKey: string | null = null
          /** The mention the subject was read from; null for a pronoun's or none. */
          let subjectMention: Mention | null = null
          /** Mentions coordinated with the subject before it, doing what it does (`coordinatedSubjects`). */
          let partners: number[] = []
          let placeSubject = -1
          const verb = verbOutsideAsides(sentence, passage.text, terms, base, mentions)
          const verbText = verb === null ? '' : verbName(verb)
          if (verb !== null) {
            const apposition = appositionBefore(sentence, verb.start)
            const subjectEnd = apposition < 0 ? verb.start : apposition
            const before = mentions
              .map((m, i) => ({ m, i }))
              .filter(
                ({ m }) =>
                  m.end <= subjectEnd &&
                  m.label !== 'PLACE' &&
                  !inParenthesis(sentence, m) &&
                  !isAddressed(m, sentence),
              )
            // "Sarah Chen from Acme Robotics presented ...": a mention after "from" or "at" describes the
            // one before it, which is the subject.
            let head = before.length - 1
            while (
              head > 0 &&
              ATTACHED_TO_SUBJECT.test(
                sentence.slice(before[head - 1]!.m.end, before[head]!.m.start),
              )
            )
              head--
            if (head < before.length - 1) before.length = head + 1
            const last = before[before.length - 1]
            // A subject pronoun between the last name and the verb is the verb's subject; the name was in
            // a phrase before it ("Together with her husband, she discovered polonium" made "husband
            // discovered polonium"; "Caroline: Mel, I went to Boston" made Mel go).
            const pronounAfter =
              last === undefined
                ? null
                : (PRONOUN_BEFORE_VERB.exec(sentence.slice(last.m.end, verb.start))?.[1] ?? null)
            const referent =
              pronounAfter === null ? null : pronounReferent(pronounAfter.toLowerCase())
            // "I" or "we" that refers to no one (outside a turn) leaves the verb without a subject: the
            // name before it is in another phrase ("Last summer I visited ..." made "Last visited"). A
            // third person may take up the name before it ("The people there, they were so kind").
            // Nor, in a conversation, is the turn's label before a third person ("Melanie: They were
            // stoked" made Melanie stoked).
            const nobody =
              referent === null &&
              pronounAfter !== null &&
              (FIRST_PERSON.test(pronounAfter) || (conversation && last!.m.speaker === true))
            subjectMention = referent === null && !nobody ? (last?.m ?? null) : null
            if (subjectMention !== null)
              partners = coordinatedSubjects(sentence, before).map(({ i }) => i)
            if (referent !== null) subjectKey = referent
            else if (last !== undefined && !nobody) subjectKey = keys[last.i]!
            else {
              const opening = sentence.slice(0, verb.start)
              // "Yesterday I went to Boston": "I" or "we" right before the verb after an opening word.
              const pronoun = SUBJECT_PRONOUNS.has(firstWord)
                ? firstWord
                : (firstPronoun(opening) ??
                  PRONOUN_BEFORE_VERB.exec(opening)?.[1]?.toLowerCase() ??
                  null)
              if (pronoun !== null) subjectKey = pronounReferent(pronoun)
              else if (firstWord === 'it' && !EXPLETIVE_IT.test(sentence)) subjectKey = thingTopic()
            }
            // No other subject: a place heading the clause ("Foots Creek is ...") is one; what such a
            // sentence says is a description of the place, recorded below as its relationships.
            if (subjectKey === null)
              placeSubject = mentions.findLastIndex(
                (m) =>
                  m.end <= verb.start &&
                  m.label === 'PLACE' &&
                  !inParenthesis(sentence, m) &&
                  placeCanBeSubject(sentence.slice(0, m.start)),
              )
          } else if (person >= 0) {
            subjectKey = keys[person]!
          }
          // "Born in Prelate, he moved to Alberta": the pronoun after the verb group is the subject.
          if (subjectKey === null && verb !== null) {
            const pronoun = firstPronoun(sentence)
            if (pronoun !== null) subjectKey = pronounReferent(pronoun)
          }
          if (person >= 0) lastPerson = keys[person]!
          mentions.forEach((m, i) => {
            if (m.label === 'PERSON') recentPeople.push(keys[i]!)
          })
          // A conversation's speaker is no main person: its turns are about other people.
          if (!conversing(lastPerson)) mainPerson ??= lastPerson
          // Not the country of "the U.S. state of Connecticut": the division is what the text is about.
          mainTopic ??=
            keys.find(
              (_, i) =>
                (mentions[i]!.label !== 'CONCEPT' || isProperPhrase(mentions[i]!.name)) &&
                !DIVISION_AFTER.test(sentence.slice(mentions[i]!.end)),
            ) ?? null

          const date = dates[0]
          if (verb !== null && subjectKey !== null) {
            // What the subject does to itself is no event: "Albert Einstein admired her; Einstein later
            // wrote ..." made "Albert Einstein admired Albert Einstein".
            const head = relativeClauseVerb(sentence, passage.text, terms, base, verb) ?? verb
            const predicate = withAdjectiveComplement(passage.text, terms, base, head)
            // "am" agrees only with "I", and the event names the speaker: "Caroline is so proud of kids".
            // The speaker is one person, whether "I" or "we": "Gina has been Paris", "Gina was there".
            const predicateText = verbName(predicate).replace(
              subjectKey === speakerKey ? SPEAKER_AGREEMENT : /^am\b/,
              (verb) => SINGULAR[verb.toLowerCase()]!,
            )
            const after = mentionsAfter(mentions, keys, predicate.end, subjectKey).filter(
              ({ m }) => speakerKey === null || !isVocative(m, sentence),
            )
            // A passive verb's agent is what it relates ("Don Quixote was written in Spanish by Cervantes").
            const agent =
              predicate === head &&
              (PASSIVE.test(verbName(head)) || reducedPassive(sentence, head, terms, base))
                ? passiveAgent(after, sentence, head.end, terms, base)
                : undefined
            const coordinated = coordinatedVerbAt(sentence, predicate, terms, base)
            // A verb inside a parenthesis (`verbOutsideAsides`) relates what the parenthesis names.
            const clause = Math.min(
              clauseEnd(sentence, predicate.end),
              coordinated.end,
              inParenthesis(sentence, head) ? closing(sentence, predicate.end) : sentence.length,
            )
            // A personal pronoun right after a verb whose clause names nothing is its object: the person
            // it refers to ("Albert Einstein admired her; Einstein later wrote about her character" made
            // "Albert Einstein admired character", from past the clause).
            const pronoun =
              agent === undefined && !after.some(({ m }) => m.start < clause)
                ? objectPronoun(sentence.slice(predicate.end))
                : null
            const referent = pronoun === null ? null : pronounReferent(pronoun)
            // After a bare copula and "a" or "an", a nationality is what the sentence says the subject is
            // ("Alfred Geist Zantzinger was an American documentary filmmaker specializing in
            // documentaries" made "... was documentaries"), named with its noun (`nationalityPhrase`).
            const nextTo = adjacentTo(sentence, predicate.end)
            const adjacent = (m: Mention) =>
              nextTo(m) ||
              (BARE_COPULA.test(predicateText) &&
                /^\s+an?\s+$/i.test(sentence.slice(predicate.end, m.start)) &&
                demonymEnding(terms, base, m) >= 0)
            // A negative pro-form right after the verb is its object and names nothing: the verb relates
            // nothing ("Caroline: I have nothing to do today, none of my friends are there" is no "Caroline
            // has friends").
            const found =
              agent ??
              (NEGATIVE_OBJECT.test(sentence.slice(predicate.end))
                ? undefined
                : objectOf(after, clause, adjacent, sentence))
            const object =
              referent !== null && referent !== subjectKey && entities.has(referent)
                ? { key: referent, name: entities.get(referent)!.name, m: null }
                : found && {
                    key: keys[found.i]!,
                    name: nationalityPhrase(passage.text, terms, base, found.m),
                    m: found.m,
                  }
            const placesAfter = after.filter(({ m }) => m.label === 'PLACE' && m !== object?.m)
            // "Sarah's wedding is on June 3", "My exam is next Tuesday": a copula whose complement is a
            // date and nothing else states when the subject happens, an event with that date as its
            // object; not a person's ("John was in 1990"), but what a person has ("Sarah's wedding").
            const dated =
              object === undefined &&
              agent === undefined &&
              subjectMention !== null &&
              SCHEDULING_COPULA.test(predicateText) &&
              (subjectMention.label !== 'PERSON' ||
                possessedPhrase(passage.text, terms, base, subjectMention) !== subjectMention.name)
                ? dateComplement(sentence, predicate.end, dates)
                : null
            if ((object !== undefined || dated !== null) && /[a-z]/.test(predicateText)) {
              const subject = entities.get(subjectKey)!
              // A possessor subject ("John's sister") names the event with the phrase it opens and takes
              // part in it rather than doing it.
              const subjectPhrase =
                subjectMention === null
                  ? subject.name
                  : possessedPhrase(passage.text, terms, base, subjectMention)
              const possessive = subjectMention !== null && subjectPhrase !== subjectMention.name
              const doers = possessive ? [] : partners.map((i) => keys[i]!)
              const subjectName = possessive
                ? subjectPhrase
                : listed([...doers.map((key) => entities.get(key)!.name), subject.name])
              // "unveiled it at the Steve Jobs Theater": the verb's object is a thing the pronoun stands
              // for, which no rule resolves; the name keeps the pronoun and the preposition, so the event
              // does not say that Tim Cook unveiled the theatre.
              const thing =
                agent === undefined && object !== undefined && object.m !== null
                  ? THING_PRONOUN_THEN.exec(sentence.slice(predicate.end, object.m.start))
                  : null
              // An origin keeps its preposition: "Kenji Sato joined from Rakuten", not "joined Rakuten".
              const lead =
                agent !== undefined
                  ? 'by '
                  : object !== undefined &&
                      object.m !== null &&
                      thing === null &&
                      isOrigin(sentence, object.m)
                    ? 'from '
                    : ''
              const objectName =
                object === undefined
                  ? dated!.written
                  : `${lead}${thing === null ? '' : `${oneLine(thing[1]!).toLowerCase()} `}${object.name}`
              // What a turn says of someone else is its speaker's account: "Caroline: Jen lives Denver",
              // as the turn reads. The speaker's name in the event also lets a question naming the speaker
              // find the turn through it (benchmarks/LOG.md, 2026-12-01).
              const attribution =
                speakerKey !== null && subjectKey !== speakerKey
                  ? `${entities.get(speakerKey)!.name}: `
                  : ''
              const eventKey = `EVENT:${passage.id}:${base}`
              entities.set(eventKey, {
                key: eventKey,
                name: `${attribution}${subjectName} ${predicateText} ${objectName}`,
                labels: ['EVENT'],
                description: sentence.trim(),
                properties: { verb: predicateText },
                happenedAt: dated?.at ?? (date ? isoDate(date) : statedYear(sentence)),
                polarity: polarityOf(sentence),
                passageIds: [passage.id],
              })
              // A leg of the event: what it targeted, where it occurred, who else took part.
              const addLeg = (objectKey: string, name: string) =>
                relationships.push({
                  subjectKey: eventKey,
                  objectKey,
                  name,
                  description: null,
                  eventKey,
                  passageIds: [passage.id],
                })
              // "John's sister moved to Boston": John took part; the verb is not his.
              if (possessive) addLeg(subjectKey, 'INVOLVED')
              else
                for (const doer of [...doers, subjectKey])
                  relationships.push({
                    subjectKey: doer,
                    objectKey: eventKey,
                    name: predicateName(predicateText),
                    description: sentence.trim(),
                    eventKey,
                    passageIds: [passage.id],
                  })
              if (object !== undefined) addLeg(object.key, 'TARGETED')
              for (const place of placesAfter) {
                addLeg(keys[place.i]!, 'OCCURRED_IN')
              }
              for (const written of writtenDates(dates, sentence))
                addLeg(entityKey(written, 'DATE', passage.id), 'OCCURRED_ON')
              // Every other named participant of the sentence, so the event joins what the sentence relates
              // (the co-occurrence baseline of document-level relation extraction; Yao et al., DocRED, ACL 2019).
              const legged: Set<string> = new Set<string>([
                subjectKey,
                ...doers,
                ...(object === undefined ? [] : [object.key]),
                ...placesAfter.map((p) => keys[p.i]!),
              ])
              mentions.forEach((m, i) => {
                const key = keys[i]!
                if (legged.has(key) || (m.label === 'CONCEPT' && !isProperPhrase(m.name))) return
                legged.add(key)
                addLeg(key, m.label === 'PLACE' ? 'OCCURRED_IN' : 'INVOLVED')
              })
              // "His father was ...", "... signed her": a third-person pronoun anywhere ties the event to
              // the main person too (the same centering preference as for a sentence opening with "He").
              // A sentence opening with "It" or a definite description ("It was released ...", "The band
              // toured ...") is about the first thing the text names, when that is no person: a text
              // about no person, or about a band, a company or a place that names people after it.
              const topics = [
                mainPerson !== null && POSSESSIVE_OR_PRONOUN.test(sentence) ? mainPerson : null,
                /^\s*(?:It|Its|The \p{Ll}+)\b/u.test(sentence) ? thingTopic() : null,
              ]
              for (const topic of topics)
                if (topic !== null && !legged.has(topic)) {
                  legged.add(topic)
                  addLeg(topic, 'INVOLVED')
                }
            }
            // "was born in New York City and graduated from Vassar College": each further verb of the
            // subject in the clause relates it to what that verb's own clause names, by an edge and no
            // event node (new nodes change the walk: "Edges, not event nodes", docs/local-extractor.md).
            // Named things at both ends, as the event's other legs: "Caroline supported way" and "sky
            // filled stars" were most of such edges in LoCoMo's turns.
            // A possessor subject ("John's sister") does none of it, as it does not do the event.
            let further =
              coordinated.end <= clauseEnd(sentence, predicate.end) ? coordinated.verb : -1
            const doing = entities.get(subjectKey)!
            if (
              further >= 0 &&
              ((doing.labels.includes('CONCEPT') && !isProperPhrase(doing.name)) ||
                (subjectMention !== null &&
                  possessedPhrase(passage.text, terms, base, subjectMention) !==
                    subjectMention.name))
            )
              further = -1
            while (further >= 0) {
              const group = firstVerb(passage.text, terms, base, further)
              if (group === null) break
              const next = coordinatedVerbAt(sentence, group, terms, base)
              const clauseOver = clauseEnd(sentence, group.end)
              const verbal = verbEdge(subjectKey, group, Math.min(clauseOver, next.end))
              if (verbal !== undefined && isNamed(verbal.target.m))
                for (const doer of [...partners.map((i) => keys[i]!), subjectKey])
                  edge(doer, predicateName(verbal.name), keys[verbal.target.i]!, sentence.trim())
              further = next.end <= clauseOver ? next.verb : -1
            }
          }

          // "Born in Warsaw, Marie Curie moved to Paris": a sentence whose opening clause names no subject
          // relates its main clause's subject (the last name before that clause's verb) to the first
          // thing named after the verb, by an edge and no event node, as place statements do below.
          const main =
            verb !== null && subjectKey === null && placeSubject < 0
              ? mainClauseVerb(passage.text, terms, base, verb)
              : null
          if (main !== null) {
            const opener = sentence.slice(0, main.start).lastIndexOf(',')
            const subject = mentions.findLastIndex(
              (m) =>
                m.start > opener &&
                m.end <= main.start &&
                m.label !== 'PLACE' &&
                !inParenthesis(sentence, m),
            )
            const verbal = verbEdge(keys[subject], main)
            if (subject >= 0 && verbal !== undefined)
              edge(
                keys[subject]!,
                predicateName(verbal.name),
                keys[verbal.target.i]!,
                sentence.trim(),
              )
          }

          // "Irène is the daughter of Pierre Curie, who discovered radium": a name that a relative clause
          // after a comma describes does what the clause says, by an edge and no event node, as the
          // subject's further verbs do (the sentence's event is Irène's).
          for (const { from, group } of relativeClauses(
            sentence,
            passage.text,
            terms,
            base,
            mentions,
          ))
            if (verb === null || group.start !== verb.start) {
              const verbal = verbEdge(keys[from], group)
              if (verbal === undefined || !isNamed(verbal.target.m)) continue
              edge(keys[from]!, predicateName(verbal.name), keys[verbal.target.i]!, sentence.trim())
            }

          // "Foots Creek is an unincorporated community in Jackson County, in ... Oregon": no event, the
          // place's relationships (place-statements.ts). No new node, so retrieval's walk is unchanged.
          if (verb !== null && placeSubject >= 0) {
            const statements = placeStatements(sentence, mentions, placeSubject, verb.end, isNamed)
            for (const s of statements) {
              if (keys[s.object] === keys[placeSubject]) continue
              edge(
                keys[placeSubject]!,
                s.located || !/[a-z]/.test(verbText) ? 'LOCATED_IN' : predicateName(verbText),
                keys[s.object]!,
                sentence.trim(),
              )
            }
            // The places it lies in, each in those after it that hold it (once: a chain of this
            // sentence may have said so).
            const located = statements.filter((s) => s.located).map((s) => s.object)
            const stated = (a: string, b: string) =>
              relationships
                .slice(sentenceEdges)
                .some((r) => r.subjectKey === a && r.objectKey === b && r.name === 'LOCATED_IN')
            for (const [inner, outer] of statedHierarchy(sentence, mentions, located))
              if (keys[inner] !== keys[outer] && !stated(keys[inner]!, keys[outer]!))
                locate(inner, outer)
          }

          const lower = sentence.toLowerCase()
          const focused = focus.length > 0 && focus.some((f) => lower.includes(f))
          const aboutKey = subjectKey ?? (focused ? (keys[0] ?? null) : null)
          if (aboutKey !== null && (entities.get(aboutKey)?.labels.includes('PERSON') || focused)) {
            observations.push({
              aboutKey,
              // A masked sentence keeps the blanks where its Markdown was: one space each.
              text: (masked ? sentence.replace(/ {2,}/g, ' ') : sentence).trim(),
              polarity: polarityOf(sentence),
              labels: focused ? ['FOCUS'] : [],
              passageIds: [passage.id],
            })
          }
        }
      }
      for (const r of read) {
        await pause()
        relateSentence(r)
      }
      // A nationality is the node of its country where the text names that country too ("Norwegian" and
      // "Norway" one node, `nationalityCountries`), its name an alias.
      mergeEntities(
        { relationships, observations },
        entities,
        nationalityCountries([...entities.values()].filter((e) => e.labels.includes('PLACE'))),
      )
      // A place lies in the country and the region the gazetteer puts it in, where the text names them
      // too ("Detroit" and "the United States", `gazetteer.ts`), and an organisation in such a place its
      // name holds ("University of Alberta" and "Alberta").
      const linked = new Set(
        relationships.flatMap((r) => [
          `${r.subjectKey} ${r.objectKey}`,
          `${r.objectKey} ${r.subjectKey}`,
        ]),
      )
      const placeEntities = [...entities.values()].filter((e) => e.labels.includes('PLACE'))
      const organizationEntities = [...entities.values()].filter((e) =>
        e.labels.includes('ORGANIZATION'),
      )
      const related = (a: string, b: string) => linked.has(`${a} ${b}`)
      for (const e of [
        ...containedPlaces(placeEntities, related),
        ...organizationsInPlaces(organizationEntities, placeEntities, related),
      ])
        relationships.push({ ...e, name: 'LOCATED_IN', description: null })
      // A text about a place puts the other places it names where that place lies ("Westmere is a hamlet
      // in ..., New York" and "Crossgates Mall"), its outermost container (`placesInScope`).
      const located = relationships.filter((r) => r.name === 'LOCATED_IN' && !r.eventKey)
      const opening = input.passages[0]?.text ?? ''
      for (const e of placesInScope(opening, placeEntities, located, related)) {
        const edge = { ...e, name: 'LOCATED_IN', description: null }
        relationships.push(edge)
        located.push(edge)
      }
      // A place lies in the containers of its containers ("Stockton, California" and "California, United
      // States"), as far as a ranked container (`place-closure.ts`).
      for (const e of locatedThrough(located, (key) => placeRank(entities.get(key)!.name)))
        relationships.push({
          ...e,
          passageIds: [...e.passageIds],
          name: 'LOCATED_IN',
          description: null,
        })
      // An abbreviation the text defined is another name of what it stands for: "ELAM" in a question finds
      // the Escuela Latinoamericana de Medicina, and so does a later text that writes only it.
      for (const [short, long] of abbreviations) {
        const entity = entities.get(keyOf(long.name, long.label))
        if (entity === undefined || normalizeEntityName(short) === normalizeEntityName(entity.name))
          continue
        // Each abbreviation is a key of the map once, so it is added once.
        entity.aliases = [...(entity.aliases ?? []), short]
      }
      return { entities: [...entities.values()], relationships, observations }
    },
  }
}
