import { describe, expect, it } from 'vitest'
import { Bm25Index } from './bm25-index.js'
import { NamesBm25Index } from './names-bm25-index.js'

const plain = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean)
const names = () => new NamesBm25Index(new Bm25Index({ analyze: plain }))

describe('NamesBm25Index', () => {
  it('scores a thing named by its alias as one whose only name that is', () => {
    const index = names()
    index.put('institute', 'washington institute for near east policy', ['winep'])
    index.put('other', 'winep', [])
    index.put('filler', 'greenhouse gas', [])
    const hits = index.search('winep', 10)
    expect(hits.map((h) => h.id).sort()).toEqual(['institute', 'other'])
    expect(hits[0]!.score).toBeCloseTo(hits[1]!.score, 12)
    // In one text of all its names the alias weighed less than the one-word name.
    const joined = new Bm25Index({ analyze: plain })
    joined.add('institute', 'washington institute for near east policy winep')
    joined.add('other', 'winep')
    joined.add('filler', 'greenhouse gas')
    const [first, second] = joined.search('winep', 10)
    expect(first!.id).toBe('other')
    expect(second!.score).toBeLessThan(first!.score * 0.9)
  })

  it('gives each thing once, its best document, and k things when alias documents crowd the top', () => {
    const index = names()
    index.put('a', 'alpha', ['alpha one', 'alpha two', 'alpha three'])
    index.put('b', 'beta alpha', [])
    index.put('c', 'gamma alpha words here', [])
    const hits = index.search('alpha', 2)
    expect(hits.map((h) => h.id)).toEqual(['a', 'b'])
    expect(index.search('alpha', 5).map((h) => h.id)).toEqual(['a', 'b', 'c'])
  })

  it('asks the filter about things, not their alias documents', () => {
    const index = names()
    index.put('a', 'first', ['shared'])
    index.put('b', 'shared name', [])
    const asked: string[] = []
    const hits = index.search('shared', 5, (id) => (asked.push(id), id !== 'b'))
    expect(hits.map((h) => h.id)).toEqual(['a'])
    expect(asked.sort()).toEqual(['a', 'b'])
  })

  it('drops alias documents a replacement no longer names, and all of them on remove', () => {
    const index = names()
    index.put('a', 'first', ['second', 'third'])
    expect(index.size).toBe(3)
    index.put('a', 'first', ['second'])
    expect(index.size).toBe(2)
    expect(index.search('third', 5)).toEqual([])
    expect(index.search('second', 5).map((h) => h.id)).toEqual(['a'])
    expect(index.remove('a')).toBe(true)
    expect(index.size).toBe(0)
    expect(index.remove('a')).toBe(false)
  })

  it('says which terms a thing holds in any of its names', () => {
    const index = names()
    index.put('a', 'escuela latinoamericana', ['elam'])
    expect(index.heldTerms('a', ['elam', 'havana', 'escuela'])).toEqual(['elam', 'escuela'])
    expect(index.heldTerms('missing', ['elam'])).toBeUndefined()
  })
})
