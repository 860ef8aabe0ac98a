import { z } from 'zod'
import { parseInput } from '../invalid-input.js'
import type { SearchResponse } from '../model/search.js'
import { librarySettings, type EngramSettings } from './library-brains.js'
import type { LibraryContext } from './library-context.js'
import { libraryGraph, type EngramGraph } from './library-graph.js'
import { libraryIngest, type EngramIngest } from './library-ingest.js'
import { libraryModel, type EngramModel } from './library-model.js'
import { libraryRecords, type EngramRecords } from './library-records.js'
import { librarySearch, type SearchOptions } from './library-search.js'
import { librarySources, type EngramSources } from './library-sources.js'
import { taskHandle, type TaskHandle } from './task-handle.js'

/**
 * Everything the library does on one brain. Options are all optional and validated: a wrong type, a
 * value out of REST's bounds or an unknown option key is a VALIDATION_ERROR naming it; an unknown
 * brain is BRAIN_NOT_FOUND at the first call that reads it.
 */
export interface EngramBrain extends EngramSources {
  /** The brain's id. */
  readonly id: string
  /** Text, JSON, files and structured records, as tasks (`await (await ingest.text(t)).done()`). */
  readonly ingest: EngramIngest
  /** Multi-channel search with every option of REST's `/retrieve/search`. */
  search(query: string, options?: SearchOptions): Promise<SearchResponse>
  /** Graph operations (`/retrieve/*`): retrieve, neighbors, entity context/info/status, hops... */
  readonly graph: EngramGraph
  /** Record reads: entities, relationships, observations, passages, changelog, tasks. */
  readonly records: EngramRecords
  /** Synchronous graph writes and deletes (`/model/*`). */
  readonly model: EngramModel
  /** The brain's BM25 settings. */
  readonly settings: EngramSettings
  /** The handle of a task by id (e.g. one submitted before a restart). */
  task(id: string): TaskHandle
}

const taskId = z.string().min(1).max(200)

export function engramBrain(ctx: LibraryContext, id: string): EngramBrain {
  return {
    id,
    ingest: libraryIngest(ctx, id),
    search: librarySearch(ctx, id),
    graph: libraryGraph(ctx, id),
    records: libraryRecords(ctx, id),
    model: libraryModel(ctx, id),
    settings: librarySettings(ctx, id),
    ...librarySources(ctx, id),
    task: (value) => taskHandle(ctx, id, parseInput('task', taskId, value, ['id'])),
  }
}
