import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { EVENT_LABEL, type Entity } from '../model/entity.js'
import { otherNames } from '../model-writes/normalize-entity-name.js'
import { brainBm25, readBm25Override } from './bm25/bm25-brain-settings.js'
import { PassageSequence } from './passage-sequence.js'
import { Bm25Index, type Bm25Settings, type ResolvedBm25Settings } from './bm25/bm25-index.js'
import { NamesBm25Index } from './bm25/names-bm25-index.js'
import { INDEX_BYTES } from './index-bytes.js'
import type { IndexComponent, Pause } from './index-component.js'
import { combineParts, partsUnder, stringsPart, type SnapshotParts } from './snapshot-codec.js'
import { ranges, runSliced, runWhole, type Sliced } from './sliced-work.js'

const PAGE = 2000

/** Text the events index sees: name, aliases and description. */
function eventText(e: Entity): string {
  return [e.name, ...e.aliases, e.description ?? ''].join(' ')
}

/** An entity's own document in the entities index (its aliases are documents of their own). */
function entityText(e: Entity): string {
  return e.description ? `${e.name} ${e.description}` : e.name
}

/** What channels filter entities on: their labels and event time. */
export interface EntityInfo {
  labels: string[]
  happenedAt: string | null
}

/** The indexes of a lexical snapshot, restored (`LexicalIndexes.fromParts` and `restore`). */
export interface RestoredLexical {
  readonly passages: Bm25Index
  readonly entities: NamesBm25Index
  readonly events: Bm25Index
  readonly observations: Bm25Index
  readonly sequence: PassageSequence
  readonly entityInfo: Map<string, EntityInfo>
}

/** The indexes `LexicalIndexes.toParts` wrote; throws when the parts do not fit together. */
function* restoreLexical(
  engineDefaults: Bm25Settings,
  snapshot: SnapshotParts,
): Sliced<RestoredLexical> {
  const settings = brainBm25(engineDefaults, {})
  const index = (name: string) => Bm25Index.restore(partsUnder(snapshot, name), settings)
  const passages = yield* index('passages')
  // Named 'entityNames' since aliases became documents of their own: a snapshot of the old layout
  // (one text of name, aliases and description) has no such part, fails here and is rebuilt.
  const entities = new NamesBm25Index(yield* index('entityNames'))
  const events = yield* index('events')
  const observations = yield* index('observations')
  const sequence = yield* PassageSequence.restore(partsUnder(snapshot, 'sequence'))
  yield
  const info = partsUnder(snapshot, 'entityInfo')
  const uuids = stringsPart(info, 'uuids')
  const labels = stringsPart(info, 'labels')
  const happenedAt = stringsPart(info, 'happenedAt')
  if (labels.length !== uuids.length || happenedAt.length !== uuids.length)
    throw new Error('entity attributes snapshot parts disagree')
  // Entities share a few label sets: each is parsed once (and never changed in place).
  const labelSets = new Map<string, string[]>()
  const entityInfo = new Map<string, EntityInfo>()
  yield* ranges(uuids.length, (from, to) => {
    for (let i = from; i < to; i++) {
      let set = labelSets.get(labels[i]!)
      if (set === undefined) labelSets.set(labels[i]!, (set = JSON.parse(labels[i]!) as string[]))
      const at = happenedAt[i]!
      entityInfo.set(uuids[i]!, { labels: set, happenedAt: at === '' ? null : at.slice(1) })
    }
  })
  return { passages, entities, events, observations, sequence, entityInfo }
}

/**
 * The BM25 indexes of one brain (DESIGN.md section 4): passages, entities (name and description,
 * each alias a document of its own: `NamesBm25Index`), events (name, aliases and description) and
 * observations, plus the entity attributes channels filter on (labels and event time per uuid). All
 * four score with the brain's BM25 settings: the engine's defaults under the brain's override (meta
 * `bm25`), read once the postings are built, so that an override written while a build runs is not
 * missed (`configure` applies later ones).
 */
export class LexicalIndexes implements IndexComponent {
  readonly name = 'lexical'
  readonly passages: Bm25Index
  /** Name and description per entity, one more document per alias; an entity scores its best. */
  readonly entities: NamesBm25Index
  readonly events: Bm25Index
  readonly observations: Bm25Index
  /** Passages in reading order within their text and conversation session (graph walk neighbours). */
  readonly sequence: PassageSequence
  /** Labels and event time per entity uuid, for label filters and recency. */
  readonly entityInfo: Map<string, EntityInfo>
  /** Restored from a snapshot: `build` reads only the brain's BM25 settings. */
  readonly restored: boolean

  /**
   * @param engineDefaults BM25 settings of brains without an override (`EngineOptions.bm25`).
   * @param restored the indexes a snapshot held (`fromParts`, `restore`): they start as they were.
   */
  constructor(
    private readonly engineDefaults: Bm25Settings = {},
    restored?: RestoredLexical,
  ) {
    const settings = brainBm25(engineDefaults, {})
    this.passages = restored?.passages ?? new Bm25Index(settings)
    this.entities = restored?.entities ?? new NamesBm25Index(new Bm25Index(settings))
    this.events = restored?.events ?? new Bm25Index(settings)
    this.observations = restored?.observations ?? new Bm25Index(settings)
    this.sequence = restored?.sequence ?? new PassageSequence()
    this.entityInfo = restored?.entityInfo ?? new Map()
    this.restored = restored !== undefined
  }

