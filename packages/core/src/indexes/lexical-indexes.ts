import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { EVENT_LABEL, type Entity } from '../model/entity.js'
import { Bm25Index } from './bm25/bm25-index.js'
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
 * event time per uuid).
 */
export class LexicalIndexes implements IndexComponent {
  readonly name = 'lexical'
  readonly passages = new Bm25Index()
  readonly entities = new Bm25Index()
  readonly events = new Bm25Index()
  readonly observations = new Bm25Index()
  /** Labels and event time per entity uuid, for label filters and recency. */
  readonly entityInfo = new Map<string, { labels: string[]; happenedAt: string | null }>()

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
      await pause()
    }
    for (const e of batch.entities ?? []) this.putEntity(e)
    for (const o of batch.observations ?? []) this.observations.add(o.id, o.text)
    for (const uuid of batch.deleteEntities ?? []) {
      this.entities.remove(uuid)
      this.events.remove(uuid)
      this.entityInfo.delete(uuid)
    }
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
