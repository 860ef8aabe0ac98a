import type { FastifyInstance } from 'fastify'
import { normalizeEntityName, type Engram } from '@engram/core'
import { mulberry32 } from '../scale/synthetic-corpus.js'
import { docToPassage } from '../systems/engine-brain.js'
import {
  growthPassage,
  growthText,
  growthUnits,
  organisationName,
  type GrowthUnit,
} from './growth-corpus.js'

/** Units per structured ingestion task (one `POST /ingest/structured` of this many items). */
const UNITS_PER_TASK = 1000
/** Per 1,000 units: passages committed in bulk, model writes (an organisation and a WORKS_AT edge), texts. */
const PASSAGES_PER_TASK = 250
const MODEL_WRITES_PER_TASK = 20
const TEXTS_PER_TASK = 4
/** Per 1,000 units: observations committed in bulk, on passages and on people. */
const PASSAGE_OBSERVATIONS_PER_TASK = 50
const PERSON_OBSERVATIONS_PER_TASK = 20

/** What the brain holds so far, for the measured requests to pick targets from. */
export interface GrowthState {
  units: number
  passages: number
  observations: number
  texts: number
  organisations: number
  /** Uuids of the WORKS_AT relationships written through the model API. */
  readonly relationshipUuids: string[]
  /** The brain's entity count after the last step (the store's `stats()`). */
  entities: number
  /** Wall time spent growing, ms. */
  growMs: number
}

export interface Grower {
  readonly state: GrowthState
  /** Unit i (deterministic), for targets and queries. */
  unit(i: number): GrowthUnit
  /** Grows the brain until it holds at least `entities` entities. */
  growTo(entities: number, log: (line: string) => void): Promise<void>
}

/**
 * Grows one brain through the served paths: structured ingestion (`POST /ingest/structured` via
 * `app.inject`, so the task runs in the engine's queue as for a client), model writes through
 * `engram.graph` (what `/model/*` call), a few texts through `POST /ingest/` and the local extractor,
 * and SYNTHETIC passages and observations committed in bulk (`engram.commit`, as the scale curve
 * does) so the passages channel and the observation list grow with the brain without extracting tens
 * of thousands of texts.
 */
export function createGrower(
  app: FastifyInstance,
  engram: Engram,
  brainId: string,
  headers: Record<string, string>,
): Grower {
  const units = growthUnits()
  const memo: GrowthUnit[] = []
  const unit = (i: number) => {
    while (memo.length <= i) memo.push(units(memo.length))
    return memo[i]!
  }
  const rnd = mulberry32(7)
  const state: GrowthState = {
    units: 0,
    passages: 0,
    observations: 0,
    texts: 0,
    organisations: 0,
    relationshipUuids: [],
    entities: 0,
    growMs: 0,
  }

  async function inject(method: 'POST' | 'PUT', url: string, payload: object) {
    const r = await app.inject({ method, url, headers, payload })
    if (r.statusCode >= 300) throw new Error(`${method} ${url} answered ${r.statusCode}: ${r.body}`)
    return r.json() as unknown
  }

  async function personUuid(name: string): Promise<string> {
    const store = await engram.store(brainId)
    const [found] = await store.entities.findByName(normalizeEntityName(name))
    if (found === undefined) throw new Error(`grown person '${name}' not found`)
    return found.uuid
  }

  async function modelWrites(from: number, to: number) {
    for (let n = 0; n < MODEL_WRITES_PER_TASK; n++) {
      const person = unit(from + Math.floor(rnd() * (to - from))).person
      const { entity } = await engram.graph.createEntity(brainId, {
        name: organisationName(state.organisations++),
        labels: ['Organization'],
        description: null,
        properties: { founded: 1990 + (n % 30) },
        metadata: null,
        happenedAt: null,
        polarity: 'neutral',
      })
      const relationship = await engram.graph.createRelationship(brainId, {
        subjectUuid: await personUuid(person),
        objectUuid: entity.uuid,
        predicateName: 'WORKS_AT',
        predicateDescription: '',
        amount: null,
        properties: {},
        direction: 'neutral',
        happenedAt: null,
      })
      state.relationshipUuids.push(relationship.uuid)
    }
  }

  async function step() {
    const from = state.units
    const to = from + UNITS_PER_TASK
    const items = []
    for (let i = from; i < to; i++) items.push(unit(i).item)
    await inject('POST', '/ingest/structured', { data: items })
    const now = new Date().toISOString()
    const passages = Array.from({ length: PASSAGES_PER_TASK }, (_, j) =>
      docToPassage(
        { id: `growth-${state.passages + j}`, text: growthPassage(unit(from + 4 * j), rnd) },
        state.passages + j,
        now,
      ),
    )
    await engram.commit(brainId, { passages })
    state.passages += passages.length
    for (let n = 0; n < TEXTS_PER_TASK; n++)
      await inject('POST', '/ingest/', {
        text: growthText(unit(from + Math.floor(rnd() * UNITS_PER_TASK)), state.texts++),
      })
    await engram.tasks.idle()
    const observation = (resourceId: string, text: string) => ({
      id: `growth-observation-${state.observations++}`,
      resourceId,
      text,
      metadata: { labels: [state.observations % 2 === 0 ? 'note' : 'preference'] },
      insertedAt: now,
    })
    const observations = passages
      .slice(0, PASSAGE_OBSERVATIONS_PER_TASK)
      .map((p) => observation(p.id, `Noted in ${p.id}.`))
    for (let n = 0; n < PERSON_OBSERVATIONS_PER_TASK; n++) {
      const person = unit(from + Math.floor(rnd() * UNITS_PER_TASK)).person
      observations.push(observation(await personUuid(person), `${person} prefers mornings.`))
    }
    await engram.commit(brainId, { observations })
    await modelWrites(from, to)
    state.units = to
  }

  return {
    state,
    unit,
    async growTo(entities, log) {
      const t0 = performance.now()
      const store = await engram.store(brainId)
      while ((state.entities = (await store.stats()).entities) < entities) await step()
      state.growMs += performance.now() - t0
      log(
        `grown to ${state.entities} entities (${state.units} units, ${state.passages} passages, ${state.texts} texts) in ${(state.growMs / 1000).toFixed(0)} s so far`,
      )
    },
  }
}
