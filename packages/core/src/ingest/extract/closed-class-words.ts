/**
 * Interjections and formulaic replies, never a name or a concept on their own whatever compromise tags
 * them in chat ("Thanks!" as a proper noun, "Cool" as a noun, "Great" as the capitalised part of "Great
 * job!"): the Penn Treebank's UH class (Santorini, "Part-of-Speech Tagging Guidelines for the Penn
 * Treebank Project", 1990, section 5.37) as conversations use it. Lower case; a phrase is matched whole.
 *
 * Indefinite pronouns, quantifiers and deictics ("all", "others", "lots", "here", "there") are just as
 * empty as names, but leaving them out lowered LoCoMo dev's default R@5 (0.6100 -> 0.6061; see
 * benchmarks/LOG.md, 2026-11-30), so they stay until that is understood.
 */
export const INTERJECTIONS: ReadonlySet<string> = new Set([
  // Interjections and formulaic replies.
  'thanks',
  'thank you',
  'thx',
  'congrats',
  'congratulations',
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
  'wow',
  'whoa',
  'yay',
  'yeah',
  'yep',
  'yes',
  'nope',
  'ok',
  'okay',
  'hey',
  'hi',
  'hello',
  'bye',
  'goodbye',
  'oh',
  'aw',
  'aww',
  'haha',
  'lol',
  'omg',
  'sorry',
  'please',
  'cheers',
  'oops',
  'hmm',
])

/**
 * A greeting or thanks before a name ("Thanks Nate", "Hey Mel"): compromise joins it to the name it
 * addresses. The match is what to cut; a name must follow it.
 */
export const LEADING_GREETING =
  /^(?:thanks|thank you|thx|congrats|congratulations|hey|hi|yeah|yes|okay|ok|sorry|wow)\b[,!]?\s+(?=\S)/i
