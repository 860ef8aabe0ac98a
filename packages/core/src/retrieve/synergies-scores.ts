import type { GraphIndex } from '../indexes/graph/graph-index.js'
import { EVENT_LABEL, VALUE_LABELS } from '../model/entity.js'
import { termCoverage } from './resolve-target.js'
import { keepTop, topContributors } from './synergies-contributors.js'
import { selectiveNameQuery } from './synergies-name-terms.js'
import { Signatures } from './synergies-signatures.js'
import { forEachStep, specificity } from './synergies-steps.js'
import { cosineOrNull } from '../vectors/cosine.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** Weight of a path through a seed of the target's own neighbourhood (the original's 1.30). */
export const DIRECT_MULTIPLIER = 1.3
/** Weight of a path through a seed found by similarity to a direct seed (the original's 0.70). */
export const REMOTE_MULTIPLIER = 0.7
/** Similar seeds looked up per direct seed, and the cosine they need (the original: top 10). */
const SIMILAR_PER_SEED = 10
const SIMILAR_MIN_COSINE = 0.5
/** Direct seeds whose similar nodes are looked up (the most specific ones, fewest edges). */
const REMOTE_FROM_SEEDS = 10
/** Edges read from the target, and from each seed (newest first): hubs stay cheap. */
const TARGET_EDGE_CAP = 1000
const SEED_EDGE_CAP = 3000
/** Path evaluations per request before the walk stops (seeds are visited most specific first). */
const PATH_BUDGET = 400_000
/** Seeds kept in `connectedBy` per candidate (strongest first). */
const MAX_CONNECTED_BY = 10

export interface SynergyScoreOptions {
  /** Candidate labels (any-match). Default: the target's own labels (the original's rule). */
  labels?: readonly string[]
  polarity?: 'same' | 'opposite'
  /** `do`: direct seeds only (no similar "remote" seeds). */
  directOnly?: boolean
  /** Look remote seeds up even with `directOnly`, to report them (`pa`). */
  findRemote?: boolean
  /** Candidates must also pass this (e.g. not the node a recommendation is for). */
  accept?: (node: number) => boolean
  /** Path evaluations before the walk stops (default 400,000); seeds go most specific first. */
  budget?: number
  /** Scores returned (the best); default all. */
  limit?: number
}

export interface SynergyScore {
  node: number
  score: number
  /** Seeds through which the candidate was reached, strongest contribution first. */
  connectedBy: number[]
}

export interface SynergyScores {
  /** Candidates best first (ties by uuid), cut to `limit` when given. */
  scores: SynergyScore[]
  /** Direct seeds: nodes the target shares an event or an edge with. */
  anchors: number[]
  /** Remote seeds: nodes similar to a direct seed (empty with `directOnly` unless `findRemote`). */
  potentialAnchors: number[]
}

/** `same`: not of the sign opposite to the target's (neutral matches anything); `opposite`: only that. */
export function polarityAccepts(
  mode: 'same' | 'opposite',
  target: string,
  candidate: string,
): boolean {
  const sign = (p: string) => (p === 'positive' ? 1 : p === 'negative' ? -1 : 0)
  const product = sign(target) * sign(candidate)
  return mode === 'same' ? product >= 0 : product < 0
}

/** Cosine of two unit-or-not vectors; null when a side is missing, zero or of another dimension. */
function cosineOfKnown(a: Float32Array | undefined, b: Float32Array | undefined): number | null {
  return a === undefined || b === undefined ? null : cosineOrNull(a, b)
}

function labelJaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a.filter((l) => l !== EVENT_LABEL))
  const sb = new Set(b.filter((l) => l !== EVENT_LABEL))
  let shared = 0
  for (const l of sb) if (sa.has(l)) shared++
  const union = sa.size + sb.size - shared
  return union === 0 ? 1 : shared / union
}

