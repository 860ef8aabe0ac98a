import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BrainStore, StorageAdapter } from '../src/index.js'
import { fixtures as f } from './fixtures.js'
import { forgettingCases } from './storage-adapter-forgetting-cases.js'

export interface SuiteSkip {
  /** Why these tests do not apply to this adapter (shown in the test name). */
  reason: string
  /** Test names as `group > test`. */
  tests: string[]
}

export interface StorageAdapterSuiteOptions {
  name: string
  create: () => StorageAdapter | Promise<StorageAdapter>
  skip?: SuiteSkip[]
}

/**
 * The conformance suite every StorageAdapter runs (STYLE item 8; hono's router `common.case.test.ts`).
 * It pins the semantics documented on `contracts/storage-adapter.ts`.
 */
export function runStorageAdapterSuite(options: StorageAdapterSuiteOptions): void {
  let adapter: StorageAdapter
  let store: BrainStore

  const skipped = new Map<string, string>()
  for (const s of options.skip ?? []) for (const t of s.tests) skipped.set(t, s.reason)
  const test = (group: string) => (name: string, fn: () => Promise<void>) => {
    const reason = skipped.get(`${group} > ${name}`)
    if (reason !== undefined) it.skip(`${name} (skipped: ${reason})`, fn)
    else it(name, fn)
  }

  describe(`storage adapter conformance: ${options.name}`, () => {
    beforeEach(async () => {
      adapter = await options.create()
      await adapter.open()
      await adapter.catalog.create(f.brain('alpha'))
      await adapter.catalog.create(f.brain('beta', { createdAt: '2024-03-09T00:00:00.000Z' }))
      store = await adapter.brain('alpha')
    })
    afterEach(async () => {
      await adapter.close()
    })

    describe('catalog', () => {
      const t = test('catalog')
      t('creates, refuses duplicates, gets and lists oldest first', async () => {
        expect(await adapter.catalog.create(f.brain('alpha'))).toBe(false)
        expect((await adapter.catalog.get('alpha'))?.nameKey).toBe('alpha')
        expect(await adapter.catalog.get('nope')).toBeNull()
        expect((await adapter.catalog.list()).map((b) => b.id)).toEqual(['alpha', 'beta'])
      })
      t('finds by token hash and updates tokens', async () => {
        expect((await adapter.catalog.findByTokenHash(f.brain('beta').tokenHash))?.id).toBe('beta')
        expect(await adapter.catalog.updateToken('beta', 'f'.repeat(64), 'wxyz')).toBe(true)
        expect(await adapter.catalog.findByTokenHash(f.brain('beta').tokenHash)).toBeNull()
        expect((await adapter.catalog.get('beta'))?.tokenLast4).toBe('wxyz')
        expect(await adapter.catalog.updateToken('nope', 'x', 'y')).toBe(false)
      })
      t('deletes a brain with its records and leaves others intact', async () => {
        await store.apply({ passages: [f.passage()], entities: [f.entity()] })
        const beta = await adapter.brain('beta')
        await beta.apply({ passages: [f.passage({ id: 'pb' })] })
        const stats = await adapter.catalog.delete('alpha')
        expect(stats).toMatchObject({ passages: 1, entities: 1 })
        expect(await adapter.catalog.get('alpha')).toBeNull()
        expect(await adapter.catalog.delete('alpha')).toBeNull()
        expect(await (await adapter.brain('beta')).passages.get(['pb'])).toHaveLength(1)
        await adapter.catalog.create(f.brain('alpha'))
        expect((await (await adapter.brain('alpha')).stats()).passages).toBe(0)
      })
    })

    describe('writes', () => {
      const t = test('writes')
      t('applies a batch and re-applying it changes nothing', async () => {
        const batch = {
          passages: [f.passage()],
          entities: [f.entity(), f.entity({ uuid: 'e2', name: 'London', labels: ['PLACE'] })],
          relationships: [f.relationship()],
          observations: [f.observation()],
          structured: [f.structured()],
          changelog: [f.changelog()],
          vectors: [{ space: 'passages', id: 'p1', vector: new Float32Array([0.6, 0.8]) }],
          sources: [f.source()],
          evidence: [{ kind: 'entity' as const, recordId: 'e1', evidenceId: 'p1' }],
          task: f.task({ brainId: 'alpha' }),
        }
        await store.apply(batch)
        const once = await store.stats()
        await store.apply(batch)
        expect(await store.stats()).toEqual(once)
        expect(once).toEqual({
          passages: 1,
          entities: 2,
          relationships: 1,
          observations: 1,
          structured: 1,
          changelog: 1,
          tasks: 1,
          vectors: 1,
          sources: 1,
        })
        expect(await store.evidence.supportedBy(['p1'])).toHaveLength(1)
      })
      t('is atomic: a failing batch writes nothing', async () => {
        const bad = {
          passages: [f.passage()],
          entities: [f.entity({ name: undefined as unknown as string })],
        }
        await expect(store.apply(bad)).rejects.toThrow()
        expect((await store.stats()).passages).toBe(0)
      })
      t('upserts by id and deletes', async () => {
        await store.apply({ entities: [f.entity()], relationships: [f.relationship()] })
        await store.apply({ entities: [f.entity({ name: 'Emily Stone' })] })
        expect((await store.entities.get(['e1']))[0]?.name).toBe('Emily Stone')
        await store.apply({ deleteEntities: ['e1'], deleteRelationships: ['r1'] })
        expect(await store.entities.get(['e1'])).toEqual([])
        expect(await store.relationships.get(['r1'])).toEqual([])
      })
      t(
        'keeps a store usable after release (an adapter without release has nothing to free)',
        async () => {
          await store.apply({ passages: [f.passage()] })
          store.release?.()
          expect(await store.passages.get(['p1'])).toHaveLength(1)
          store.release?.()
          await store.apply({ passages: [f.passage({ id: 'p2' })] })
          expect((await store.stats()).passages).toBe(2)
          expect(await adapter.brain('alpha')).toBe(store)
        },
      )
      t('keeps brains isolated', async () => {
        await store.apply({ passages: [f.passage()], entities: [f.entity()] })
        const beta = await adapter.brain('beta')
        expect(await beta.passages.get(['p1'])).toEqual([])
        expect((await beta.entities.list({ limit: 10, skip: 0 })).total).toBe(0)
      })
    })

    describe('reads', () => {
      const t = test('reads')
      t('round-trips every record type exactly', async () => {
        const p = f.passage()
        const e = f.entity({ properties: { n: 1, nested: { a: [1, 2] } }, aliases: ['Em'] })
        await store.apply({
          passages: [p],
          entities: [e, f.entity({ uuid: 'e2' })],
          relationships: [f.relationship()],
          observations: [f.observation()],
          structured: [f.structured()],
        })
        expect(await store.passages.get(['p1', 'missing'])).toEqual([p])
        expect(await store.entities.get(['e1'])).toEqual([e])
        expect(await store.relationships.get(['r1'])).toEqual([f.relationship()])
        expect(await store.observations.get('o1')).toEqual(f.observation())
        expect(await store.structured.get('s1')).toEqual(f.structured())
        expect(await store.observations.get('nope')).toBeNull()
      })
      t('finds entities by normalised name and alias', async () => {
        await store.apply({
          entities: [
            f.entity({ name: 'Emily  Stone', aliases: ['Em'] }),
            f.entity({ uuid: 'e2', name: 'London' }),
          ],
        })
        expect((await store.entities.findByName('emily stone')).map((e) => e.uuid)).toEqual(['e1'])
        expect((await store.entities.findByName('em')).map((e) => e.uuid)).toEqual(['e1'])
        expect(await store.entities.findByName('paris')).toEqual([])
        // A rename drops the old name, an alias added later is found, a deleted entity is not.
        await store.apply({
          entities: [f.entity({ name: 'Emily Park', aliases: ['Em', 'Emmy'] })],
          deleteEntities: ['e2'],
        })
        expect(await store.entities.findByName('emily stone')).toEqual([])
        expect((await store.entities.findByName('emmy')).map((e) => e.uuid)).toEqual(['e1'])
        expect(await store.entities.findByName('london')).toEqual([])
      })
      t('keeps names and labels exact across updates that change some of them', async () => {
        await store.apply({
          entities: [f.entity({ name: 'Ada', aliases: ['Countess'], labels: ['PERSON', 'ADMIN'] })],
        })
        // Unchanged, then one name and one label swapped, then back to the first ones.
        await store.apply({
          entities: [f.entity({ name: 'Ada', aliases: ['Countess'], labels: ['PERSON', 'ADMIN'] })],
        })
        await store.apply({
          entities: [
            f.entity({ name: 'Ada', aliases: ['Lovelace'], labels: ['PERSON', 'WRITER'] }),
          ],
        })
        const byLabel = async (label: string) =>
          (await store.entities.list({ limit: 10, skip: 0, labels: [label] })).items.map(
            (e) => e.uuid,
          )
        expect(await store.entities.findByName('countess')).toEqual([])
        expect((await store.entities.findByName('lovelace')).map((e) => e.uuid)).toEqual(['e1'])
        expect((await store.entities.findByName('ada')).map((e) => e.uuid)).toEqual(['e1'])
        expect(await byLabel('ADMIN')).toEqual([])
        expect(await byLabel('WRITER')).toEqual(['e1'])
        expect(await store.entities.labels()).toEqual(['PERSON', 'WRITER'])
        await store.apply({
          entities: [f.entity({ name: 'Ada', aliases: ['Countess'], labels: ['PERSON', 'ADMIN'] })],
        })
        expect(await store.entities.findByName('lovelace')).toEqual([])
        expect((await store.entities.findByName('countess')).map((e) => e.uuid)).toEqual(['e1'])
        expect(await store.entities.labels()).toEqual(['ADMIN', 'PERSON'])
      })
      t('lists entities with label and text filters, paging and total, newest first', async () => {
        await store.apply({
          entities: [
            f.entity({
              uuid: 'a',
              name: 'Alice',
              labels: ['PERSON'],
              lastUpdated: '2024-01-01T00:00:00.000Z',
            }),
            f.entity({
              uuid: 'b',
              name: 'Bob',
              labels: ['PERSON'],
              lastUpdated: '2024-01-02T00:00:00.000Z',
            }),
            f.entity({
              uuid: 'c',
              name: 'Paris',
              labels: ['PLACE'],
              lastUpdated: '2024-01-03T00:00:00.000Z',
            }),
          ],
        })
        expect(
          (await store.entities.list({ limit: 10, skip: 0 })).items.map((e) => e.uuid),
        ).toEqual(['c', 'b', 'a'])
        const people = await store.entities.list({ limit: 1, skip: 1, labels: ['PERSON'] })
        expect(people.total).toBe(2)
        expect(people.items.map((e) => e.uuid)).toEqual(['a'])
        expect(
          (await store.entities.list({ limit: 10, skip: 0, queryText: 'AR' })).items.map(
            (e) => e.uuid,
          ),
        ).toEqual(['c'])
      })
      t('lists relationships as triples with type, label and text filters', async () => {
        await store.apply({
          entities: [
            f.entity(),
            f.entity({ uuid: 'e2', name: 'London', labels: ['PLACE'] }),
            f.entity({ uuid: 'e3', name: 'Acme', labels: ['ORG'] }),
          ],
          relationships: [
            f.relationship(),
            f.relationship({
              uuid: 'r2',
              objectUuid: 'e3',
              name: 'WORKS_AT',
              description: 'job',
              lastUpdated: '2025-01-01T00:00:00.000Z',
            }),
          ],
        })
        const all = await store.relationships.list({ limit: 10, skip: 0 })
        expect(all.total).toBe(2)
        expect(all.items[0]!.predicate.uuid).toBe('r2')
        expect(all.items[0]!.object.name).toBe('Acme')
        expect(
          (await store.relationships.list({ limit: 10, skip: 0, types: ['LIVES_IN'] })).total,
        ).toBe(1)
        expect(
          (await store.relationships.list({ limit: 10, skip: 0, toLabels: ['ORG'] })).items.map(
            (t) => t.predicate.uuid,
          ),
        ).toEqual(['r2'])
        expect(
          (await store.relationships.list({ limit: 10, skip: 0, fromLabels: ['PLACE'] })).total,
        ).toBe(0)
        expect(
          (
            await store.relationships.list({
              limit: 10,
              skip: 0,
              queryText: 'london',
              target: 'target',
            })
          ).total,
        ).toBe(1)
        expect(
          (
            await store.relationships.list({
              limit: 10,
              skip: 0,
              queryText: 'london',
              target: 'source',
            })
          ).total,
        ).toBe(0)
        expect(
          (await store.relationships.list({ limit: 10, skip: 0, queryText: 'JOB' })).total,
        ).toBe(1)
        expect((await store.relationships.of('e1')).map((r) => r.uuid).sort()).toEqual(['r1', 'r2'])
        expect((await store.relationships.of('e3')).map((r) => r.uuid)).toEqual(['r2'])
      })
      t(
        'finds a relationship from its endpoints after updates that keep or move them',
        async () => {
          const ids = async (uuid: string) =>
            (await store.relationships.of(uuid)).map((r) => r.uuid)
          await store.apply({
            entities: [f.entity(), f.entity({ uuid: 'e2' }), f.entity({ uuid: 'e3' })],
            relationships: [f.relationship()],
          })
          await store.apply({ relationships: [f.relationship({ description: 'kept' })] })
          expect((await store.relationships.get(['r1']))[0]!.description).toBe('kept')
          expect(await ids('e2')).toEqual(['r1'])
          await store.apply({ relationships: [f.relationship({ objectUuid: 'e3' })] })
          expect(await ids('e2')).toEqual([])
          expect(await ids('e3')).toEqual(['r1'])
          expect(await ids('e1')).toEqual(['r1'])
          expect(
            (await store.relationships.list({ limit: 10, skip: 0 })).items[0]!.object.uuid,
          ).toBe('e3')
        },
      )
      t('lists observations, structured records and their labels and types', async () => {
        await store.apply({
          observations: [
            f.observation(),
            f.observation({
              id: 'o2',
              resourceId: 'e2',
              text: 'London is big',
              metadata: { labels: ['PLACE'] },
              insertedAt: '2025-01-01T00:00:00.000Z',
            }),
          ],
          structured: [
            f.structured(),
            f.structured({ id: 's2', types: ['catalog'], data: { sku: 'X1' } }),
          ],
        })
        expect(
          (await store.observations.list({ limit: 10, skip: 0 })).items.map((o) => o.id),
        ).toEqual(['o2', 'o1'])
        expect(
          (await store.observations.list({ limit: 10, skip: 0, resourceId: 'e1' })).total,
        ).toBe(1)
        expect(
          (await store.observations.list({ limit: 10, skip: 0, labels: ['PLACE'] })).items.map(
            (o) => o.id,
          ),
        ).toEqual(['o2'])
        expect(
          (await store.observations.list({ limit: 10, skip: 0, queryText: 'BIG' })).total,
        ).toBe(1)
        expect(await store.observations.labels()).toEqual(['PERSON', 'PLACE'])
        expect(
          (await store.structured.list({ limit: 10, skip: 0, types: ['catalog'] })).items.map(
            (s) => s.id,
          ),
        ).toEqual(['s2'])
        expect((await store.structured.list({ limit: 10, skip: 0, queryText: 'x1' })).total).toBe(1)
        expect(await store.structured.types()).toEqual(['catalog', 'ingestion_structured'])
      })
      t(
        'reads the newest observations of several resources at once, as list orders them',
        async () => {
          const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString()
          await store.apply({
            observations: [
              ...[3, 1, 2, 5, 4].map((i) =>
                f.observation({ id: `a${i}`, resourceId: 'e1', insertedAt: at(i) }),
              ),
              // Same time: the larger id first, as `list` breaks ties.
              f.observation({ id: 'b1', resourceId: 'p1', insertedAt: at(9) }),
              f.observation({ id: 'b2', resourceId: 'p1', insertedAt: at(9) }),
            ],
          })
          const ids = ['p1', 'nobody', 'e1']
          const read = store.observations.ofResources
          const got = read ? await read.call(store.observations, ids, 3) : null
          const listed = await Promise.all(
            ids.map(
              async (resourceId) =>
                (await store.observations.list({ resourceId, limit: 3, skip: 0 })).items,
            ),
          )
          expect(listed.map((os) => os.map((o) => o.id))).toEqual([
            ['b2', 'b1'],
            [],
            ['a5', 'a4', 'a3'],
          ])
          if (got !== null) expect(got).toEqual(listed)
        },
      )
      t('scans in id order by pages', async () => {
        await store.apply({
          passages: ['c', 'a', 'b'].map((id) => f.passage({ id })),
          entities: ['y', 'x'].map((uuid) => f.entity({ uuid })),
        })
        expect((await store.passages.scan(null, 2)).map((p) => p.id)).toEqual(['a', 'b'])
        expect((await store.passages.scan('b', 2)).map((p) => p.id)).toEqual(['c'])
        expect(await store.passages.scan('c', 2)).toEqual([])
        expect((await store.entities.scan(null, 5)).map((e) => e.uuid)).toEqual(['x', 'y'])
      })
      t('lists passages newest first, optionally by source task', async () => {
        await store.apply({
          passages: [
            f.passage({ id: 'a', source: 't1' }),
            f.passage({ id: 'b', source: 't2', insertedAt: '2025-01-01T00:00:00.000Z' }),
          ],
        })
        expect((await store.passages.list({ limit: 10, skip: 0 })).items.map((p) => p.id)).toEqual([
          'b',
          'a',
        ])
        expect((await store.passages.list({ limit: 10, skip: 0, source: 't1' })).total).toBe(1)
      })
      t('reports distinct sorted labels, property keys and relationship names', async () => {
        await store.apply({
          entities: [
            f.entity({ labels: ['PERSON', 'ADMIN'], properties: { z: 1, a: 2 } }),
            f.entity({ uuid: 'e2', labels: ['PERSON'], properties: { m: 1 } }),
          ],
          relationships: [
            f.relationship(),
            f.relationship({ uuid: 'r2', name: 'KNOWS' }),
            f.relationship({ uuid: 'r3', name: 'KNOWS' }),
          ],
        })
        expect(await store.entities.labels()).toEqual(['ADMIN', 'PERSON'])
        expect(await store.entities.propertyKeys()).toEqual(['a', 'm', 'z'])
        expect(await store.relationships.names()).toEqual(['KNOWS', 'LIVES_IN'])
      })
    })

    describe('changelog', () => {
      const t = test('changelog')
      t('assigns increasing seq, skips duplicate ids and filters', async () => {
        await store.apply({
          changelog: [
            f.changelog({ id: 'c1' }),
            f.changelog({
              id: 'c2',
              type: 'relationship_created',
              change: { type: 'relationship_created', subject: { name: 'Bob' } },
            }),
          ],
        })
        await store.apply({ changelog: [f.changelog({ id: 'c1' }), f.changelog({ id: 'c3' })] })
        const all = await store.changelog.list({ limit: 10, skip: 0 })
        expect(all.items.map((c) => c.id)).toEqual(['c3', 'c2', 'c1'])
        expect(all.items[0]!.seq).toBeGreaterThan(all.items[1]!.seq)
        expect(
          (await store.changelog.list({ limit: 10, skip: 0, types: ['relationship_created'] }))
            .total,
        ).toBe(1)
        expect(
          (await store.changelog.list({ limit: 10, skip: 0, queryText: 'bob' })).items.map(
            (c) => c.id,
          ),
        ).toEqual(['c2'])
        expect(await store.changelog.types()).toEqual(['node_created', 'relationship_created'])
        expect((await store.changelog.get('c2'))?.type).toBe('relationship_created')
        expect(await store.changelog.get('nope')).toBeNull()
      })
    })

    describe('tasks', () => {
      const t = test('tasks')
      t('creates idempotently, overwrites, lists newest first and by status', async () => {
        expect((await store.tasks.create(f.task({ id: 't1' }))).created).toBe(true)
        const again = await store.tasks.create(f.task({ id: 't1', kind: 'other' }))
        expect(again.created).toBe(false)
        expect(again.task.kind).toBe('ingest_text')
        await store.tasks.create(f.task({ id: 't2', createdAt: '2025-01-01T00:00:00.000Z' }))
        await store.tasks.put(f.task({ id: 't1', status: 'started', stage: 'chunking' }))
        expect((await store.tasks.get('t1'))?.stage).toBe('chunking')
        expect((await store.tasks.list({ limit: 10, skip: 0 })).map((x) => x.id)).toEqual([
          't2',
          't1',
        ])
        expect((await store.tasks.inStatus(['started'])).map((x) => x.id)).toEqual(['t1'])
        expect((await store.tasks.inStatus(['queued', 'started'])).map((x) => x.id)).toEqual([
          't1',
          't2',
        ])
        expect(await store.tasks.get('nope')).toBeNull()
      })
      t('lists only the statuses asked for, paging over those only', async () => {
        const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`
        const statuses = ['failed', 'completed', 'failed', 'queued', 'failed'] as const
        for (const [i, status] of statuses.entries())
          await store.tasks.create(f.task({ id: `s${i}`, status, createdAt: at(i) }))
        const ids = async (
          skip: number,
          limit: number,
          only?: Parameters<typeof store.tasks.list>[1],
        ) => (await store.tasks.list({ limit, skip }, only)).map((x) => x.id)
        expect(await ids(0, 10, ['failed'])).toEqual(['s4', 's2', 's0'])
        expect(await ids(1, 1, ['failed'])).toEqual(['s2'])
        expect(await ids(0, 10, ['queued', 'completed'])).toEqual(['s3', 's1'])
        expect(await ids(0, 10, [])).toEqual([])
        expect(await ids(0, 10)).toEqual(['s4', 's3', 's2', 's1', 's0'])
      })
      t('deletes only terminal tasks that ended before the cutoff', async () => {
        await store.tasks.create(
          f.task({ id: 'old', status: 'completed', endedAt: '2020-01-01T00:00:00.000Z' }),
        )
        await store.tasks.create(
          f.task({ id: 'new', status: 'failed', endedAt: '2030-01-01T00:00:00.000Z' }),
        )
        await store.tasks.create(f.task({ id: 'running', status: 'started' }))
        expect(await store.tasks.deleteEndedBefore('2025-01-01T00:00:00.000Z')).toBe(1)
        expect((await store.tasks.list({ limit: 10, skip: 0 })).map((x) => x.id).sort()).toEqual([
          'new',
          'running',
        ])
      })
    })

    describe('vectors and meta', () => {
      const t = test('vectors and meta')
      t('round-trips vectors exactly and scans a space', async () => {
        const v = new Float32Array([0.1, -0.2, 1e-7, 3.4028234663852886e38])
        await store.apply({
          vectors: [
            { space: 'passages', id: 'b', vector: v },
            { space: 'passages', id: 'a', vector: v },
            { space: 'entities', id: 'a', vector: new Float32Array([1]) },
          ],
        })
        const [got] = await store.vectors.get('passages', ['b'])
        expect(Array.from(got!.vector)).toEqual(Array.from(v))
        expect(got!.vector).toBeInstanceOf(Float32Array)
        expect((await store.vectors.scan('passages', null, 10)).map((x) => x.id)).toEqual([
          'a',
          'b',
        ])
        expect((await store.vectors.scan('entities', null, 10)).map((x) => x.id)).toEqual(['a'])
        await store.apply({ deleteVectors: [{ space: 'passages', id: 'a' }] })
        expect(await store.vectors.get('passages', ['a'])).toEqual([])
      })
      t('stores meta values', async () => {
        expect(await store.meta.get('embedder')).toBeNull()
        await store.meta.set('embedder', '{"name":"x"}')
        await store.meta.set('embedder', '{"name":"y"}')
        expect(await store.meta.get('embedder')).toBe('{"name":"y"}')
      })
    })

    const forgetting = forgettingCases(test, () => store)
    describe('sources', forgetting.sources)
    describe('evidence', forgetting.evidence)
    describe('history', forgetting.history)
  })
}
