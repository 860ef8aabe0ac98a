/**
 * In-document coreference of person names: a later surname, first name or nickname stands for the
 * full name it is part of ("Schneider", "Willi" -> "Wilfried Schneider"), when exactly one full
 * name of the text contains it (the first named, when several do). The name-matching rule of
 * rule-based coreference (the exact and relaxed string-match sieves of Lee et al., "Deterministic
 * coreference resolution based on entity-centric, precision-ranked rules", Computational
 * Linguistics 39(4), 2013), restricted to person names, with titles stripped; and, by that paper's
 * head-match sieve, an organisation's kind word alone ("the Council") for the last organisation the
 * text named with it, and a team's nickname ("the Royals") for its full name (`OrganizationNames`).
 */

import { isFirstName, leadingWordKind } from './proper-name-type.js'

/**
 * Titles, ranks and offices written before a person's name ("Dr.", "Vice Admiral", "Gov", "Doge"), one
 * after another; a rank joined to the next by a hyphen too ("Lieutenant-General"). No noble title: some
 * are given or stage names ("Duke Ellington", "Count Basie", "Earl Scruggs"), and a peer is named by the
 * title ("Viscount Alanbrooke").
 */
const TITLE_WORDS =
  'mr|mrs|ms|miss|mx|dr|prof|professor|sir|dame|lord|lady|rev|reverend|fr|father|sister|brother|gen|general|col|colonel|capt|captain|lt|lieutenant|sgt|sergeant|major|brigadier|corporal|president|senator|sen|rep|gov|judge|justice|king|queen|prince|princess|saint|st|admiral|vice|rear|marshal|field|commander|bishop|archbishop|cardinal|rabbi|imam|sheikh|pope|emperor|chancellor|minister|governor|mayor|ambassador|commissioner|detective|inspector|sheriff|doge|democrat|republican|senior|chief|ceo|cfo|cto|coo|cio|vp|svp|evp'
const TITLES = new RegExp(
  `^(?:${TITLE_WORDS})(?:\\.?\\s+|\\s*-\\s*(?=(?:general|admiral|marshal|colonel|commander)\\b))`,
  'i',
)

/** Noble titles, which `TITLES` leaves on a name (`stripTitles`). */
const NOBLE_TITLE =
  /^(?:Count|Countess|Duke|Duchess|Earl|Baron|Baroness|Marquess|Marquis|Marchioness|Viscount|Viscountess)$/

/**
 * Role nouns of people: "guitarist", "actor", "wife", and offices ("minister", "bishop"). A role noun
 * right before a name marks a person (`person-cues.ts`); capitalised at the head of a name ("Guitarist
 * Jimmy Page", "Advisor James L. Jones") it is no part of the name.
 */
const ROLE_WORDS =
  'singer|actor|actress|director|producer|writer|author|player|drummer|composer|painter|footballer|' +
  'cricketer|manager|founder|leader|rapper|dancer|designer|photographer|sculptor|architect|novelist|' +
  'journalist|wife|husband|son|daughter|brother|sister|father|mother|uncle|aunt|cousin|poet|coach|' +
  'minister|president|premier|dictator|governor|senator|mayor|chancellor|ambassador|emperor|empress|' +
  'chairman|chairwoman|secretary|bishop|archbishop|priest|monk|nun|professor|teacher|lawyer|judge|' +
  'physician|officer|commander|captain|lieutenant|sergeant|colonel|advisor|adviser|detective|' +
  'spokesman|spokeswoman|spokesperson|engineer|programmer|developer|researcher|executive|entrepreneur|' +
  'investor|inventor|consultant'
export const PERSON_ROLE = `(?:\\p{Ll}+(?:ist|ian)|${ROLE_WORDS})`

/**
 * The role nouns a name may open with. Of the "-ian" nouns only the roles: "Christian", "Cyprian" and
 * "Lucian" are given names the lexicon does not know.
 */
const LEADING_ROLE = new RegExp(
  `^(?:\\p{Ll}+ist|(?:music|politic|histor|comed|mathematic|magic|technic|theolog|librar)ian|${ROLE_WORDS})$`,
  'u',
)

/** Dashes (and spaces) before a name: "- General ..." of "Lieutenant - General" split at its hyphen. */
export const LEADING_DASHES = /^[\s\-\u2010-\u2015]+/u

const allCapitalised = (words: readonly string[]) => words.every((w) => /^\p{Lu}/u.test(w))

/**
 * A person name without leading titles ("Dr. Marie Curie" -> "Marie Curie", "Lieutenant-General Sir
 * George Prévost" -> "George Prévost") or a role noun capitalised before two name words ("Guitarist Jimmy
 * Page" -> "Jimmy Page"; not a given name ending like one: "Christian Bale", "Brian May").
 */
export function stripTitles(name: string): string {
  let out = name
  for (
    let next = out.replace(TITLES, '');
    next !== out && next.length > 0;
    next = out.replace(TITLES, '')
  )
    out = next
  const [first, ...rest] = out.split(/\s+/)
  // A noble title before a given name and a surname is a title: "Count Johan Oxenstierna", "Baron Pierre
  // de Coubertin" (one name after it may be the name itself: "Count Basie").
  if (rest.length >= 2 && NOBLE_TITLE.test(first!) && isFirstName(rest[0]!)) return rest.join(' ')
  if (
    rest.length >= 2 &&
    LEADING_ROLE.test(first!.toLowerCase()) &&
    !isFirstName(first!) &&
    allCapitalised(rest)
  )
    return rest.join(' ')
  return out
}

