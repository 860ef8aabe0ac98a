/** A stored embedding. `space` groups vectors of one kind: `passages`, `entities`, `observations`, ... */
export interface VectorRecord {
  space: string
  id: string
  vector: Float32Array
}

/** A brain's stored embeddings, by space. Written only through `BrainStore.apply`. */
export interface VectorRepository {
  /** The vectors of these ids in `space`, in the order of `ids`; ids without one are left out. */
  get(space: string, ids: string[]): Promise<VectorRecord[]>
  /** All vectors of `space` in id order, in pages; `after` is the last id of the previous page. */
  scan(space: string, after: string | null, limit: number): Promise<VectorRecord[]>
}
