import { Bm25Index } from '../bm25/bm25-index.js'
import type { GraphIndex } from '../graph/graph-index.js'
import { EVENT_LABEL } from '../../model/entity.js'
import { INDEX_BYTES } from '../index-bytes.js'
import { HUBS_PER_COMMUNITY, summarizeCommunities, type Community } from './community-summary.js'
import { graphologyView } from './graphology-view.js'
import { louvainPartition, type LouvainOptions } from './louvain-communities.js'

/** A community whose summary matches a query. */
export interface CommunityMatch {
  id: string
  /** BM25 score of the community's summary. */
  score: number
  summary: string
  /** Hub uuids, most central first. */
  hubs: string[]
  /** Members that may be returned, most central first; centrality in [0, 1]. */
  members: { uuid: string; centrality: number }[]
}

/** How one computation went, for logs, stage details and benchmarks. */
export interface CommunityStats {
  nodes: number
  edges: number
  /** Communities found by Louvain, singletons included. */
  partitions: number
  /** Communities kept (two members or more, at least one non-event). */
  communities: number
  modularity: number
  louvainMs: number
  summariesMs: number
}

/**
 * The communities of one brain at one point in time: Louvain communities of the entity graph, each with
 * hubs and an extractive summary, and a BM25 index over the summaries. Immutable once computed (a newer
 * one replaces it), except that members deleted from the graph since are skipped when read.
 */
export class CommunityIndex {
  private readonly byId: Map<string, Community>
  private readonly summaries = new Bm25Index()

  private constructor(
    private readonly graph: GraphIndex,
    readonly communities: readonly Community[],
    readonly stats: CommunityStats,
  ) {
    this.byId = new Map(communities.map((c) => [c.id, c]))
    for (const c of communities) this.summaries.add(c.id, c.summary)
  }

  /** Computes the communities of the graph as it is now (a graphology view of it, for Louvain). */
  static compute(graph: GraphIndex, options: LouvainOptions = {}): CommunityIndex {
    const t0 = performance.now()
    const view = graphologyView(graph)
    const partition = louvainPartition(view, options)
    const t1 = performance.now()
    const communities = summarizeCommunities(view, partition)
    const t2 = performance.now()
    return new CommunityIndex(graph, communities, {
      nodes: view.order,
      edges: view.size,
      partitions: partition.count,
      communities: communities.length,
      modularity: partition.modularity,
      louvainMs: t1 - t0,
      summariesMs: t2 - t1,
    })
  }

  get(id: string): Community | undefined {
    return this.byId.get(id)
  }

  /** Estimated bytes held (see `index-bytes.ts`; not calibrated on its own, communities are rare). */
  bytes(): number {
    const c = INDEX_BYTES.communities
    return (
      this.summaries.bytes() + this.stats.nodes * c.member + this.communities.length * c.community
    )
  }

  /**
   * Communities whose summary matches `text` by BM25, best first. With `hubLabels`, only communities
   * with a member of one of those labels match, and only such members are hubs (CONTRACT.md section 7,
   * `community_labels`); events are members only when `EVENT` is among them. `maxMembers` bounds
   * the members listed per community (most central first; hubs may lie beyond it).
   */
  search(
    text: string,
    k: number,
    hubLabels?: readonly string[],
    maxMembers = Number.POSITIVE_INFINITY,
  ): CommunityMatch[] {
    const wanted = hubLabels !== undefined && hubLabels.length > 0 ? hubLabels : null
    const filter =
      wanted === null
        ? undefined
        : (id: string) => wanted.some((l) => this.byId.get(id)!.labels.has(l))
    // Read against the live graph: members deleted since the computation are skipped.
    const g = this.graph
    const alive = (uuid: string) => g.node(uuid) !== undefined
    const labelsOf = (uuid: string) => g.labels[g.node(uuid)!]!
    const eventsAllowed = wanted?.includes(EVENT_LABEL) ?? false
    const matches: CommunityMatch[] = []
    for (const { id, score } of this.summaries.search(text, k, filter)) {
      const c = this.byId.get(id)!
      let hubs: string[] = []
      if (wanted === null) hubs = c.hubs.filter(alive)
      else
        for (const m of c.members) {
          if (hubs.length === HUBS_PER_COMMUNITY) break
          if (alive(m) && labelsOf(m).some((l) => wanted.includes(l))) hubs.push(m)
        }
      if (hubs.length === 0) continue
      const members: CommunityMatch['members'] = []
      for (let i = 0; i < c.members.length && members.length < maxMembers; i++) {
        const uuid = c.members[i]!
        if (alive(uuid) && (eventsAllowed || !labelsOf(uuid).includes(EVENT_LABEL)))
          members.push({ uuid, centrality: c.centrality[i]! })
      }
      matches.push({ id, score, summary: c.summary, hubs, members })
    }
    return matches
  }
}
