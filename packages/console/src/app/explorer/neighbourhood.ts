import type { FactTime } from './fact-window.js'

/** An entity as the explorer draws it. */
export interface ExplorerNode {
  uuid: string
  name: string
  labels: string[]
  /** An event's window at the time viewed (absent for other entities); `ended` ones are greyed. */
  time?: FactTime
}

/** A relationship as the explorer draws it: undirected, labelled by its predicate. */
export interface ExplorerEdge {
  /** The relationship's uuid (one edge per relationship, parallel edges allowed). */
  uuid: string
  predicate: string
  /** Its two ends, in no particular order (`/retrieve/entity/status` does not say which is the subject). */
  ends: [string, string]
  /** Its window at the time viewed; `ended` ones are greyed, their window in the label. */
  time?: FactTime
}

/** Nodes reached from a root with their distance and the node they were first reached from. */
export interface Neighbourhood {
  root: ExplorerNode
  /** Every node but the root, in breadth-first order. */
  nodes: { node: ExplorerNode; hop: number; parent: string }[]
  edges: ExplorerEdge[]
  /** Nodes whose relationships were cut at the server's cap (their list may be incomplete). */
  truncated: string[]
  /** Requests sent to build it. */
  requests: number
}
