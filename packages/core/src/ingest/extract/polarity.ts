import type { Polarity } from '../../model/common.js'

/**
 * A small polarity lexicon: a hand-picked subset of the opinion lexicon of Hu & Liu ("Mining and
 * summarizing customer reviews", KDD 2004). Negation flips the next opinion word.
 */
const POSITIVE = new Set([
  'love',
  'loved',
  'loves',
  'like',
  'liked',
  'likes',
  'enjoy',
  'enjoyed',
  'enjoys',
  'great',
  'happy',
  'excellent',
  'good',
  'wonderful',
  'amazing',
  'proud',
  'won',
  'win',
  'achieved',
  'succeeded',
  'success',
  'glad',
  'excited',
  'thrilled',
  'grateful',
  'fantastic',
  'awesome',
  'helpful',
  'best',
])
const NEGATIVE = new Set([
  'hate',
  'hated',
  'hates',
  'dislike',
  'disliked',
  'sad',
  'failed',
  'fail',
  'lost',
  'problem',
  'angry',
  'worried',
  'upset',
  'terrible',
  'awful',
  'bad',
  'worst',
  'broke',
  'broken',
  'sick',
  'afraid',
  'scared',
  'lonely',
  'stressed',
  'difficult',
  'hard',
  'painful',
  'disappointed',
])
const NEGATORS = new Set(['not', 'no', 'never', "n't", 'hardly'])

export function polarityOf(sentence: string): Polarity {
  let score = 0
  let negate = false
  for (const raw of sentence.toLowerCase().split(/[^a-z']+/)) {
    const word = raw.endsWith("n't") ? "n't" : raw
    if (NEGATORS.has(word)) {
      negate = true
      continue
    }
    const value = POSITIVE.has(word) ? 1 : NEGATIVE.has(word) ? -1 : 0
    if (value !== 0) {
      score += negate ? -value : value
      negate = false
    }
  }
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral'
}
