/**
 * The four points of the compass and their adjectives, and "central", in small letters, as a
 * regular-expression source: what opens a country's nationality ("South Korean", "Northern Irish",
 * "Central African"). The intercardinal points name regions, not countries ("Southeast Asian").
 */
export const CARDINAL_WORDS = '(?:north|south|east|west)(?:ern)?|central'

/**
 * Every compass word: the cardinal ones and the intercardinal ones, written as one word or hyphenated
 * ("northeast", "north-eastern"). What names a place's region ("northern England") or opens the place
 * after "in" ("in northern Poland").
 */
export const COMPASS_WORDS = `${CARDINAL_WORDS}|(?:north|south)-?(?:east|west)(?:ern)?`

/**
 * Interjections that are nothing else (no "Great", "Nice"): the ones a greeting before a name is made of
 * (`LEADING_GREETING`; not "hello": "Hello Kitty"). Longer forms before their prefixes ("okay" before
 * "ok").
 */
const PURE_INTERJECTIONS = [
  'thanks',
  'thank you',
  'thx',
  'congrats',
  'congratulations',
  'hey',
  'hi',
  'yo',
  'wow',
  'woah',
  'whoa',
  'woohoo',
  'yay',
  'aww',
  'aw',
  'oh',
  'yeah',
  'yep',
  'yes',
  'okay',
  'ok',
  'sorry',
]

/**
 * Interjections and formulaic replies, which compromise tags in chat as nouns or proper nouns ("Thanks!",
 * "Cool", "Great" as the capitalised part of "Great job!"): the Penn Treebank's UH class (Santorini,
 * "Part-of-Speech Tagging Guidelines for the Penn Treebank Project", 1990, section 5.37) as conversations
 * use it. Lower case; a phrase is matched whole. Several are also adjectives or names ("Nice", "Great
 * Britain"), so one is left out only where it opens an utterance (`opensUtterance`).
 *
 * Indefinite pronouns, quantifiers and deictics ("all", "others", "lots", "here", "there") are just as
 * empty as names, but leaving them out lowered LoCoMo dev's default R@5 (0.6100 -> 0.6061; see
 * benchmarks/LOG.md, 2026-11-30), so they stay until that is understood.
 */
export const INTERJECTIONS: ReadonlySet<string> = new Set([
  ...PURE_INTERJECTIONS,
  // Formulaic replies that are also adjectives, adverbs or names, and other interjections.
  'cool',
  'awesome',
  'nice',
  'great',
  'good',
  'glad',
  'sure',
  'definitely',
  'absolutely',
  'totally',
  'anytime',
  'nope',
  'hello',
  'bye',
  'goodbye',
  'haha',
  'lol',
  'omg',
  'please',
  'cheers',
  'oops',
  'hmm',
  // Chat's abbreviated discourse markers ("FYI, I joined ...": the speaker's "I" is the subject).
  'fyi',
  'btw',
  'imo',
  'imho',
  'tbh',
  'idk',
  'brb',
  'ttyl',
  'afaik',
])

/**
 * A greeting, thanks or exclamation before a name ("Thanks Nate", "Hey Mel", "Woah Joanna"): compromise
 * joins it to the name it addresses. Only words that are nothing but interjections (no "Great", "Nice"),
 * followed by a capitalised word. The match is what to cut.
 */
export const LEADING_GREETING = new RegExp(
  `^(?:${PURE_INTERJECTIONS.join('|')})\\b[,!]?\\s+(?=\\p{Lu})`,
  'iu',
)

/** A speaker's label opening a conversation turn ("Caroline:", "Dr. Lee:"); group 1 is the label. */
export const SPEAKER = /^\s*((?:\p{Lu}[\p{L}'.-]*\s+){0,2}\p{Lu}[\p{L}'.-]*):\s+/u

/**
 * Whether `before`, the text of a sentence up to a word, holds no content: nothing but a speaker's label,
 * punctuation and other interjections ("Caroline: Thanks", "Oh, cool"). An interjection is a reply, so it
 * opens what is said; "Nice" after "moved to" is the city.
 */
export function opensUtterance(before: string): boolean {
  const rest = before.replace(SPEAKER, '')
  for (const word of rest.match(/[\p{L}\p{N}'’]+/gu) ?? [])
    if (!INTERJECTIONS.has(word.toLowerCase())) return false
  return true
}

/**
 * Adjectives and nouns of religions and their denominations, capitalised: a word of no person's name
 * ("the Roman Catholic, Eastern Orthodox, and Anglican churches"; "Roman" is a given name). Not those that
 * are names too: "Christian" (Christian Bale), "Baptist" (Johann Baptist), "Shia", "Jain".
 */
export const RELIGION_WORDS: ReadonlySet<string> = new Set(
  (
    'Catholic Catholics Orthodox Anglican Anglicans Protestant Protestants Lutheran Lutherans Methodist ' +
    'Methodists Presbyterian Presbyterians Episcopal Episcopalian Episcopalians Pentecostal Evangelical ' +
    'Calvinist Calvinists Mormon Mormons Quaker Quakers Jewish Muslim Muslims Islamic Hindu Hindus ' +
    'Buddhist Buddhists Sikh Sikhs Sunni Sunnis Shiite Shiites Zoroastrian'
  ).split(' '),
)
