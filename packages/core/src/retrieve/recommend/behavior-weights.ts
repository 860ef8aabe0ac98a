import type { GraphIndex } from '../../indexes/graph/graph-index.js'

/**
 * Default weight per behaviour. The original's code and docs disagree (original-notes.md section A.7);
 * the docs are the contract: view and click 0.2, cart 0.5, purchase 1.0, favorite and wishlist 0.7,
 * follow 0.5, and 0.2 for anything else.
 */
export const DEFAULT_BEHAVIOR_WEIGHTS: Readonly<Record<string, number>> = {
  view: 0.2,
  click: 0.2,
  cart: 0.5,
  purchase: 1.0,
  favorite: 0.7,
  wishlist: 0.7,
  follow: 0.5,
}
export const UNKNOWN_BEHAVIOR_WEIGHT = 0.2

const ALIASES: Readonly<Record<string, string>> = {
  views: 'view',
  viewed: 'view',
  viewing: 'view',
  visit: 'view',
  visited: 'view',
  pageview: 'view',
  clicks: 'click',
  clicked: 'click',
  tap: 'click',
  tapped: 'click',
  addtocart: 'cart',
  addedtocart: 'cart',
  carted: 'cart',
  basket: 'cart',
  addtobasket: 'cart',
  purchases: 'purchase',
  purchased: 'purchase',
  buy: 'purchase',
  buys: 'purchase',
  bought: 'purchase',
  order: 'purchase',
  ordered: 'purchase',
  checkout: 'purchase',
  favourite: 'favorite',
  favorites: 'favorite',
  favourites: 'favorite',
  favorited: 'favorite',
  favourited: 'favorite',
  fav: 'favorite',
  like: 'favorite',
  likes: 'favorite',
  liked: 'favorite',
  wishlists: 'wishlist',
  wishlisted: 'wishlist',
  follows: 'follow',
  followed: 'follow',
  subscribe: 'follow',
  subscribed: 'follow',
}

/** Canonical behaviour name: case, spaces, `-` and `_` ignored, aliases folded (`Add_To-Cart` -> `cart`). */
export function normalizeBehavior(raw: string): string {
  const key = raw.toLowerCase().replace(/[\s_-]+/g, '')
  return ALIASES[key] ?? key
}

export interface BehaviorWeightOptions {
  /** The request's `behavior_weights`: names are normalised like behaviours, and win over defaults. */
  overrides?: Readonly<Record<string, number>>
  /** Half-life of an interaction's weight in days; absent: no decay. */
  halfLifeDays?: number | null
  /** The clock the decay is measured from, ms. */
  now: number
}

/** Weights of interactions along graph steps, for one request. */
export interface BehaviorWeights {
  /** Behaviour weight of a step: `first` edge, through `event` (-1: none) the `second` leg (-1: none). */
  behavior(first: number, second: number, event: number): number
  /** 0.5^(age_days / half-life) of a time in ms; 1 without a half-life or a date, or in the future. */
  decay(time: number): number
  /** behaviour x decay of a step, dated by its first edge (or the event it reaches). */
  of(first: number, second: number, event: number): number
}

/**
 * Behaviour weights with aliases and a recency half-life (exponential decay, as in time-decayed
 * collaborative filtering: Ding & Li, "Time weight collaborative filtering", CIKM 2005). A step's
 * behaviour is the first known name among the event's behaviour properties, its name, its labels and
 * then the step's predicates, each tried whole and word by word (`Alice purchased a laptop` ->
 * `purchase`); unknown behaviours weigh {@link UNKNOWN_BEHAVIOR_WEIGHT}.
 */
export function behaviorWeights(
  graph: GraphIndex,
  options: BehaviorWeightOptions,
): BehaviorWeights {
  const table = new Map<string, number>(Object.entries(DEFAULT_BEHAVIOR_WEIGHTS))
  for (const [name, weight] of Object.entries(options.overrides ?? {}))
    if (Number.isFinite(weight)) table.set(normalizeBehavior(name), weight)
  const known = (raw: string): number | undefined => {
    const whole = table.get(normalizeBehavior(raw))
    if (whole !== undefined) return whole
    for (const word of raw.split(/[^\p{L}\p{N}]+/u)) {
      if (word.length === 0) continue
      const w = table.get(normalizeBehavior(word))
      if (w !== undefined) return w
    }
    return undefined
  }
  // Arrays by interned id, not maps: a walk asks once per path, hundreds of thousands of times.
  const byKinds: number[] = []
  const byPredicate: number[] = []
  const predicateWeight = (e: number) => {
    const id = graph.predicateId[e]!
    let w = byPredicate[id]
    if (w === undefined) byPredicate[id] = w = known(graph.predicate[e]!) ?? Number.NaN
    return w
  }
  const behavior = (first: number, second: number, event: number): number => {
    if (event >= 0) {
      const kinds = graph.kindSetId[event]!
      let w = byKinds[kinds]
      if (w === undefined) {
        w = Number.NaN
        for (const kind of graph.kindSets[kinds]!) {
          const k = known(kind)
          if (k !== undefined) {
            w = k
            break
          }
        }
        byKinds[kinds] = w
      }
      if (!Number.isNaN(w)) return w
    }
    const w = predicateWeight(first)
    if (!Number.isNaN(w)) return w
    const v = second >= 0 ? predicateWeight(second) : Number.NaN
    return Number.isNaN(v) ? UNKNOWN_BEHAVIOR_WEIGHT : v
  }
  const halfLife = options.halfLifeDays ?? null
  const decay = (time: number): number => {
    if (halfLife === null || halfLife <= 0 || Number.isNaN(time)) return 1
    const days = Math.max(0, (options.now - time) / 86_400_000)
    return 0.5 ** (days / halfLife)
  }
  const undecayed = halfLife === null || halfLife <= 0
  return {
    behavior,
    decay,
    of: (first, second, event) =>
      undecayed
        ? behavior(first, second, event)
        : behavior(first, second, event) * decay(graph.timeOfEdge(first)),
  }
}
