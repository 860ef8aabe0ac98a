import createClient, {
  type Client,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch'
import type {
  HttpMethod,
  MediaType,
  PathsWithMethod,
  RequiredKeysOf,
} from 'openapi-typescript-helpers'
import {
  changelogStream,
  type ChangelogEvent,
  type ChangelogStreamOptions,
} from './changelog-stream.js'
import { EngramError } from './engram-error.js'
import type { components, paths } from './generated/engram-api.js'
import { retryingFetch, type RetryOptions } from './retrying-fetch.js'
import {
  sourceCalls,
  type Accepted,
  type DeleteCalls,
  type SourcesClient,
} from './sources-client.js'
import { waitForTask, type Task, type WaitForTaskOptions } from './wait-for-task.js'

/** How to reach a server, and as whom. */
export interface EngramClientOptions {
  /** Server root including any BASE_PATH, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string
  /** A system or brain token, sent as `ServicePAT`. Kept in memory only; never put it in a URL. */
  token?: string | null
  /** Brain sent as `X-Brain-ID` on every call (a call's own `params.header` wins). */
  brain?: string | null
  /** Retry rule for 429 and 503; `{ retries: 0 }` turns it off. */
  retry?: RetryOptions
  /** The fetch to use (default `globalThis.fetch`): a test double, or an in-process transport. */
  fetch?: (request: Request) => Promise<Response>
  /** More headers sent on every call. */
  headers?: Record<string, string>
}

type Data<R> = R extends { data: infer D } ? Exclude<D, undefined> : never
// As openapi-fetch's own `InitParam`: the init argument is optional when nothing in it is required.
type InitParam<I> =
  RequiredKeysOf<I> extends never ? [(I & Record<string, unknown>)?] : [I & Record<string, unknown>]
type Operation<Item, M extends HttpMethod> = M extends keyof Item
  ? Item[M] extends infer O extends Record<string | number, unknown>
    ? O
    : never
  : never
type MethodOf<Paths extends object, M extends HttpMethod> = <
  P extends PathsWithMethod<Paths, M>,
  I extends MaybeOptionalInit<Paths[P], M & keyof Paths[P]>,
>(
  path: P,
  ...init: InitParam<I>
) => Promise<Data<FetchResponse<Operation<Paths[P], M>, I, MediaType>>>

/** A typed call that resolves with the response body and throws `EngramError` on any non-2xx status. */
export type EngramMethod<M extends HttpMethod> = MethodOf<paths, M>

/** An uploaded file for `POST /ingest/file`. */
export interface FileUpload {
  /** The file's bytes (a `File` in browsers, or `new Blob([buffer])` in Node). */
  file: Blob
  /** File name sent with the part; the server reads the format from its extension. */
  filename: string
  /** A JSON object stored as passage metadata. */
  metaKeys?: Record<string, unknown>
  /**
   * The source the file belongs to (docs/forgetting.md): uploading again under the same id replaces
   * its content. Default: the task id.
   */
  sourceId?: string
  /**
   * When the source expires (docs/time.md, Expiry): a date-time with a time zone, or a Date. Not with
   * `ttl`. Without either, the brain's default applies.
   */
  expiresAt?: string | Date
  /** Seconds until the source expires (1 to 100 years). Not with `expiresAt`. */
  ttl?: number
  /** Brain for this upload, when the client has none or another one. */
  brain?: string
  signal?: AbortSignal
}

export type SearchResponse = components['schemas']['SearchResponse']
export type SearchHit = components['schemas']['SearchHit']
export type Entity = components['schemas']['Entity']
export type Relationship = components['schemas']['Relationship']
export type Observation = components['schemas']['Observation']
export type Changelog = components['schemas']['Changelog']
/** `GET /meta/search-plugins`: the channels, fusions and rerank stages a search may name. */
export type SearchPlugins = components['schemas']['SearchPlugins']

/**
 * The Engram REST API, typed from the committed `openapi.json` (see `src/generated/`). Every operation is
 * reachable through `GET`/`POST`/`PUT`/`DELETE` with the spec's path, typed parameters and typed result:
 *
 * ```ts
 * const engram = createEngramClient({ baseUrl, token, brain: 'notes' })
 * const { hits } = await engram.GET('/retrieve/search', { params: { query: { query: 'who met Ada?' } } })
 * ```
 */
export interface EngramClient extends DeleteCalls {
  readonly GET: EngramMethod<'get'>
  readonly POST: EngramMethod<'post'>
  readonly PUT: EngramMethod<'put'>
  readonly DELETE: EngramMethod<'delete'>
  /** `POST /ingest/file` as multipart, with the file name the server reads the format from. */
  ingestFile(upload: FileUpload): Promise<Accepted>
  /** `/sources`: list, read with passages, forget (docs/forgetting.md). */
  readonly sources: SourcesClient
  /** Polls `GET /tasks/{task_id}` until the task ends (see `waitForTask`). */
  waitForTask(taskId: string, options?: WaitForTaskOptions & { brain?: string }): Promise<Task>
  /**
   * `GET /retrieve/changelogs/stream`: the brain's changelog entries as they are written, resumed
   * after a dropped connection with no gap (see `ChangelogStreamOptions`):
   *
   * ```ts
   * for await (const { seq, type, entry } of engram.changelogStream({ after: 0 })) console.log(seq, type)
   * ```
   */
  changelogStream(options?: ChangelogStreamOptions): AsyncGenerator<ChangelogEvent, void, undefined>
  /** The same client sending another `X-Brain-ID`. */
  withBrain(brain: string): EngramClient
  /** The underlying openapi-fetch client (`{ data, error, response }` results, no throwing). */
  readonly raw: Client<paths>
}

/** Creates a client; see `EngramClientOptions`. Works in Node 20+ and in browsers. */
export function createEngramClient(options: EngramClientOptions): EngramClient {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.ServicePAT = options.token
  if (options.brain) headers['X-Brain-ID'] = options.brain
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const fetchWithRetry = retryingFetch(guardNetwork(baseFetch, options.baseUrl), options.retry)
  const raw = createClient<paths>({ baseUrl, headers, fetch: fetchWithRetry })
  const call =
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE') =>
    async (path: string, init?: object): Promise<unknown> => {
      const { data, error, response } = await (
        raw[method] as (
          path: string,
          init?: object,
        ) => Promise<FetchResponse<object, object, MediaType>>
      )(path, init)
      if (!response.ok) throw EngramError.fromResponse(response, error)
      return data
    }
  const GET = call('GET') as EngramMethod<'get'>
  const DELETE = call('DELETE') as EngramMethod<'delete'>
  const client: EngramClient = {
    GET,
    POST: call('POST') as EngramMethod<'post'>,
    PUT: call('PUT') as EngramMethod<'put'>,
    DELETE,
    raw,
    ...sourceCalls(GET, DELETE),
    ingestFile: (upload) =>
      client.POST('/ingest/file', {
        params: { header: upload.brain === undefined ? {} : { 'X-Brain-ID': upload.brain } },
        body: {
          file: upload.file,
          ...(upload.metaKeys === undefined ? {} : { meta_keys: JSON.stringify(upload.metaKeys) }),
          ...(upload.sourceId === undefined ? {} : { source_id: upload.sourceId }),
          ...(upload.expiresAt === undefined
            ? {}
            : {
                expires_at:
                  upload.expiresAt instanceof Date
                    ? upload.expiresAt.toISOString()
                    : upload.expiresAt,
              }),
          ...(upload.ttl === undefined ? {} : { ttl: String(upload.ttl) }),
        },
        bodySerializer: (body) => {
          const form = new FormData()
          form.append('file', body.file, upload.filename)
          if (body.meta_keys !== undefined) form.append('meta_keys', body.meta_keys)
          if (body.source_id !== undefined) form.append('source_id', body.source_id)
          if (body.expires_at !== undefined) form.append('expires_at', body.expires_at)
          if (body.ttl !== undefined) form.append('ttl', body.ttl)
          return form
        },
        ...(upload.signal === undefined ? {} : { signal: upload.signal }),
      }),
    waitForTask: (taskId, { brain, ...wait } = {}) =>
      waitForTask(
        (signal) =>
          client.GET('/tasks/{task_id}', {
            params: {
              path: { task_id: taskId },
              header: brain === undefined ? {} : { 'X-Brain-ID': brain },
            },
            ...(signal === undefined ? {} : { signal }),
          }),
        wait,
      ),
    changelogStream: (stream = {}) =>
      changelogStream((lastEventId, signal) => {
        const query = new URLSearchParams()
        if (stream.types?.length) query.set('types', stream.types.join(','))
        const search = query.toString()
        const url = `${baseUrl}/retrieve/changelogs/stream${search ? `?${search}` : ''}`
        return fetchWithRetry(
          new Request(url, {
            headers: {
              ...headers,
              Accept: 'text/event-stream',
              ...(stream.brain === undefined ? {} : { 'X-Brain-ID': stream.brain }),
              ...(lastEventId === null ? {} : { 'Last-Event-ID': lastEventId }),
            },
            signal,
          }),
        )
      }, stream),
    withBrain: (brain) => createEngramClient({ ...options, brain }),
  }
  return client
}

/** A fetch failure (refused, DNS, reset) becomes an `EngramError` with code `NETWORK_ERROR`. */
function guardNetwork(
  fetchImpl: (request: Request) => Promise<Response>,
  baseUrl: string,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await fetchImpl(request)
    } catch (error) {
      if (request.signal.aborted) throw error
      const reason =
        error instanceof Error && error.cause instanceof Error ? error.cause.message : ''
      throw new EngramError({
        status: 0,
        code: 'NETWORK_ERROR',
        message: `cannot reach ${baseUrl}${reason ? ` (${reason})` : ''}`,
        resolution:
          'Check that the server is running and the base URL (with any BASE_PATH) is right.',
        cause: error,
      })
    }
  }
}
