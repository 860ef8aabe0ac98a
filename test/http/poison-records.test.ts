import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Entity, Relationship } from '@engram/core'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 11 item 3 (reads): a record nested deeper than SQLite's JSON functions read (1,000 levels),
 * stored before the map limits existed or written through the library, made the reads that look
 * inside stored JSON answer 500 from then on. Now such a record is skipped by those filters and
 * facets, and listed like any other record where nothing looks inside it (docs/wire-format.md).
 */

/** A value 1,100 levels deep, past SQLite's JSON depth limit of 1,000. */
function poison(): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  let current = root
  for (let i = 0; i < 1_100; i++) {
    const next: Record<string, unknown> = {}
    current.deep = next
    current = next
  }
  return root
}

const NOW = '2026-01-01T00:00:00.000Z'
const entity = (uuid: string, name: string, properties: Record<string, unknown>): Entity => ({
  uuid,
  name,
  description: `${name} description`,
  labels: ['POISON'],
  properties,
  metadata: null,
  happenedAt: null,
  lastUpdated: NOW,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
})
const relationship: Relationship = {
  uuid: 'rel-poison',
  subjectUuid: 'ent-poison',
  objectUuid: 'ent-plain',
  name: 'POISONS',
  description: 'poisoned edge',
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey: null,
  level: null,
  properties: poison(),
  happenedAt: null,
  lastUpdated: NOW,
  sourcePassageIds: [],
}

/** The reads of the issue, and the others that look inside stored JSON. */
const READS = [
  '/meta/entity-properties',
  '/meta/entity-labels',
  '/meta/relationships-properties',
  '/retrieve/changelogs?query_text=poison',
  '/retrieve/changelogs?types=node_created',
  '/retrieve/changelogs',
  '/retrieve/changelogs/types',
  '/retrieve/relationships?query_text=poison',
  '/retrieve/relationships',
  '/retrieve/structured-data?types=poison',
  '/retrieve/structured-data?query_text=poison',
  '/retrieve/structured-data',
  '/retrieve/structured-data/types',
  '/retrieve/observations?labels=poison',
  '/retrieve/observations?query_text=poison',
  '/retrieve/observations',
  '/retrieve/observations/labels',
  '/retrieve/entities?query_text=poison',
  '/retrieve/entities?node_labels=POISON',
  '/retrieve/entity/status?target=ent-poison',
  '/retrieve/search?query=poison&channels=passages,entities',
]

for (const storage of ['sqlite', 'memory'] as const) {
  describe(`poison records in ${storage} storage`, () => {
    let s: ListeningApp
    const get = (path: string) =>
      fetch(`${s.url}${path}`, { headers: { ServicePAT: SYSTEM_TOKEN } })

    beforeAll(async () => {
      s = await listeningApp({ storage })
      // Well-formed records first, so the reads have something to find besides the poison.
      const plain = await fetch(`${s.url}/model/entity`, {
        method: 'POST',
        headers: { ServicePAT: SYSTEM_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Poison control', labels: ['POISON'], properties: { a: 1 } }),
      })
      expect(plain.status).toBe(201)
      await plain.text()
      const store = await s.engram.store('default')
      await store.apply({
        entities: [entity('ent-poison', 'Poisoned', poison()), entity('ent-plain', 'Plain', {})],
        relationships: [relationship],
        observations: [
          {
            id: 'obs-poison',
            resourceId: 'ent-poison',
            text: 'poison observed',
            metadata: { labels: ['poison'], ...poison() },
            insertedAt: NOW,
          },
        ],
        structured: [
          {
            id: 'str-poison',
            data: poison(),
            types: ['poison'],
            metadata: {},
            insertedAt: NOW,
            brainVersion: '0.0.0-test',
          },
        ],
        changelog: [
          { id: 'chg-poison', timestamp: NOW, type: 'node_created', change: { poison: poison() } },
        ],
      })
    })
    afterAll(async () => {
      await s.close()
    })

    it('every read answers 200', async () => {
      for (const path of READS) {
        const res = await get(path)
        expect(res.status, `${path}: ${(await res.clone().text()).slice(0, 300)}`).toBe(200)
        await res.text()
      }
    })

    it('the poison records are still listed and readable by id', async () => {
      const changelogs = (await (await get('/retrieve/changelogs')).json()) as {
        changelogs: { id: string }[]
      }
      expect(changelogs.changelogs.map((c) => c.id)).toContain('chg-poison')
      const structured = (await (await get('/retrieve/structured-data')).json()) as {
        data: { id: string }[]
      }
      expect(structured.data.map((d) => d.id)).toContain('str-poison')
      expect((await get('/retrieve/structured-data/str-poison')).status).toBe(200)
      expect((await get('/retrieve/observations/obs-poison')).status).toBe(200)
      const relationships = (await (await get('/retrieve/relationships')).json()) as {
        total: number
      }
      expect(relationships.total).toBe(1)
      // Filters on the record's plain columns still find it: its subject's name.
      const byName = (await (await get('/retrieve/relationships?query_text=poisoned')).json()) as {
        total: number
      }
      expect(byName.total).toBe(1)
    })

    it('the well-formed records are still found by the filters', async () => {
      const keys = (await (await get('/meta/entity-properties')).json()) as string[]
      expect(keys).toContain('a')
    })
  })
}
