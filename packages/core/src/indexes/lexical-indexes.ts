import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { EVENT_LABEL, type Entity } from '../model/entity.js'
import { brainBm25, readBm25Override } from './bm25/bm25-brain-settings.js'
import { PassageSequence } from './passage-sequence.js'
import { Bm25Index, type Bm25Settings, type ResolvedBm25Settings } from './bm25/bm25-index.js'
import { INDEX_BYTES } from './index-bytes.js'
import type { IndexComponent, Pause } from './index-component.js'

const PAGE = 2000

/** Text the entities and events indexes see: name, aliases and description. */
function entityText(e: Entity): string {
  return [e.name, ...e.aliases, e.description ?? ''].join(' ')
}

/**
 * The BM25 indexes of one brain (DESIGN.md section 4): passages, entities (name, aliases,
 * description), events and observations, plus the entity attributes channels filter on (labels and
 * event time per uuid). All four score with the brain's BM25 settings: the engine's defaults under
 * the brain's override (meta `bm25`), read once the postings are built, so that an override written
 * while a build runs is not missed (`configure` applies later ones).
 */
export class LexicalIndexes implements IndexComponent {
  readonly name = 'lexical'
  readonly passages: Bm25Index
  readonly entities: Bm25Index
  readonly events: Bm25Index
  readonly observations: Bm25Index
  /** Passages in reading order within their text and conversation session (graph walk neighbours). */
  readonly sequence = new PassageSequence()
  /** Labels and event time per entity uuid, for label filters and recency. */
  readonly entityInfo = new Map<string, { labels: string[]; happenedAt: string | null }>()

  /** @param engineDefaults BM25 settings of brains without an override (`EngineOptions.bm25`). */
  constructor(private readonly engineDefaults: Bm25Settings = {}) {
    const settings = brainBm25(engineDefaults, {})
    this.passages = new Bm25Index(settings)
    this.entities = new Bm25Index(settings)
    this.events = new Bm25Index(settings)
    this.observations = new Bm25Index(settings)
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
    const { passages, entities, events, observations, entityInfo } = this
    return (
      passages.bytes() +
      entities.bytes() +
      events.bytes() +
      observations.bytes() +
      entityInfo.size * INDEX_BYTES.entityInfo
    )
  }

  async build(store: BrainStore, pause: Pause): Promise<void> {
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
    this.configure(brainBm25(this.engineDefaults, await readBm25Override(store.meta)))
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
      this.events.add(e.uuid, entityText(e))
    } else {
      this.events.remove(e.uuid)
      this.entities.add(e.uuid, entityText(e))
    }
  }
}
