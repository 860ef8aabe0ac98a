/**
 * Gender agreement for the subject pronouns the local extractor resolves ("He", "she"): a pronoun refers only
 * to a person whose gender, when the text shows one, is the pronoun's. The agreement constraint of rule-based
 * pronoun resolution (Lee et al., "Deterministic coreference resolution based on entity-centric,
 * precision-ranked rules", Computational Linguistics 39(4), 2013, the pronominal sieve: number, gender,
 * person and animacy must agree); of its attributes only gender is read here, from a given name the tagger
 * knows as male or female (compromise's `MaleName` / `FemaleName`) or a gendered title before the name. A
 * person with neither stays compatible with both pronouns, as before.
 */

export type Gender = 'male' | 'female'

const MALE_TITLES = new Set([
  'mr',
  'sir',
  'lord',
  'king',
  'prince',
  'duke',
  'baron',
  'emperor',
  'father',
  'brother',
  'pope',
])
const FEMALE_TITLES = new Set([
  'mrs',
  'ms',
  'miss',
  'lady',
  'dame',
  'queen',
  'princess',
  'duchess',
  'baroness',
  'empress',
  'sister',
  'madam',
  'madame',
])

const titleGender = (word: string | undefined): Gender | null => {
  const title = word?.toLowerCase().replace(/\.$/, '')
  if (title === undefined) return null
  return MALE_TITLES.has(title) ? 'male' : FEMALE_TITLES.has(title) ? 'female' : null
}

/**
 * The gender of one mention from its words (text and tags, as the tagger gave them): a given name's
 * tag first, else a title opening the mention ("Mrs. Green") or just before it.
 */
export function mentionGender(
  words: readonly { readonly text: string; readonly tags: readonly string[] }[],
  before: string,
): Gender | null {
  for (const { tags } of words) {
    if (tags.includes('MaleName')) return 'male'
    if (tags.includes('FemaleName')) return 'female'
  }
  return titleGender(words[0]?.text) ?? titleGender(/\b(\p{L}+)\.?\s*$/u.exec(before)?.[1])
}

const PRONOUN_GENDER: Record<string, Gender> = { he: 'male', she: 'female' }

/** The gender of a subject pronoun ("He" -> male); null for one with none ("they", "I"). */
export const pronounGender = (word: string): Gender | null =>
  PRONOUN_GENDER[word.toLowerCase()] ?? null

/** What one text shows of its people's genders, by person key. */
export class PersonGenders {
  /** null: the text shows both (two people under one key, or a tagger's error): no constraint. */
  private readonly known = new Map<string, Gender | null>()

  note(key: string, gender: Gender | null): void {
    if (gender === null) return
    const seen = this.known.get(key)
    if (seen === undefined) this.known.set(key, gender)
    else if (seen !== gender) this.known.set(key, null)
  }

  /** Whether a pronoun of `gender` may refer to `key`: yes unless the person's known gender differs. */
  agrees(key: string, gender: Gender | null): boolean {
    const seen = this.known.get(key)
    return gender === null || seen === undefined || seen === null || seen === gender
  }
}
