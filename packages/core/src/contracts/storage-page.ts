/** One page of a list: how many records and how many to skip first. */
export interface Page {
  /** 1..1000 (validated by callers). */
  limit: number
  /** >= 0. */
  skip: number
}

/** A page of records and the number of matches before paging. */
export interface Paged<T> {
  items: T[]
  /** Matching records before `limit`/`skip`. */
  total: number
}