/**
 * Synergy association scores (after the original's algorithm, original-notes.md section A.7, with its
 * vector bug fixed and its merge made order-independent):
 *
 * 1. **Seeds.** Every node the target reaches in one step, directly or through an event to the far end
 *    of another leg of the same flow, is a direct seed; the path's relation signature is kept.
 *    Unless `directOnly`, nodes similar to the most specific direct seeds (entity-vector cosine >= 0.5,
 *    else a name match in the entities index) are remote seeds standing in for them.
 * 2. **Candidates.** Every non-event node a seed reaches the same way (and that carries one of the wanted
 *    labels and passes the polarity rule) gets, per path, `m * mean(tn, rel) * w(seed)`:
 *    - `tn`: how alike the candidate and the target are: cosine of their **entity vectors** (clipped at
 *      0), or without vectors the Jaccard overlap of their labels. The original compared an edge vector
 *      with the target vector and used that number for both `tn` and `rel`;
 *    - `rel`: how alike the candidate's relation to the seed is to the target's: the Jaccard overlap of
 *      the two paths' relation signatures (predicate terms and event kinds). Relationships carry no
 *      vectors in this engine, so relations are compared by their predicates;
 *    - `m`: 1.3 for a direct seed, 0.7 for a remote one (the original's multipliers);
 *    - `w(seed) = 1 / log2(2 + degree(seed))`: a shared hub is weak evidence (Adamic & Adar, "Friends and
 *      neighbors on the Web", Social Networks 2003; Liben-Nowell & Kleinberg, "The link-prediction
 *      problem for social networks", JASIST 2007).
 * 3. **Merge.** Contributions add up over paths (the Adamic-Adar sum), replacing the original's pairwise
 *    power mean, whose result depended on the order seeds were visited.
 *
 * Polarity `same` drops candidates of the sign opposite to the target's (neutral matches anything);
 * `opposite` keeps only those. Walks are capped (edges per node, paths per request) so hubs stay cheap.
 */
export async function synergyScores(
  deps: RetrieveDeps,
  graph: GraphIndex,
  target: number,
  options: SynergyScoreOptions = {},
): Promise<SynergyScores> {
  const wanted =
    options.labels !== undefined && options.labels.length > 0
      ? new Set(options.labels)
      : new Set(graph.labels[target]!.filter((l) => l !== EVENT_LABEL))
  const polarity = options.polarity ?? 'same'
  const accept = options.accept ?? (() => true)
  // A date two things share ("in 2023") is no association between them, nor a synergy of either, unless
  // dates are asked for (`labels`).
  const values = VALUE_LABELS.some((l) => wanted.has(l))
  // Each node is judged once per request; a map of the nodes reached, not an array the size of the
  // graph, so a request costs what its walk touches however large the brain is.
  const verdict = new Map<number, boolean>()
  const isCandidate = (n: number) => {
    let ok = verdict.get(n)
    if (ok === undefined) {
      ok =
        n !== target &&
        !graph.isEvent[n] &&
        (values || !graph.isValue(n)) &&
        graph.present[n]! &&
        (wanted.size === 0 || graph.labels[n]!.some((l) => wanted.has(l))) &&
        polarityAccepts(polarity, graph.polarity[target]!, graph.polarity[n]!) &&
        accept(n)
      verdict.set(n, ok)
    }
    return ok
  }

  // 1. Direct seeds, with the target's relation signatures to each.
  const signatures = new Signatures(graph)
  const seedSignatures = new Map<number, Set<number>>()
  forEachStep(graph, target, TARGET_EDGE_CAP, (seed, first, second, event) => {
    if (graph.isValue(seed)) return
    let set = seedSignatures.get(seed)
    if (set === undefined) seedSignatures.set(seed, (set = new Set()))
    set.add(signatures.of(first, second, event))
  })
  const anchors = [...seedSignatures.keys()].sort(
    (a, b) => graph.degree(a) - graph.degree(b) || a - b,
  )
  const seeds: { node: number; multiplier: number; signatures: number[] }[] = anchors.map(
    (node) => ({
      node,
      multiplier: DIRECT_MULTIPLIER,
      signatures: [...seedSignatures.get(node)!],
    }),
  )

  let potentialAnchors: number[] = []
  if (!options.directOnly || options.findRemote) {
    const remote = await similarSeeds(deps, graph, target, anchors)
    potentialAnchors = [...remote.keys()]
    if (!options.directOnly) {
      for (const [node, origin] of remote)
        seeds.push({
          node,
          multiplier: REMOTE_MULTIPLIER,
          signatures: [...seedSignatures.get(origin)!],
        })
    }
  }

  // 2. Candidates through each seed: per candidate, the sums of w and of w * rel over paths, and the
  //    seeds that contributed most (by w * (1 + rel), tn being the same for all of a candidate's paths).
  const sums = new Map<number, { w: number; wRel: number }>()
  const via = new Map<number, number[]>()
  let budget = options.budget ?? PATH_BUDGET
  for (const seed of seeds) {
    if (budget <= 0) break
    const w = seed.multiplier * specificity(graph, seed.node)
    const own = seed.signatures
    forEachStep(graph, seed.node, SEED_EDGE_CAP, (candidate, first, second, event) => {
      budget--
      if (!isCandidate(candidate)) return
      const sig = signatures.of(first, second, event)
      let rel = 0
      for (let i = 0; i < own.length; i++) {
        const r = signatures.similarity(own[i]!, sig)
        if (r > rel) rel = r
      }
      const sum = sums.get(candidate)
      if (sum === undefined) sums.set(candidate, { w, wRel: w * rel })
      else {
        sum.w += w
        sum.wRel += w * rel
      }
      keepTop(via, candidate, seed.node, w * (1 + rel), MAX_CONNECTED_BY)
    })
  }

  // 3. Merge: the sum over paths of w * (tn + rel) / 2.
  const tnOf = await nodeSimilarity(deps, graph, target, [...sums.keys()])
  const ranked: { node: number; score: number }[] = []
  for (const [node, sum] of sums) {
    const score = (tnOf(node) * sum.w + sum.wRel) / 2
    if (score > 0) ranked.push({ node, score })
  }
  ranked.sort((a, b) => b.score - a.score || (graph.uuid[a.node]! < graph.uuid[b.node]! ? -1 : 1))
  const scores = ranked
    .slice(0, options.limit ?? ranked.length)
    .map((r) => ({ ...r, connectedBy: topContributors(via.get(r.node)!) }))
  return { scores, anchors, potentialAnchors }
}

