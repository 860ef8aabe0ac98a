/**
 * The shape every loader produces: one or more retrieval groups. A group is a corpus plus the queries asked
 * against it (SciFact and MuSiQue have one group; LoCoMo has one per conversation, because a question is only
 * ever asked of its own conversation).
 */

/** One retrievable passage. `text` is what every system under test indexes. */
export interface BenchDoc {
  readonly id: string
  readonly text: string
  /** Optional title, indexed as part of the text by systems that do not model fields. */
  readonly title?: string
  readonly metadata?: Readonly<Record<string, string | number>>
}

export interface BenchQuery {
  readonly id: string
  readonly text: string
  readonly metadata?: Readonly<Record<string, string | number>>
}

/** Relevance judgements: query id -> doc id -> gain (1 for binary judgements). */
export type Qrels = ReadonlyMap<string, ReadonlyMap<string, number>>

export interface RetrievalGroup {
  readonly name: string
  readonly docs: readonly BenchDoc[]
  readonly queries: readonly BenchQuery[]
  readonly qrels: Qrels
}

export interface RetrievalDataset {
  readonly name: string
  readonly groups: readonly RetrievalGroup[]
  /** Notes on how the loader shaped the data (e.g. queries dropped and why); printed with the run. */
  readonly notes: readonly string[]
}

/** Total documents across groups: the `index_stats.documents` figure a config pins. */
export function documentCount(dataset: RetrievalDataset): number {
  return dataset.groups.reduce((n, g) => n + g.docs.length, 0)
}

export function queryCount(dataset: RetrievalDataset): number {
  return dataset.groups.reduce((n, g) => n + g.queries.length, 0)
}

/** The single text field every system indexes: title and body joined by a space (BEIR convention). */
export function indexText(doc: BenchDoc): string {
  return doc.title ? `${doc.title} ${doc.text}` : doc.text
}
