/**
 * A tour of the whole REST API written only with @engram/client: every operation of the spec, group by
 * group, against a running server. Run it against your own server with
 *
 *   ENGRAM_URL=http://127.0.0.1:8000 ENGRAM_TOKEN=<system token> npx tsx packages/client/examples/tour.ts
 *
 * It creates a brain named `tour-<time>`, fills it, reads it every way the API offers, and deletes it.
 * test/client/client-tour.test.ts runs it against a listening server on every `npm test`.
 */
import { createEngramClient, EngramError, type EngramClient } from '@engram/client'

export interface TourOptions {
  baseUrl: string
  systemToken: string
  /** Brain to create (and delete at the end). */
  brain: string
  /** Demo searches to send before one must come back 429 (the server's per-client limit + 1). */
  demoBurst: number
  log?: (line: string) => void
}

/** What the tour saw: operations called, and the 429s the client retried on its own. */
export interface TourReport {
  operations: string[]
  retried429: number
}

/** Records operations (their operationIds) that succeeded. */
type Done = (operationIds: string[], note?: string) => void

export async function runTour(options: TourOptions): Promise<TourReport> {
  const log = options.log ?? (() => {})
  const operations: string[] = []
  const done = (ids: string[], note = '') => {
    operations.push(...ids)
    log(`ok  ${ids.join(', ')}${note ? `: ${note}` : ''}`)
  }
  let retried429 = 0
  // Counts the 429s the retry loop sees, by wrapping the transport (the client retries inside it).
  const counting = async (request: Request) => {
    const response = await fetch(request)
    if (response.status === 429) retried429 += 1
    return response
  }
  const system = createEngramClient({
    baseUrl: options.baseUrl,
    token: options.systemToken,
    fetch: counting,
  })

  // public
  const health = await system.GET('/health')
  done(['public_health'], health.status)
  for (let i = 0; i < options.demoBurst; i++) {
    const demo = await system.GET('/demo/search', {
      params: { query: { query: 'error envelope', k: 3 } },
    })
    if (i === 0) done(['public_demo_search'], `${demo.hits.length} hits`)
  }
  log(`ok  demo burst of ${options.demoBurst}: ${retried429} retried after 429`)

  // system
  const created = await system.POST('/system/brains', { body: { brain_id: options.brain } })
  done(['system_create_brain'])
  const list = await system.GET('/system/brains-list')
  if (!JSON.stringify(list).includes(options.brain)) throw new Error('new brain not listed')
  done(['system_list_brains'])
  const rotated = await system.POST('/system/brains/{brain_id}/rotate-token', {
    params: { path: { brain_id: options.brain } },
  })
  done(['system_rotate_brain_token'])
  const settings = await system.GET('/system/brains/{brain_id}/settings', {
    params: { path: { brain_id: options.brain } },
  })
  await system.PUT('/system/brains/{brain_id}/settings', {
    params: { path: { brain_id: options.brain } },
    body: { bm25: settings.bm25 },
  })
  done(['system_get_brain_settings', 'system_put_brain_settings'])
  // The old token stops working once rotated; the new one reaches only its brain.
  const stale = await createEngramClient({ baseUrl: options.baseUrl, token: created.pat })
    .GET('/meta/login-info')
    .catch((error: unknown) => error)
  if (!(stale instanceof EngramError) || stale.code !== 'AUTH_INVALID') {
    throw new Error('a rotated token still works')
  }
  const brain = createEngramClient({ baseUrl: options.baseUrl, token: rotated.pat })

  // meta
  const login = await brain.GET('/meta/login-info')
  done(['meta_login_info'], login.brain_id)
  const plugins = await brain.GET('/meta/search-plugins')
  done(['meta_search_plugins'], plugins.stages.map((stage) => stage.name).join(', '))

  // model
  const [ada] = await brain.POST('/model/entity', {
    body: { name: 'Ada Lovelace', labels: ['PERSON'], description: 'Mathematician' },
  })
  const [engine] = await brain.POST('/model/entity', {
    body: { name: 'Analytical Engine', labels: ['MACHINE'] },
  })
  done(['model_create_entity'])
  await brain.PUT('/model/entity', {
    body: { uuid: ada!.uuid, new_properties: { born: 1815 } },
  })
  done(['model_update_entity'])
  const wrote = await brain.POST('/model/relationship', {
    body: {
      subject_uuid: ada!.uuid,
      object_uuid: engine!.uuid,
      predicate_name: 'WROTE_NOTES_ON',
      predicate_description: 'wrote notes on',
    },
  })
  done(['model_create_relationship'])
  await brain.PUT('/model/relationship', {
    body: { uuid: wrote, new_properties: { year: 1843 } },
  })
  done(['model_update_relationship'])

  // ingest + tasks
  const text = await brain.POST('/ingest/', {
    body: {
      text: 'Ada Lovelace met Charles Babbage in London in 1833. Babbage designed the Analytical Engine.',
      meta_keys: { source: 'tour' },
    },
  })
  const file = await brain.ingestFile({
    file: new Blob(['# Notes\n\nAda Lovelace published the first algorithm in 1843.\n']),
    filename: 'notes.md',
    metaKeys: { title: 'Notes' },
  })
  const structured = await brain.POST('/ingest/structured', {
    body: {
      data: [
        {
          subject: { name: 'Ann', type: 'person' },
          subj_event: { name: 'bought' },
          event: { name: 'Purchase 1', type: 'purchase', happened_at: '2024-01-02' },
          event_obj: { name: 'item' },
          object: { name: 'Lamp', type: 'product' },
        },
      ],
    },
  })
  done(['ingest_text', 'ingest_file', 'ingest_structured'])
  for (const accepted of [text, file, structured]) {
    const task = await brain.waitForTask(accepted.task_id, { timeoutMs: 60_000 })
    if (task.status !== 'completed')
      throw new Error(`task ${task.task_id}: ${task.status} ${task.error}`)
  }
  done(['tasks_get'], 'waitForTask, 3 tasks completed')
  const tasks = await brain.GET('/tasks/', { params: { query: { limit: 10 } } })
  done(['tasks_list'], `${tasks.tasks.length} tasks`)

  await metaAndLists(brain, done)
  await retrieval(brain, ada!.uuid, done)
  await forgetting(brain, done)

  await system.DELETE('/system/brains/{brain_id}', {
    params: { path: { brain_id: options.brain } },
  })
  done(['system_delete_brain'])
  return { operations, retried429 }
}

