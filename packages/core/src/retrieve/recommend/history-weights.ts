import type { Interaction } from './target-interactions.js'

/**
 * Half-life of the target's history in interactions: the newest counts 1, the one before it 1/2,
 * the one before that 1/4. Chosen among 1, 2, 3, 5, 10 and none on MovieLens validation folds that
 * never see the test ratings (`npm run bench -- --recsys-validation`, benchmarks/LOG.md 2026-11-26);
 * 1, 2 and 3 were within noise of each other, none (every interaction alike) far behind.
 */
export const HISTORY_HALF_LIFE = 1
/** Interactions further back than this many half-lives weigh under 0.1% each and are not walked. */
const HALF_LIVES_KEPT = 10

/**
 * Weights the target's history by recency rank: each interaction's behaviour x recency weight times
 * 0.5^(rank / half-life), where rank is the number of the target's interactions strictly newer than
 * it (ties share a rank; undated interactions rank after every dated one). The exponential position
 * decay of STAN (Garg, Gupta, Malhotra, Vig & Shroff, "Sequence and time aware neighborhood for
 * session-based recommendations", SIGIR 2019): what a user did last says most about what they do next.
 * Ranks, unlike `recency_half_life_days`, need no time scale, so one default fits a user who acts
 * every minute and one who acts every month. Interactions past {@link HALF_LIVES_KEPT} half-lives are
 * left out; a half-life of Infinity keeps every interaction at its own weight.
 */
export function historyWeights(
  history: ReadonlyMap<number, Interaction>,
  halfLife = HISTORY_HALF_LIFE,
): Map<number, number> {
  const time = (i: Interaction) => (Number.isNaN(i.time) ? -Infinity : i.time)
  const order = [...history].sort((a, b) => time(b[1]) - time(a[1]) || a[0] - b[0])
  const out = new Map<number, number>()
  let rank = 0
  for (let i = 0; i < order.length; i++) {
    const [node, interaction] = order[i]!
    if (i > 0 && time(order[i - 1]![1]) !== time(interaction)) rank = i
    if (rank > HALF_LIVES_KEPT * halfLife) break
    out.set(node, interaction.weight * 0.5 ** (rank / halfLife))
  }
  return out
}
