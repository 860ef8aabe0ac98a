import { describe, expect, it } from 'vitest'
import { Bm25Index } from './bm25-index.js'
import { kthLargest } from './top-k.js'

const plain = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean)

describe('Bm25Index', () => {
  it('reproduces hand-computed Lucene BM25 scores to 1e-6', () => {
    const index = new Bm25Index({ k1: 1.2, b: 0.75, analyze: plain })
    index.add('d1', 'cat cat dog')
    index.add('d2', 'dog bird')
    index.add('d3', 'fish')
    // N=3, avgdl=(3+2+1)/3=2. cat: df=1, idf=ln(1+(3-1+.5)/(1+.5))=ln(2.6667)=0.980829.
    // d1: tf=2, dl=3 -> norm=1.2*(0.25+0.75*1.5)=1.65 -> 0.980829*2/3.65=0.537440.
    // dog: df=2, idf=ln(1+1.5/2.5)=ln(1.6)=0.470004. d1: tf=1 -> 0.470004/2.65=0.177360.
    // d2: tf=1, dl=2 -> norm=1.2 -> 0.470004/2.2=0.213638.
    const hits = index.search('cat dog', 10)
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2'])
    expect(hits[0]!.score).toBeCloseTo(
      (Math.log(1 + 2.5 / 1.5) * 2) / 3.65 + Math.log(1.6) / 2.65,
      6,
    )
    expect(hits[0]!.score).toBeCloseTo(0.7148005, 6)
    expect(hits[1]!.score).toBeCloseTo(0.213638, 6)
    expect(index.explain('cat dog', 'd1').value).toBeCloseTo(hits[0]!.score, 9)
  })

  it('counts repeated query terms, breaks ties by id and honours filters', () => {
    const index = new Bm25Index({ analyze: plain })
    index.add('b', 'apple')
    index.add('a', 'apple')
    index.add('c', 'pear')
    expect(index.search('apple', 5).map((h) => h.id)).toEqual(['a', 'b'])
    expect(index.search('apple apple', 5)[0]!.score).toBeCloseTo(
      2 * index.search('apple', 5)[0]!.score,
      9,
    )
    expect(index.search('apple', 5, (id) => id !== 'a').map((h) => h.id)).toEqual(['b'])
    expect(index.search('unknown', 5)).toEqual([])
  })

  it('supports replace, delete and compaction with statistics kept exact', () => {
    const index = new Bm25Index({ analyze: plain })
    for (let i = 0; i < 3000; i++) index.add(`d${i}`, i % 2 === 0 ? 'even number' : 'odd number')
    const reference = new Bm25Index({ analyze: plain })
    for (let i = 0; i < 3000; i++) {
      if (i % 3 === 0) index.remove(`d${i}`)
      else reference.add(`d${i}`, i % 2 === 0 ? 'even number' : 'odd number')
    }
    index.add('d1', 'odd odd number')
    reference.add('d1', 'odd odd number')
    expect(index.size).toBe(reference.size)
    const a = index.search('odd number', 20)
    const b = reference.search('odd number', 20)
    expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id))
    a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 9))
  })

  it('returns the same top k as exhaustive scoring despite pruning', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`)
    let seed = 7
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const index = new Bm25Index({ analyze: plain })
    const docs: string[] = []
    for (let d = 0; d < 2000; d++) {
      const text = Array.from(
        { length: 5 + Math.floor(rand() * 30) },
        () => words[Math.floor(rand() ** 2 * words.length)],
      ).join(' ')
      docs.push(text)
      index.add(`d${String(d).padStart(4, '0')}`, text)
    }
    for (let q = 0; q < 20; q++) {
      const query = Array.from({ length: 4 }, () => words[Math.floor(rand() * words.length)]).join(
        ' ',
      )
      const top = index.search(query, 10)
      const all = index.search(query, 100000)
      expect(top).toEqual(all.slice(0, 10))
    }
  })

  it('stays exact when documents change between queries', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon']
    const text = (i: number) =>
      Array.from({ length: 3 + (i % 7) }, (_, j) => words[(i * 3 + j * j) % words.length]).join(' ')
    const index = new Bm25Index({ analyze: plain })
    const live = new Map<string, string>()
    for (let step = 0; step < 300; step++) {
      // Adds, replacements and deletes interleaved with queries: length norms and score buffers are
      // kept between queries and must follow every change.
      const id = `d${step % 120}`
      if (step % 5 === 4) {
        index.remove(id)
        live.delete(id)
      } else {
        index.add(id, text(step))
        live.set(id, text(step))
      }
      if (step % 10 === 0) {
        const fresh = new Bm25Index({ analyze: plain })
        for (const [doc, t] of live) fresh.add(doc, t)
        for (const query of ['alpha beta', 'gamma', 'delta epsilon alpha']) {
          const a = index.search(query, 7)
          const b = fresh.search(query, 7)
          expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id))
          a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 9))
        }
      }
    }
  })
})

describe('kthLargest', () => {
  it('is the k-th largest score of the listed documents, -Infinity when there are fewer', () => {
    const scores = Float64Array.from([5, 1, 9, 3, 9, 0])
    expect(kthLargest(scores, [0, 1, 2, 3, 4, 5], 1)).toBe(9)
    expect(kthLargest(scores, [0, 1, 2, 3, 4, 5], 2)).toBe(9)
    expect(kthLargest(scores, [0, 1, 2, 3, 4, 5], 3)).toBe(5)
    expect(kthLargest(scores, [1, 3, 5], 3)).toBe(0)
    expect(kthLargest(scores, [1, 3], 3)).toBe(-Infinity)
  })
})
