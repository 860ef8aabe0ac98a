import { describe, expect, it } from 'vitest'
import type { Candidate, ChannelList, FusionOptions, FusionPlugin } from '../src/index.js'

export interface FusionSuiteOptions {
  /** A fresh fusion plugin. */
  create: () => FusionPlugin
  /** Options passed to `fuse` (e.g. `{ alpha: 0.3 }`); every test also runs without them. */
  options?: FusionOptions
}

const list = (name: string, signal: ChannelList['signal'], ...ids: string[]): ChannelList => ({
  name,
  signal,
  items: ids.map((id, i) => ({ id, score: (ids.length - i) * 1.5 })),
})

/** Lists as channels return them: a lexical and a dense list over the same passages, and a graph list. */
const LISTS: ChannelList[] = [
  list('passages', 'bm25', 'a', 'b', 'c', 'd'),
  list('passages_dense', 'dense', 'c', 'a', 'e'),
  list('entities', 'graph', 'x', 'y'),
]

/**
 * The conformance suite every fusion runs, built-in or `plugin:<name>` (issue 12 item 7): pure
 * function properties of `FusionPlugin.fuse` that the pipeline relies on. Every candidate of every
 * list comes out once with a finite score, and nothing else; no lists or only empty lists give [];
 * one list keeps its order; an id first in every list comes first; the result is the same for the same
 * input, and the input lists are not modified.
 */
export function runFusionSuite(options: FusionSuiteOptions): void {
  const fusion = options.create()
  const variants: [string, FusionOptions][] = [['default options', {}]]
  if (options.options !== undefined) variants.push(['given options', options.options])

  describe(`fusion conformance: ${fusion.name}`, () => {
    for (const [label, given] of variants) {
      describe(label, () => {
        const fuse = (lists: ChannelList[]): Candidate[] => options.create().fuse(lists, given)

        it('keeps every candidate once, with a finite score, and adds none', () => {
          const fused = fuse(LISTS)
          const ids = fused.map((c) => c.id)
          expect(new Set(ids).size).toBe(ids.length)
          expect([...ids].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'x', 'y'])
          expect(fused.every((c) => Number.isFinite(c.score))).toBe(true)
        })

        it('answers no lists and empty lists with []', () => {
          expect(fuse([])).toEqual([])
          expect(fuse([list('passages', 'bm25'), list('passages_dense', 'dense')])).toEqual([])
        })

        it('keeps the order of a single list', () => {
          expect(fuse([list('passages', 'bm25', 'c', 'a', 'b')]).map((c) => c.id)).toEqual([
            'c',
            'a',
            'b',
          ])
        })

        it('ranks first an id that is first in every list', () => {
          const lists = [
            list('passages', 'bm25', 'a', 'b', 'c'),
            list('passages_dense', 'dense', 'a', 'c', 'd'),
            list('plugin:probe', 'plugin', 'a', 'd'),
          ]
          expect(fuse(lists)[0]?.id).toBe('a')
        })

        it('is deterministic and leaves its input unchanged', () => {
          const lists = structuredClone(LISTS)
          const first = fuse(lists)
          expect(lists).toEqual(LISTS)
          expect(fuse(lists)).toEqual(first)
        })
      })
    }
  })
}