async function metaAndLists(brain: EngramClient, done: Done) {
  await brain.GET('/meta/entity-labels')
  await brain.GET('/meta/entity-properties')
  await brain.GET('/meta/relationships-properties')
  done(['meta_entity_labels', 'meta_entity_properties', 'meta_relationships_properties'])

  const entities = await brain.GET('/retrieve/entities', { params: { query: { limit: 50 } } })
  done(['retrieve_entities'], `${entities.total}`)
  const relationships = await brain.GET('/retrieve/relationships', {
    params: { query: { limit: 50 } },
  })
  done(['retrieve_relationships'], `${relationships.total}`)

  const observations = await brain.GET('/retrieve/observations', {
    params: { query: { limit: 5 } },
  })
  await brain.GET('/retrieve/observations/labels')
  const firstObservation = observations.observations[0]
  if (firstObservation !== undefined) {
    await brain.GET('/retrieve/observations/{id}', {
      params: { path: { id: firstObservation.id } },
    })
  }
  done(
    ['retrieve_observations', 'retrieve_observation_labels', 'retrieve_observation'],
    `${observations.observations.length}`,
  )

  const records = await brain.GET('/retrieve/structured-data', { params: { query: { limit: 5 } } })
  await brain.GET('/retrieve/structured-data/types')
  const firstRecord = records.data[0]
  if (firstRecord === undefined) throw new Error('no structured record')
  await brain.GET('/retrieve/structured-data/{id}', { params: { path: { id: firstRecord.id } } })
  done([
    'retrieve_structured_data',
    'retrieve_structured_data_types',
    'retrieve_structured_data_item',
  ])

  const changelogs = await brain.GET('/retrieve/changelogs', { params: { query: { limit: 5 } } })
  await brain.GET('/retrieve/changelogs/types')
  const firstChange = changelogs.changelogs[0]
  if (firstChange === undefined) throw new Error('no changelog')
  await brain.GET('/retrieve/changelogs/{id}', { params: { path: { id: firstChange.id } } })
  done(
    ['retrieve_changelogs', 'retrieve_changelog_types', 'retrieve_changelog'],
    `${changelogs.count}`,
  )

  // The change stream from the start: its first event is seq 1; leaving the loop closes it.
  for await (const event of brain.changelogStream({ after: 0 })) {
    if (event.seq !== 1) throw new Error(`the stream began at seq ${event.seq}`)
    done(['retrieve_changelogs_stream'], event.type)
    break
  }
}