/**
 * The name of a mention the tagger typed a person, without its titles (`stripTitles`), a dash left
 * before it, and a sentence's first word read into it that the lexicon knows as no part of a name: a
 * function word before a surname ("During Johnson"), a demonym before two name words ("Irishman Tadhg
 * Kennelly"). Only for names already typed: `personByCue` reads a stripped title as a person's cue, and
 * these are none ("Best Supporting Actress" would be a person).
 */
export function personName(name: string): string {
  // "Sir or Dame - Bill Gates": the title read, a dash is left.
  const titled = stripTitles(name)
  const out = withoutTrailingNouns(titled.replace(LEADING_DASHES, '') || titled)
  const [first, ...rest] = out.split(/\s+/)
  if (rest.length === 0 || isFirstName(first!) || !allCapitalised(rest)) return out
  const kind = leadingWordKind(first!)
  return kind === 'function' || (kind === 'demonym' && rest.length >= 2) ? rest.join(' ') : out
}

/** A role noun or a title in small letters, as a name's last word ("rear admiral", "chief designer"). */
const ROLE_OR_TITLE = new RegExp(`^(?:${PERSON_ROLE}|${TITLE_WORDS})$`, 'iu')

/**
 * A person's name without the common nouns in small letters the tagger read into it after the name:
 * "Obama administration", "Osama bin Laden raid", "Rockefeller brothers" name Obama, Osama bin Laden and
 * the Rockefellers. Not after a role or a title, where the phrase names the role ("Navy rear admiral",
 * which `properNameType` makes a concept).
 */
function withoutTrailingNouns(name: string): string {
  const words = name.split(/\s+/)
  if (ROLE_OR_TITLE.test(words.at(-1)!)) return name
  let end = words.length
  while (end > 1 && /^\p{Ll}/u.test(words[end - 1]!)) end--
  return end === words.length ? name : words.slice(0, end).join(' ')
}

/** `First "Nick" Last` in running text: the full name `First Last` and its nickname. */
export const NICKNAME =
  /(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*)\s+["“]\s*(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*)\s*["”]\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/gu

const words = (name: string) => name.toLowerCase().split(/\s+/)

/** Full names of a text's people, and the shorter names each stands for. */
export class PersonNames {
  /** Lower-cased short form -> the first full name recorded that contains it. */
  private readonly short = new Map<string, string>()
  private readonly full = new Set<string>()

  /** Records a full name (two words or more after titles) and every run of its words. */
  addFullName(name: string, nicknames: readonly string[] = []): void {
    const clean = stripTitles(name)
    const w = words(clean)
    if (w.length < 2 || this.full.has(clean)) return
    this.full.add(clean)
    const forms = new Set(nicknames.map((n) => n.toLowerCase()))
    for (let i = 0; i < w.length; i++)
      for (let j = i + 1; j <= w.length; j++)
        if (j - i < w.length) forms.add(w.slice(i, j).join(' '))
    // Two full names sharing a surname ("Ross Alger", his brother "Harry Alger"): the bare surname goes to
    // the first one named, the topic of the text ("Alger died in 1992").
    for (const form of forms) if (!this.short.has(form)) this.short.set(form, clean)
  }

  /** The full name a name stands for, or null (part of no full name of the text). */
  fullNameOf(name: string): string | null {
    const clean = stripTitles(name)
    if (this.full.has(clean)) return clean
    return this.short.get(clean.toLowerCase()) ?? null
  }
}

/**
 * An organisation named by its kind word alone after its full name ("Calgary City Council ... the Council
 * voted"): that name, as a later surname is the person's (`PersonNames`). The last organisation the text
 * named with that last word, in text order; a kind word no earlier name ends with stays itself.
 */
export class OrganizationNames {
  readonly #byHead = new Map<string, string>()

  /**
   * `isHead`: whether a word is an organisation's kind word (`isOrganizationHead`; given, not imported,
   * so that this module loads no tagger: the extraction pool's merge reads `PersonNames` on the main
   * thread).
   */
  constructor(private readonly isHead: (word: string) => boolean) {}

  readonly #byNickname = new Map<string, string>()

  /**
   * Records a team's name (`isTeamName`: "Kansas City Royals"), whose plural alone ("the Royals") names it
   * later in the text; the first team named with it keeps it.
   */
  addTeam(name: string): void {
    const nickname = name.split(/\s+/).at(-1)!
    if (!this.#byNickname.has(nickname)) this.#byNickname.set(nickname, name)
  }

  /** The team a one-word name is the nickname of, as written ("Royals"), or null. */
  teamOf(name: string): string | null {
    return this.#byNickname.get(name) ?? null
  }

  /** The full name `name` refers to; records `name` when it is a full name itself. */
  fullNameOf(name: string): string {
    const parts = words(name)
    const head = parts.at(-1)!
    if (parts.length > 1) {
      this.#byHead.set(head, name)
      return name
    }
    return this.isHead(head) ? (this.#byHead.get(head) ?? name) : name
  }
}