  /**
   * The indexes `toParts` wrote (a snapshot, `lexical-snapshot.ts`), in one go; throws when the parts
   * do not fit together (the caller then builds from storage).
   */
  static fromParts(engineDefaults: Bm25Settings, snapshot: SnapshotParts): LexicalIndexes {
    return new LexicalIndexes(engineDefaults, runWhole(restoreLexical(engineDefaults, snapshot)))
  }

  /**
   * As `fromParts`, calling `pause` between slices of the work (`sliced-work.ts`): a restart or a
   * brain loaded again after an eviction does not hold the event loop for the whole restore (0.1-0.15 s
   * for MovieLens-small's 112,000 entities in one go). The indexes are made only at the end, of
   * parts no one else holds, so nothing sees them half restored.
   */
  static async restore(
    engineDefaults: Bm25Settings,
    snapshot: SnapshotParts,
    pause: Pause,
  ): Promise<LexicalIndexes> {
    return new LexicalIndexes(
      engineDefaults,
      await runSliced(restoreLexical(engineDefaults, snapshot), pause),
    )
  }

  /**
   * Every index as snapshot parts (`snapshot-codec.ts`): BM25 indexes compacted first, so no removed
   * record is in them. Views of the indexes' arrays: encode before they change.
   */
  toParts(): SnapshotParts {
    const uuids: string[] = []
    const labels: string[] = []
    const happenedAt: string[] = []
    for (const [uuid, info] of this.entityInfo) {
      uuids.push(uuid)
      labels.push(JSON.stringify(info.labels))
      happenedAt.push(info.happenedAt === null ? '' : `@${info.happenedAt}`)
    }
    return combineParts([
      ['entityInfo', { json: {}, arrays: {}, strings: { uuids, labels, happenedAt } }],
      ['passages', this.passages.toParts()],
      ['entityNames', this.entities.toParts()],
      ['events', this.events.toParts()],
      ['observations', this.observations.toParts()],
      ['sequence', this.sequence.toParts()],
    ])
  }

  /** The settings the four indexes score with. */
  get bm25(): ResolvedBm25Settings {
    return this.passages.settings
  }

  /** Scores with new BM25 settings from now on; postings are unchanged. */
  configure(settings: Bm25Settings): void {
    for (const index of [this.passages, this.entities, this.events, this.observations])
      index.configure(settings)
  }

  bytes(): number {
    const { passages, entities, events, observations, entityInfo, sequence } = this
    return (
      passages.bytes() +
      entities.bytes() +
      events.bytes() +
      observations.bytes() +
      entityInfo.size * INDEX_BYTES.entityInfo +
      sequence.bytes()
    )
  }

  async build(store: BrainStore, pause: Pause): Promise<void> {
    if (!this.restored) await this.scan(store, pause)
    this.configure(brainBm25(this.engineDefaults, await readBm25Override(store.meta)))
  }

  private async scan(store: BrainStore, pause: Pause): Promise<void> {
    for (let after: string | null = null; ;) {
      const page = await store.passages.scan(after, PAGE)
      for (const p of page) {
        this.passages.add(p.id, p.text)
        this.sequence.add(p)
        await pause()
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.id
    }
    for (let after: string | null = null; ;) {
      const page = await store.entities.scan(after, PAGE)
      for (const e of page) {
        this.putEntity(e)
        await pause()
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
    }
    for (let skip = 0; ; skip += PAGE) {
      const page = await store.observations.list({ limit: PAGE, skip })
      for (const o of page.items) {
        this.observations.add(o.id, o.text)
        await pause()
      }
      if (page.items.length < PAGE) break
    }
  }

  async apply(batch: WriteBatch, pause: Pause): Promise<void> {
    for (const p of batch.passages ?? []) {
      this.passages.add(p.id, p.text)
      this.sequence.add(p)
      await pause()
    }
    for (const e of batch.entities ?? []) this.putEntity(e)
    for (const o of batch.observations ?? []) this.observations.add(o.id, o.text)
    for (const uuid of batch.deleteEntities ?? []) {
      this.entities.remove(uuid)
      this.events.remove(uuid)
      this.entityInfo.delete(uuid)
    }
    // Removal keeps document frequencies, lengths and counts exact (`Bm25Index.remove`): the brain
    // scores as if the forgotten passages had never been indexed (docs/forgetting.md).
    for (const id of batch.deletePassages ?? []) {
      this.passages.remove(id)
      this.sequence.remove(id)
      await pause()
    }
    for (const id of batch.deleteObservations ?? []) this.observations.remove(id)
  }

  private putEntity(e: Entity): void {
    this.entityInfo.set(e.uuid, { labels: e.labels, happenedAt: e.happenedAt })
    if (e.labels.includes(EVENT_LABEL)) {
      this.entities.remove(e.uuid)
      this.events.add(e.uuid, eventText(e))
    } else {
      this.events.remove(e.uuid)
      // Aliases written through the model API are taken as given: one repeating the name, or another
      // alias, would count it twice.
      this.entities.put(e.uuid, entityText(e), otherNames(e.name, e.aliases))
    }
  }
}