async function retrieval(brain: EngramClient, ada: string, done: Done) {
  const search = await brain.GET('/retrieve/search', {
    params: { query: { query: 'When did Ada meet Babbage?', k: 5 } },
  })
  if (!search.hits.some((hit) => hit.snippet.includes('Babbage'))) throw new Error('search missed')
  await brain.POST('/retrieve/search', {
    body: {
      query: 'first algorithm',
      k: 3,
      channels: ['passages', 'entities'],
      profile_stages: true,
    },
  })
  done(['retrieve_search_get', 'retrieve_search_post'], `${search.hits.length} hits`)

  await brain.GET('/retrieve/', {
    params: { query: { text: 'Ada Lovelace', preferred_entities: 'Ada Lovelace' } },
  })
  done(['retrieve_passages'])

  await brain.GET('/retrieve/entities/neighbors', { params: { query: { uuid: ada } } })
  await brain.POST('/retrieve/entities/neighbors', {
    body: { identification_params: { uuid: ada } },
  })
  await brain.POST('/retrieve/entities/neighbors/ai-mode', {
    body: { identification_params: { uuid: ada }, looking_for: ['machines'] },
  })
  done(['retrieve_neighbors_get', 'retrieve_neighbors_post', 'retrieve_neighbors_ai_mode'])

  await brain.GET('/retrieve/entity/context', { params: { query: { target: ada } } })
  await brain.GET('/retrieve/entity/info', { params: { query: { target: ada, query: 'work' } } })
  await brain.GET('/retrieve/entity/status', { params: { query: { target: ada } } })
  await brain.GET('/retrieve/hops', { params: { query: { query: 'Ada Lovelace', degrees: 2 } } })
  await brain.GET('/retrieve/entity/synergies', { params: { query: { target: 'Ann' } } })
  done([
    'retrieve_entity_context',
    'retrieve_entity_info',
    'retrieve_entity_status',
    'retrieve_hops',
    'retrieve_entity_synergies',
  ])

  const pack = await brain.POST('/retrieve/context', { body: { text: 'Who met Babbage?' } })
  done(['retrieve_context'], `${pack.text_context.length} chars`)
  await brain.GET('/retrieve/recommend', { params: { query: { target: 'Ann' } } })
  await brain.POST('/retrieve/recommend', { body: { target: 'Ann', top_k: 5 } })
  done(['retrieve_recommend_get', 'retrieve_recommend_post'])
}

/** Sources and deletes (docs/forgetting.md): ingest under a source id, read it, delete, forget. */
async function forgetting(brain: EngramClient, done: Done) {
  const accepted = await brain.POST('/ingest/', {
    body: {
      text: 'Grace Hopper wrote the first compiler in 1952.',
      source_id: 'tour/hopper.txt',
      meta_keys: { title: 'Hopper' },
      observate_for: ['Grace Hopper'],
    },
  })
  if (accepted.source_id !== 'tour/hopper.txt') throw new Error('source id not echoed')
  await brain.waitForTask(accepted.task_id, { timeoutMs: 60_000 })
  const sources = await brain.sources.list({ queryText: 'hopper' })
  if (sources.sources[0]?.source_id !== 'tour/hopper.txt') throw new Error('source not listed')
  const source = await brain.sources.get('tour/hopper.txt')
  done(['sources_list', 'sources_get'], `${source.total} passages`)

  const [scratch] = await brain.POST('/model/entity', { body: { name: 'Scratch' } })
  const [other] = await brain.POST('/model/entity', { body: { name: 'Scratch 2' } })
  const link = await brain.POST('/model/relationship', {
    body: {
      subject_uuid: scratch!.uuid,
      object_uuid: other!.uuid,
      predicate_name: 'NEXT_TO',
      predicate_description: '',
    },
  })
  await brain.deleteRelationship(link)
  const removed = await brain.deleteEntity(scratch!.uuid)
  const observations = await brain.GET('/retrieve/observations', {
    params: { query: { query_text: 'compiler' } },
  })
  const observation = observations.observations[0]
  // Without an observation to delete, the call still answers as documented: 404.
  await brain
    .deleteObservation(observation?.id ?? 'no-such-observation')
    .catch((error: unknown) => {
      if (observation !== undefined || !(error instanceof EngramError) || error.status !== 404)
        throw error
    })
  done(
    ['model_delete_relationship', 'model_delete_entity', 'model_delete_observation'],
    `${removed.deleted.entities} entity`,
  )

  const forget = await brain.sources.forget('tour/hopper.txt')
  const task = await brain.waitForTask(forget.task_id, { timeoutMs: 60_000 })
  if (task.status !== 'completed') throw new Error(`forget ${task.status} ${task.error}`)
  const gone = await brain.sources.get('tour/hopper.txt').catch((error: unknown) => error)
  if (!(gone instanceof EngramError) || gone.status !== 404) throw new Error('source not forgotten')
  done(['sources_forget'], JSON.stringify(task.result))
}

// Run as a program: `npx tsx packages/client/examples/tour.ts` with ENGRAM_URL and ENGRAM_TOKEN.
if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runTour({
    baseUrl: process.env.ENGRAM_URL ?? 'http://127.0.0.1:8000',
    systemToken: process.env.ENGRAM_TOKEN ?? '',
    brain: `tour-${Date.now()}`,
    demoBurst: Number(process.env.DEMO_BURST ?? 1),
    log: (line) => console.log(line),
  })
  console.log(
    `${report.operations.length} steps, ${report.retried429} demo searches retried after 429`,
  )
}