/**
 * Remote seeds: for the {@link REMOTE_FROM_SEEDS} most specific direct seeds, the nodes most like each
 * (entity-vector cosine >= 0.5 among the nearest {@link SIMILAR_PER_SEED}; without vectors, entities
 * whose name covers at least half of the seed name's terms, found by its words held by few names).
 * Maps each to the seed it stands in for.
 */
async function similarSeeds(
  deps: RetrieveDeps,
  graph: GraphIndex,
  target: number,
  anchors: number[],
): Promise<Map<number, number>> {
  const direct = new Set(anchors)
  const out = new Map<number, number>()
  const ok = (n: number | undefined): n is number =>
    n !== undefined && n !== target && !direct.has(n) && !out.has(n) && !graph.isEvent[n]
  const from = anchors.slice(0, REMOTE_FROM_SEEDS)
  const vectors =
    deps.vectors === null
      ? new Map<string, Float32Array>()
      : await deps.vectors.get(
          'entities',
          from.map((n) => graph.uuid[n]!),
        )
  for (const seed of from) {
    const vector = vectors.get(graph.uuid[seed]!)
    if (vector !== undefined && deps.vectors !== null) {
      const hits = await deps.vectors.search('entities', vector, SIMILAR_PER_SEED + 1)
      for (const hit of hits) {
        const n = graph.node(hit.id)
        if (hit.score >= SIMILAR_MIN_COSINE && ok(n)) out.set(n, seed)
      }
      continue
    }
    // Without vectors, names alike: the name's selective words only (`selectiveNameQuery`), so the
    // postings of words common to many names, which grow with the brain, are not read per seed.
    const name = graph.name[seed]!
    const query = selectiveNameQuery(deps.indexes.entities, name)
    if (query === '') continue
    for (const hit of deps.indexes.entities.search(query, SIMILAR_PER_SEED + 1)) {
      const n = graph.node(hit.id)
      if (ok(n) && termCoverage(name, graph.name[n]!) >= 0.5) out.set(n, seed)
    }
  }
  return out
}

/**
 * `tn` of every candidate against the target: entity-vector cosine clipped at 0 when both have a
 * vector, else the Jaccard overlap of their labels. Vectors are read once per request, on demand.
 */
async function nodeSimilarity(
  deps: RetrieveDeps,
  graph: GraphIndex,
  target: number,
  candidates: number[],
): Promise<(node: number) => number> {
  const byLabels = (n: number) => labelJaccard(graph.labels[target]!, graph.labels[n]!)
  if (deps.vectors === null) return byLabels
  const targetVector = (await deps.vectors.get('entities', [graph.uuid[target]!])).get(
    graph.uuid[target]!,
  )
  if (targetVector === undefined) return byLabels
  const ids = candidates.map((n) => graph.uuid[n]!)
  const vectors = await deps.vectors.get('entities', ids)
  return (n) => {
    const c = cosineOfKnown(targetVector, vectors.get(graph.uuid[n]!))
    return c === null ? byLabels(n) : Math.max(0, c)
  }
}
