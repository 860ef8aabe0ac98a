import { expect } from 'vitest'
import type { BrainStore, EvidenceLink } from '../src/index.js'
import { fixtures as f } from './fixtures.js'

type Case = (name: string, fn: () => Promise<void>) => void

const link = (kind: EvidenceLink['kind'], recordId: string, evidenceId: string): EvidenceLink => ({
  kind,
  recordId,
  evidenceId,
})

/** Sorted `kind:record<-evidence` strings, to compare link sets whatever order an adapter returns. */
const linkKeys = (links: EvidenceLink[]) =>
  links.map((l) => `${l.kind}:${l.recordId}<-${l.evidenceId}`).sort()

/**
 * The suite's cases for sources, provenance, deletes and the change stream (docs/forgetting.md):
 * what forgetting relies on every adapter to do. `store` is the brain the suite opened for the test.
 */
export function forgettingCases(
  t: (group: string) => Case,
  store: () => BrainStore,
): { sources: () => void; evidence: () => void; history: () => void } {
  return {
    sources: () => {
      const c = t('sources')
      c(
        'gets tombstones, lists active sources newest first with text and meta filters',
        async () => {
          const s = store()
          await s.apply({
            sources: [
              f.source({
                id: 'a',
                title: 'Quarterly Report',
                updatedAt: '2024-01-01T00:00:00.000Z',
              }),
              f.source({
                id: 'b',
                title: null,
                filename: 'Notes.PDF',
                meta: { team: 'red', n: 1, ok: true },
                updatedAt: '2024-01-02T00:00:00.000Z',
              }),
              f.source({ id: 'c', meta: { n: '1' }, updatedAt: '2024-01-02T00:00:00.000Z' }),
              f.source({
                id: 'gone',
                status: 'forgotten',
                title: null,
                meta: {},
                contentHash: null,
                forgottenAt: '2024-01-03T00:00:00.000Z',
                updatedAt: '2024-01-03T00:00:00.000Z',
              }),
            ],
          })
          const list = (q: object) =>
            s.sources.list({ limit: 10, skip: 0, ...q }).then((p) => p.items.map((x) => x.id))
          expect(await list({})).toEqual(['c', 'b', 'a'])
          expect((await s.sources.list({ limit: 1, skip: 1 })).total).toBe(3)
          expect((await s.sources.list({ limit: 1, skip: 1 })).items.map((x) => x.id)).toEqual([
            'b',
          ])
          expect(await list({ queryText: 'REPORT' })).toEqual(['a'])
          expect(await list({ queryText: 'notes.pdf' })).toEqual(['b'])
          expect(await list({ queryText: 'gon' })).toEqual([])
          // Meta values compare as JSON: the number 1 is not the string '1', nor `true`.
          expect(await list({ meta: { n: 1 } })).toEqual(['b'])
          expect(await list({ meta: { n: '1' } })).toEqual(['c'])
          expect(await list({ meta: { team: 'red', ok: true } })).toEqual(['b'])
          expect(await list({ meta: { team: 'red', ok: 1 } })).toEqual([])
          expect(await list({ meta: { missing: null } })).toEqual([])
          expect(await s.sources.get('gone')).toEqual(
            f.source({
              id: 'gone',
              status: 'forgotten',
              title: null,
              meta: {},
              contentHash: null,
              forgottenAt: '2024-01-03T00:00:00.000Z',
              updatedAt: '2024-01-03T00:00:00.000Z',
            }),
          )
          expect(await s.sources.get('nope')).toBeNull()
          expect((await s.stats()).sources).toBe(3)
          await s.apply({
            sources: [f.source({ id: 'a', title: 'Renamed' })],
            deleteSources: ['b'],
          })
          expect((await s.sources.get('a'))?.title).toBe('Renamed')
          expect(await s.sources.get('b')).toBeNull()
          await s.apply({ deleteSources: ['gone', 'never-existed'] })
          expect(await s.sources.get('gone')).toBeNull()
          expect((await s.stats()).sources).toBe(2)
        },
      )
      c("lists a source's passages in position order and keeps passages without one", async () => {
        const s = store()
        await s.apply({
          passages: [
            f.passage({ id: 'x', sourceId: 'src', position: 2 }),
            f.passage({
              id: 'y',
              sourceId: 'src',
              position: 0,
              insertedAt: '2025-01-01T00:00:00.000Z',
            }),
            f.passage({ id: 'w', sourceId: 'src', position: 1 }),
            f.passage({ id: 'v', sourceId: 'src', position: 1 }),
            f.passage({ id: 'other', sourceId: 'src-2', position: 0 }),
            f.passage({ id: 'old', sourceId: null }),
          ],
        })
        const page = await s.passages.list({ limit: 3, skip: 0, sourceId: 'src' })
        expect(page.total).toBe(4)
        expect(page.items.map((p) => p.id)).toEqual(['y', 'v', 'w'])
        expect((await s.passages.get(['old', 'x'])).map((p) => p.sourceId)).toEqual([null, 'src'])
        expect((await s.passages.list({ limit: 10, skip: 0, sourceId: 'none' })).total).toBe(0)
      })
    },
    evidence: () => {
      const c = t('evidence')
      c('keeps a link once and reads it from both sides', async () => {
        const s = store()
        const links = [
          link('entity', 'e1', 'p1'),
          link('entity', 'e1', 'p2'),
          link('relationship', 'r1', 'p1'),
          link('observation', 'o1', 's1'),
        ]
        await s.apply({ evidence: links })
        await s.apply({ evidence: [link('entity', 'e1', 'p1')] })
        expect(linkKeys(await s.evidence.supportedBy(['p1', 's1', 'p9']))).toEqual(
          linkKeys([links[0]!, links[2]!, links[3]!]),
        )
        expect(await s.evidence.supportedBy([])).toEqual([])
        const of = await s.evidence.evidenceOf('entity', ['e1', 'e2', 'r1'])
        expect([...of.keys()]).toEqual(['e1'])
        expect([...of.get('e1')!].sort()).toEqual(['p1', 'p2'])
        expect((await s.evidence.evidenceOf('relationship', ['r1'])).get('r1')).toEqual(['p1'])
      })
      c('reads links for id lists longer than a statement takes', async () => {
        const s = store()
        const ids = Array.from({ length: 2500 }, (_, i) => `p${String(i).padStart(4, '0')}`)
        await s.apply({ evidence: ids.map((id, i) => link('entity', `e${i % 3}`, id)) })
        expect(await s.evidence.supportedBy(ids)).toHaveLength(2500)
        const of = await s.evidence.evidenceOf(
          'entity',
          Array.from({ length: 2500 }, (_, i) => `e${i}`),
        )
        expect([...of.keys()].sort()).toEqual(['e0', 'e1', 'e2'])
        expect(of.get('e1')).toHaveLength(833)
      })
      c('every delete takes the links that name the deleted id', async () => {
        const s = store()
        await s.apply({
          passages: [f.passage({ id: 'p1' }), f.passage({ id: 'p2' })],
          structured: [f.structured({ id: 's1' })],
          entities: [f.entity({ uuid: 'e1' }), f.entity({ uuid: 'e2' })],
          relationships: [f.relationship({ uuid: 'r1' })],
          observations: [f.observation({ id: 'o1' }), f.observation({ id: 'o2' })],
          evidence: [
            link('entity', 'e1', 'p1'),
            link('entity', 'e2', 'p2'),
            link('entity', 'e2', 's1'),
            link('relationship', 'r1', 'p2'),
            link('observation', 'o1', 'p2'),
            link('observation', 'o2', 'p2'),
          ],
        })
        await s.apply({ deletePassages: ['p1'], deleteStructured: ['s1'] })
        expect(await s.passages.get(['p1', 'p2'])).toHaveLength(1)
        expect(await s.structured.get('s1')).toBeNull()
        expect(linkKeys(await s.evidence.supportedBy(['p1', 'p2', 's1']))).toEqual(
          linkKeys([
            link('entity', 'e2', 'p2'),
            link('relationship', 'r1', 'p2'),
            link('observation', 'o1', 'p2'),
            link('observation', 'o2', 'p2'),
          ]),
        )
        await s.apply({
          deleteEntities: ['e2'],
          deleteRelationships: ['r1'],
          deleteObservations: ['o1'],
        })
        expect(await s.observations.get('o1')).toBeNull()
        expect(await s.observations.get('o2')).not.toBeNull()
        expect(linkKeys(await s.evidence.supportedBy(['p2']))).toEqual(['observation:o2<-p2'])
        const stats = await s.stats()
        expect(stats).toMatchObject({ passages: 1, structured: 0, entities: 1, observations: 1 })
      })
      c('applies puts before deletes, and rejects a bad link with the whole batch', async () => {
        const s = store()
        await s.apply({
          passages: [f.passage({ id: 'p1' })],
          evidence: [link('entity', 'e1', 'p1')],
          deletePassages: ['p1'],
        })
        expect(await s.passages.get(['p1'])).toEqual([])
        expect(await s.evidence.supportedBy(['p1'])).toEqual([])
        const bad = {
          passages: [f.passage({ id: 'p2' })],
          evidence: [link('bogus' as EvidenceLink['kind'], 'e1', 'p2')],
        }
        await expect(s.apply(bad)).rejects.toThrow()
        expect(await s.passages.get(['p2'])).toEqual([])
      })
    },
    history: () => {
      const c = t('history')
      c('reads the change stream after a seq and finds entries quoting ids', async () => {
        const s = store()
        expect(await s.changelog.lastSeq()).toBe(0)
        expect(await s.changelog.since(0, 10)).toEqual([])
        await s.apply({
          changelog: [
            f.changelog({ id: 'c1', change: { type: 'node_created', node: { uuid: 'e-aa' } } }),
            f.changelog({ id: 'c2', change: { type: 'node_created', node: { uuid: 'e-bb' } } }),
            f.changelog({ id: 'c3', change: { type: 'node_created', passages: ['p-cc'] } }),
          ],
        })
        const all = await s.changelog.since(0, 10)
        expect(all.map((e) => e.id)).toEqual(['c1', 'c2', 'c3'])
        expect(await s.changelog.lastSeq()).toBe(all[2]!.seq)
        expect((await s.changelog.since(all[0]!.seq, 1)).map((e) => e.id)).toEqual(['c2'])
        expect(await s.changelog.since(all[2]!.seq, 10)).toEqual([])
        const hits = await s.changelog.containing(['p-cc', 'e-aa', 'unknown'])
        expect(hits.map((e) => e.id).sort()).toEqual(['c1', 'c3'])
        expect(hits.find((e) => e.id === 'c1')).toEqual(all[0])
        expect(await s.changelog.containing([])).toEqual([])
        const many = Array.from({ length: 100 }, (_, i) => `needle-${i}`)
        expect((await s.changelog.containing([...many, 'e-bb'])).map((e) => e.id)).toEqual(['c2'])
      })
      c('redacts changelog entries and erases task payloads, keeping the rest', async () => {
        const s = store()
        await s.apply({
          changelog: [
            f.changelog({ id: 'c1', change: { type: 'node_created', quote: 'secret-word' } }),
          ],
          task: f.task({ id: 't1', payload: { text: 'secret-word' } }),
        })
        const [before] = await s.changelog.since(0, 1)
        await s.apply({
          changelog: [
            f.changelog({ id: 'c2', change: { type: 'node_created', quote: 'secret-2' } }),
          ],
          redactChangelog: [
            { id: 'c1', change: { type: 'redacted' } },
            { id: 'c2', change: { type: 'redacted', c: 2 } },
            { id: 'nope', change: { type: 'redacted' } },
          ],
          erasePayloads: ['t1', 'nope'],
        })
        expect(await s.changelog.get('c1')).toEqual({ ...before, change: { type: 'redacted' } })
        expect((await s.changelog.get('c2'))?.change).toEqual({ type: 'redacted', c: 2 })
        expect(await s.changelog.get('nope')).toBeNull()
        expect(await s.changelog.containing(['secret-word', 'secret-2'])).toEqual([])
        expect((await s.changelog.list({ limit: 10, skip: 0, queryText: 'secret' })).total).toBe(0)
        const task = await s.tasks.get('t1')
        expect(task).toEqual(f.task({ id: 't1', payload: { forgotten: true } }))
        expect(await s.tasks.get('nope')).toBeNull()
        expect((await s.stats()).changelog).toBe(2)
      })
      c('purges after a delete and stays usable', async () => {
        const s = store()
        await s.apply({ passages: [f.passage({ id: 'p1' }), f.passage({ id: 'p2' })] })
        await s.apply({ deletePassages: ['p1'] })
        const note = await s.purge()
        expect(note === null || (typeof note === 'string' && note.length > 0)).toBe(true)
        expect((await s.passages.scan(null, 10)).map((p) => p.id)).toEqual(['p2'])
        await s.apply({ passages: [f.passage({ id: 'p3' })] })
        expect((await s.stats()).passages).toBe(2)
      })
    },
  }
}
