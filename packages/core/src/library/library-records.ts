import { z } from 'zod'
import type { Paged, Triple } from '../contracts/storage-adapter.js'
import { parseInput } from '../invalid-input.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import type { StructuredRecord } from '../model/structured-record.js'
import { TASK_STATUSES, taskStatus, type Task } from '../model/task.js'
import type { EntityWithObservations } from '../records/entity-observations.js'
import type { LibraryContext } from './library-context.js'
import { list, options, page } from './library-schemas.js'

// REST's `/retrieve/*` lists, `/meta/*` and `/tasks/` in camelCase, through the engine's `records`
// (the same calls the routes make). Lists are newest first; `limit` 1..1000 (default 100), `skip`.

const queryText = z.string().max(2000).optional()
const labels = list(200, 128).optional()
const id = z.string().min(1).max(200)

const entitiesOptions = options({ ...page, labels, queryText })
const relationshipsOptions = options({
  ...page,
  /** Relationship names (any-match). */
  types: labels,
  /** Subject labels (any-match). */
  fromLabels: labels,
  /** Object labels (any-match). */
  toLabels: labels,
  queryText,
  /** Where `queryText` looks: both names and the description (`all`), the subject or the object. */
  queryTarget: z.enum(['all', 'source', 'target']).default('all'),
})
const observationsOptions = options({
  ...page,
  /** Only observations of this entity uuid or passage id. */
  resourceId: z.string().max(200).optional(),
  labels,
  queryText,
})
const passagesOptions = options({
  ...page,
  /** Only the passages this task wrote. */
  taskId: z.string().max(200).optional(),
})
const typedOptions = options({ ...page, types: labels, queryText })
const tasksOptions = options({
  ...page,
  /** Only tasks in one of these statuses. */
  status: z.array(taskStatus).max(TASK_STATUSES.length).optional(),
})

export type EntitiesOptions = z.input<typeof entitiesOptions>
export type RelationshipsOptions = z.input<typeof relationshipsOptions>
export type ObservationsOptions = z.input<typeof observationsOptions>
export type PassagesOptions = z.input<typeof passagesOptions>
export type TypedListOptions = z.input<typeof typedOptions>
export type TasksOptions = z.input<typeof tasksOptions>

/** Record reads of one brain. `get`-style calls throw RESOURCE_NOT_FOUND for an unknown id. */
export interface EngramRecords {
  /** Entities, each with its first observations; `labels` any-match, `queryText` in the name. */
  entities(options?: EntitiesOptions): Promise<Paged<EntityWithObservations>>
  /** Relationships with both endpoints. */
  relationships(options?: RelationshipsOptions): Promise<Paged<Triple>>
  observations(options?: ObservationsOptions): Promise<Paged<Observation>>
  observation(id: string): Promise<Observation>
  passages(options?: PassagesOptions): Promise<Paged<Passage>>
  /** Structured-data records; `types` any-match, `queryText` in their JSON. */
  structuredData(options?: TypedListOptions): Promise<Paged<StructuredRecord>>
  structuredRecord(id: string): Promise<StructuredRecord>
  /** Graph writes; `types` any-match, `queryText` in the change. */
  changelog(options?: TypedListOptions): Promise<Paged<ChangelogEntry>>
  changelogEntry(id: string): Promise<ChangelogEntry>
  /** Ingestion tasks (terminal ones are kept 7 days). */
  tasks(options?: TasksOptions): Promise<Task[]>
  /** Distinct values, sorted (REST `/meta/*` and the `.../labels`, `.../types` lists). */
  entityLabels(): Promise<string[]>
  entityPropertyKeys(): Promise<string[]>
  relationshipNames(): Promise<string[]>
  observationLabels(): Promise<string[]>
  structuredTypes(): Promise<string[]>
  changelogTypes(): Promise<string[]>
}

export function libraryRecords(ctx: LibraryContext, brain: string): EngramRecords {
  const records = () => ctx.engine.records
  /** A list call: its options parsed, then the read. */
  const listed =
    <S extends z.ZodType, T>(what: string, schema: S, read: (o: z.output<S>) => Promise<T>) =>
    (raw?: z.input<S>) =>
      ctx.run(what, () => read(parseInput(what, schema, raw, ['options'])))
  const byId =
    <T>(what: string, read: (id: string) => Promise<T>) =>
    (value: string) =>
      ctx.run(what, () => read(parseInput(what, id, value, ['id'])))
  const distinct = (what: string, read: () => Promise<string[]>) => () => ctx.run(what, read)

  return {
    entities: listed('entities', entitiesOptions, (o) => records().listEntities(brain, o)),
    relationships: listed('relationships', relationshipsOptions, ({ queryTarget, ...o }) =>
      records().listRelationships(brain, { ...o, target: queryTarget }),
    ),
    observations: listed('observations', observationsOptions, (o) =>
      records().listObservations(brain, o),
    ),
    observation: byId('observation', (i) => records().getObservation(brain, i)),
    passages: listed('passages', passagesOptions, ({ taskId, ...o }) =>
      records().listPassages(brain, { ...o, ...(taskId !== undefined ? { source: taskId } : {}) }),
    ),
    structuredData: listed('structuredData', typedOptions, (o) =>
      records().listStructured(brain, o),
    ),
    structuredRecord: byId('structuredRecord', (i) => records().getStructured(brain, i)),
    changelog: listed('changelog', typedOptions, (o) => records().listChangelog(brain, o)),
    changelogEntry: byId('changelogEntry', (i) => records().getChangelog(brain, i)),
    tasks: listed('tasks', tasksOptions, ({ status, ...o }) =>
      ctx.engine.tasks.list(brain, o, status),
    ),
    entityLabels: distinct('entityLabels', () => records().entityLabels(brain)),
    entityPropertyKeys: distinct('entityPropertyKeys', () => records().entityPropertyKeys(brain)),
    relationshipNames: distinct('relationshipNames', () => records().relationshipNames(brain)),
    observationLabels: distinct('observationLabels', () => records().observationLabels(brain)),
    structuredTypes: distinct('structuredTypes', () => records().structuredTypes(brain)),
    changelogTypes: distinct('changelogTypes', () => records().changelogTypes(brain)),
  }
}
