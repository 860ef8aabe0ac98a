import type { components, operations } from './generated/engram-api.js'
import type { EngramMethod } from './engram-client.js'

export type Source = components['schemas']['Source']
export type Deletion = components['schemas']['Deletion']
export type Passage = components['schemas']['Passage']
/** `GET /sources`: a page of sources and how many matched. */
export type SourceList = operations['sources_list']['responses'][200]['content']['application/json']
/** `GET /sources/{source_id}`: the source and a page of its passages. */
export type SourceWithPassages =
  operations['sources_get']['responses'][200]['content']['application/json']
/** The 202 of ingestion and of `DELETE /sources/{source_id}`: the task to wait for and the source. */
export type Accepted = operations['sources_forget']['responses'][202]['content']['application/json']

/** What every convenience call takes: another brain than the client's, and an abort signal. */
export interface CallOptions {
  /** Brain for this call (`X-Brain-ID`), when the client has none or another one. */
  brain?: string
  signal?: AbortSignal
}

export interface ListSourcesOptions extends CallOptions {
  /** A case-insensitive substring of the id, title or file name. */
  queryText?: string
  /** Each key must equal the source's `meta` value. */
  meta?: Record<string, string | number | boolean>
  /** 1..1000, default 100. */
  limit?: number
  skip?: number
}

export interface GetSourceOptions extends CallOptions {
  /** Passages on the page, 1..1000 (default 100). */
  limit?: number
  skip?: number
}

/** Sources (docs/forgetting.md): list, read with passages, forget. */
export interface SourcesClient {
  /** `GET /sources`: active sources, most recently updated first. */
  list(options?: ListSourcesOptions): Promise<SourceList>
  /** `GET /sources/{source_id}`: the source and a page of its passages; unknown: a 404 error. */
  get(sourceId: string, options?: GetSourceOptions): Promise<SourceWithPassages>
  /**
   * `DELETE /sources/{source_id}`: forgets the source as a task (202); wait for it with
   * `waitForTask(task_id)`, whose `result` counts what was removed.
   */
  forget(sourceId: string, options?: CallOptions): Promise<Accepted>
}

/** The record deletes of `/model/*`, each answering the counts removed. */
export interface DeleteCalls {
  /** `DELETE /model/entity/{uuid}`: the entity, its relationships and observations. */
  deleteEntity(uuid: string, options?: CallOptions): Promise<Deletion>
  /** `DELETE /model/relationship/{uuid}`. */
  deleteRelationship(uuid: string, options?: CallOptions): Promise<Deletion>
  /** `DELETE /model/observation/{id}`. */
  deleteObservation(id: string, options?: CallOptions): Promise<Deletion>
}

const header = (brain: string | undefined) => (brain === undefined ? {} : { 'X-Brain-ID': brain })
const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal })

/** The sources and delete calls over a client's typed `GET` and `DELETE`. */
export function sourceCalls(
  get: EngramMethod<'get'>,
  del: EngramMethod<'delete'>,
): { sources: SourcesClient } & DeleteCalls {
  return {
    sources: {
      list: ({ brain, signal, queryText, meta, limit, skip } = {}) =>
        get('/sources', {
          params: {
            header: header(brain),
            query: {
              ...(queryText !== undefined ? { query_text: queryText } : {}),
              ...(meta !== undefined ? { meta: JSON.stringify(meta) } : {}),
              ...(limit !== undefined ? { limit } : {}),
              ...(skip !== undefined ? { skip } : {}),
            },
          },
          ...withSignal(signal),
        }),
      get: (sourceId, { brain, signal, limit, skip } = {}) =>
        get('/sources/{source_id}', {
          params: {
            header: header(brain),
            path: { source_id: sourceId },
            query: {
              ...(limit !== undefined ? { limit } : {}),
              ...(skip !== undefined ? { skip } : {}),
            },
          },
          ...withSignal(signal),
        }),
      forget: (sourceId, { brain, signal } = {}) =>
        del('/sources/{source_id}', {
          params: { header: header(brain), path: { source_id: sourceId } },
          ...withSignal(signal),
        }),
    },
    deleteEntity: (uuid, { brain, signal } = {}) =>
      del('/model/entity/{uuid}', {
        params: { header: header(brain), path: { uuid } },
        ...withSignal(signal),
      }),
    deleteRelationship: (uuid, { brain, signal } = {}) =>
      del('/model/relationship/{uuid}', {
        params: { header: header(brain), path: { uuid } },
        ...withSignal(signal),
      }),
    deleteObservation: (id, { brain, signal } = {}) =>
      del('/model/observation/{id}', {
        params: { header: header(brain), path: { id } },
        ...withSignal(signal),
      }),
  }
}
