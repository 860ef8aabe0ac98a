import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures } from '../../testing/fixtures.js'
import { isChangedDuringSave } from './changed-during-save.js'
import { LexicalIndexes } from './lexical-indexes.js'
import { loadLexicalSnapshot, saveLexicalSnapshot } from './lexical-snapshot.js'
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec.js'
import { SLICE_ITEMS } from './sliced-work.js'

const { entity, passage } = fixtures
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('lexical snapshot loads', () => {
  it('give the event loop turns while they restore, and end with the indexes a restore in one go makes', async () => {
    const built = new LexicalIndexes()
    const count = 3 * SLICE_ITEMS
    await built.apply(
      {
        passages: [passage({ id: 'p1', text: 'Ann rated the laptop' })],
        entities: Array.from({ length: count }, (_, i) =>
          entity({
            uuid: `e${i}`,
            name: i % 2 === 0 ? `movie ${i}` : 'rated',
            labels: i % 2 === 0 ? ['MOVIE'] : ['EVENT', 'RATING'],
            happenedAt: i % 2 === 0 ? null : '2024-01-02T00:00:00.000Z',
          }),
        ),
      },
      () => undefined,
    )
    const dir = await mkdtemp(join(tmpdir(), 'engram-lexical-slices-'))
    dirs.push(dir)
    await saveLexicalSnapshot(built, dir)

    let pauses = 0
    const pause = () => {
      pauses++
      return new Promise<void>((resolve) => setImmediate(resolve))
    }
    const restored = await LexicalIndexes.restore({}, await loadLexicalSnapshot(dir, pause), pause)
    // The entity attributes alone take three slices, the ids of the entities and events two each.
    expect(pauses).toBeGreaterThan(6)

    const whole = LexicalIndexes.fromParts(
      {},
      decodeSnapshot(await readFile(join(dir, 'lexical.bin'))),
    )
    expect(restored).toEqual(whole)
    expect(restored.restored).toBe(true)
    expect(restored.toParts()).toEqual(built.toParts())
    expect(restored.entityInfo).toEqual(built.entityInfo)
    for (const index of ['entities', 'events', 'passages'] as const)
      expect(restored[index].search('movie 12 rated laptop', 5)).toEqual(
        built[index].search('movie 12 rated laptop', 5),
      )
  })
})

describe('lexical snapshots of entity names', () => {
  it('keep alias documents, and a snapshot of one text per entity is refused (rebuilt from the store)', async () => {
    const built = new LexicalIndexes()
    await built.apply(
      {
        entities: [
          entity({
            uuid: 'winep',
            name: 'Washington Institute for Near East Policy',
            aliases: ['WINEP'],
          }),
          entity({ uuid: 'other', name: 'WINEP report' }),
        ],
      },
      () => undefined,
    )
    const parts = built.toParts()
    const restored = LexicalIndexes.fromParts({}, parts)
    expect(restored.entities.search('WINEP', 5)).toEqual(built.entities.search('WINEP', 5))
    expect(restored.entities.search('WINEP', 5)[0]!.id).toBe('winep')
    // The layout before aliases were documents of their own stored the index as 'entities'.
    const rename = (names: Record<string, unknown> | undefined) =>
      Object.fromEntries(
        Object.entries(names ?? {}).map(([k, v]) => [k.replace(/^entityNames\./, 'entities.'), v]),
      )
    const old = {
      json: rename(parts.json),
      arrays: rename(parts.arrays),
      strings: rename(parts.strings),
    }
    expect(() => LexicalIndexes.fromParts({}, old as typeof parts)).toThrow()
  })
})

describe('lexical snapshot saves', () => {
  async function indexes(count: number): Promise<LexicalIndexes> {
    const lexical = new LexicalIndexes()
    await lexical.apply(
      {
        passages: Array.from({ length: count }, (_, i) =>
          passage({ id: `p${i}`, text: `passage ${i} about walruses`, position: i }),
        ),
      },
      () => undefined,
    )
    return lexical
  }

  it('in slices write the bytes a save in one go writes', async () => {
    const lexical = await indexes(3 * SLICE_ITEMS)
    const dir = await mkdtemp(join(tmpdir(), 'engram-lexical-save-'))
    dirs.push(dir)
    let pauses = 0
    const pause = () => {
      pauses++
      return new Promise<void>((resolve) => setImmediate(resolve))
    }
    await saveLexicalSnapshot(lexical, dir, { pause, changed: () => false })
    const file = await readFile(join(dir, 'lexical.bin'))
    expect(file.equals(encodeSnapshot(lexical.toParts()))).toBe(true)
    // The passage ids alone are three pieces.
    expect(pauses).toBeGreaterThan(3)
  })

  it('stop, writing nothing, when the caller says the indexes changed between two slices', async () => {
    const lexical = await indexes(3 * SLICE_ITEMS)
    const dir = await mkdtemp(join(tmpdir(), 'engram-lexical-save-'))
    dirs.push(dir)
    let written = false
    const pause = () => {
      // A write during a turn (`index-snapshots.ts` bumps the part's epoch before applying it).
      if (!written) {
        written = true
        return lexical.apply({ passages: [passage({ id: 'late', text: 'late walrus' })] }, () => {
          return undefined
        })
      }
      return undefined
    }
    const error = await saveLexicalSnapshot(lexical, dir, { pause, changed: () => written }).catch(
      (e: unknown) => e,
    )
    expect(isChangedDuringSave(error)).toBe(true)
    expect(await readdir(dir)).toEqual([])
  })
})
