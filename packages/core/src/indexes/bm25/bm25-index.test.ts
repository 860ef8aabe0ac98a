import { describe, expect, it } from 'vitest'
import { BM25_VARIANTS, Bm25Index, resolveBm25Settings } from './bm25-index.js'
import { countAbove, kthLargest } from './top-k.js'

const plain = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean)

/** Three short documents under Lucene BM25 (k1 1.2, b 0.75) and whitespace analysis. */
function threeDocs(): Bm25Index {
  const index = new Bm25Index({ variant: 'lucene', k1: 1.2, b: 0.75, analyze: plain })
  index.add('d1', 'cat cat dog')
  index.add('d2', 'dog bird')
  index.add('d3', 'fish')
  return index
}

describe('Bm25Index', () => {
  it('reproduces hand-computed Lucene BM25 scores to 1e-6', () => {
    const index = threeDocs()
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

  // The same corpus: N=3, avgdl=2, k1=1.2, b=0.75. norm = 1 - b + b * dl / avgdl: d1 (dl 3) 1.375,
  // d2 (dl 2) 1. cat: df 1, tf 2 in d1; dog: df 2, tf 1 in d1 and d2.
  const tiny = (variant: 'atire' | 'bm25l' | 'bm25+') => {
    const index = new Bm25Index({ variant, k1: 1.2, b: 0.75, analyze: plain })
    index.add('d1', 'cat cat dog')
    index.add('d2', 'dog bird')
    index.add('d3', 'fish')
    return index
  }

  it('reproduces hand-computed ATIRE scores', () => {
    // idf = ln(N/df): cat ln 3 = 1.098612, dog ln 1.5 = 0.405465; tf part 2.2 tf / (tf + 1.2 norm).
    // d1: 1.098612 * 4.4/3.65 + 0.405465 * 2.2/2.65 = 1.324355 + 0.336613; d2: 0.405465 * 2.2/2.2.
    const hits = tiny('atire').search('cat dog', 10)
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2'])
    expect(hits[0]!.score).toBeCloseTo(1.660968, 5)
    expect(hits[1]!.score).toBeCloseTo(0.405465, 6)
  })

  it('reproduces hand-computed BM25L scores (delta 0.5)', () => {
    // idf = ln((N+1)/(df+0.5)): cat ln(4/1.5) = 0.980829, dog ln(4/2.5) = 0.470004.
    // c = tf/norm + delta; tf part 2.2 c / (1.2 + c). d1: cat c = 1.954545 -> 1.363112, dog
    // c = 1.227273 -> 1.112360; d2: dog c = 1.5 -> 1.222222.
    const index = tiny('bm25l')
    expect(index.settings.delta).toBe(0.5)
    const hits = index.search('cat dog', 10)
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2'])
    expect(hits[0]!.score).toBeCloseTo(0.980829 * 1.363112 + 0.470004 * 1.11236, 5)
    expect(hits[0]!.score).toBeCloseTo(1.859794, 5)
    expect(hits[1]!.score).toBeCloseTo(0.574449, 5)
  })

  it('reproduces hand-computed BM25+ scores (delta 1)', () => {
    // idf = ln((N+1)/df): cat ln 4 = 1.386294, dog ln 2 = 0.693147; tf part 2.2 tf / (tf + 1.2 norm) + 1.
    // d1: 1.386294 * (1.205479 + 1) + 0.693147 * (0.830189 + 1); d2: 0.693147 * (1 + 1).
    const index = tiny('bm25+')
    expect(index.settings.delta).toBe(1)
    const hits = index.search('cat dog', 10)
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2'])
    expect(hits[0]!.score).toBeCloseTo(4.326034, 5)
    expect(hits[1]!.score).toBeCloseTo(1.386294, 5)
    const explained = index.explain('cat dog', 'd1')
    expect(explained.value).toBeCloseTo(hits[0]!.score, 9)
    expect(explained.description).toBe('bm25 bm25+ (k1=1.2, b=0.75, delta=1), sum of:')
  })

  it('reconfigures scoring without re-indexing', () => {
    const index = tiny('atire')
    index.configure({ variant: 'bm25+', k1: 1.2, b: 0.75 })
    expect(index.search('cat dog', 10)).toEqual(tiny('bm25+').search('cat dog', 10))
    index.configure({ variant: 'lucene', k1: 1.2, b: 0.75 })
    expect(index.search('cat dog', 10)[0]!.score).toBeCloseTo(0.7148005, 6)
    expect(index.explain('cat dog', 'd1').description).toBe('bm25 lucene (k1=1.2, b=0.75), sum of:')
  })

  it('fills defaults and rejects out-of-range settings', () => {
    expect(resolveBm25Settings({})).toEqual({ variant: 'bm25+', k1: 2, b: 0.5, delta: 1 })
    expect(resolveBm25Settings({ variant: 'bm25l' }).delta).toBe(0.5)
    expect(resolveBm25Settings({ variant: 'lucene', delta: 0.3 }).delta).toBe(0.3)
    expect(() => resolveBm25Settings({ b: 1.5 })).toThrow(/b must be in \[0, 1\]/)
    expect(() => resolveBm25Settings({ k1: -1 })).toThrow(/k1 must be/)
    expect(() => resolveBm25Settings({ delta: Number.NaN })).toThrow(/delta must be/)
    expect(() => resolveBm25Settings({ variant: 'okapi' as 'lucene' })).toThrow(/variant must be/)
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

  it('keeps a document replaced by the same terms as it is, and replaces it when they differ', () => {
    const index = new Bm25Index({ analyze: plain })
    index.add('a', 'red apple')
    index.add('b', 'green apple apple')
    const bytes = index.bytes()
    const before = index.search('apple red', 5)
    // Same terms and counts, in another order: nothing changes, no dead document is left behind.
    index.add('b', 'apple green apple')
    expect(index.bytes()).toBe(bytes)
    expect(index.search('apple red', 5)).toEqual(before)
    // Same terms, another count; then a term more: each is a replacement.
    index.add('b', 'green apple')
    expect(index.bytes()).toBeGreaterThan(bytes)
    const reference = new Bm25Index({ analyze: plain })
    reference.add('a', 'red apple')
    reference.add('b', 'green apple')
    expect(index.search('apple green', 5)).toEqual(reference.search('apple green', 5))
    index.add('b', 'green apple pie')
    reference.add('b', 'green apple pie')
    expect(index.search('pie apple', 5)).toEqual(reference.search('pie apple', 5))
    expect(index.explain('pie apple', 'b').value).toBeCloseTo(
      reference.explain('pie apple', 'b').value,
      12,
    )
  })

  it.each(BM25_VARIANTS)(
    'returns the same top k as exhaustive scoring despite pruning (%s)',
    (variant) => {
      const words = Array.from({ length: 60 }, (_, i) => `w${i}`)
      let seed = 7
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      // b = 1 and a large delta stretch the variants' bounds: long documents score least, BM25+ adds
      // delta to every matching term. A fifth of the documents repeat one word up to 30 times: short
      // and saturated, they come near a term's bound and win on a common term alone.
      const index = new Bm25Index({ variant, k1: 1.5, b: 1, delta: 2, analyze: plain })
      for (let d = 0; d < 2000; d++) {
        const word = () => words[Math.floor(rand() ** 2 * words.length)]
        const text =
          rand() < 0.2
            ? Array.from(
                { length: 1 + Math.floor(rand() * 30) },
                () => words[d % words.length],
              ).join(' ')
            : Array.from({ length: 5 + Math.floor(rand() * 30) }, word).join(' ')
        index.add(`d${String(d).padStart(4, '0')}`, text)
      }
      for (let q = 0; q < 40; q++) {
        const query = Array.from(
          { length: 2 + (q % 5) },
          () => words[Math.floor(rand() * words.length)],
        ).join(' ')
        const all = index.search(query, 100000)
        for (const k of [1, 3, 10]) expect(index.search(query, k)).toEqual(all.slice(0, k))
      }
    },
  )

  it.each(BM25_VARIANTS)('admits a document that wins on a later term alone (%s)', (variant) => {
    // 'a' (df 1) is scored first; the long X holds it once. 'b' (df 12) has a lower idf, but the short
    // Y repeats it until it nears the term's bound: Y beats X only if that bound (with delta, k1 + 1)
    // is used when deciding to stop admitting new documents after 'a'.
    const index = new Bm25Index({ variant, analyze: plain })
    const filler = (n: number) => Array.from({ length: n }, () => 'f').join(' ')
    index.add('x', `a ${filler(20)}`)
    index.add('y', 'b b b b b b b b')
    for (let i = 0; i < 11; i++) index.add(`b${i}`, `b ${filler(20)}`)
    for (let i = 0; i < 87; i++) index.add(`f${i}`, filler(3))
    const all = index.search('a b', 100)
    expect(all[0]!.id).toBe('y')
    expect(index.search('a b', 1)).toEqual(all.slice(0, 1))
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

describe('Bm25Index.termWeights', () => {
  it("gives a text's distinct indexed terms with the variant's idf, rarest first", () => {
    const index = threeDocs()
    // cat: df 1, ln(1 + 2.5/1.5); dog: df 2, ln(1.6); 'zebra' is in no document, 'dog' counts once.
    expect(index.termWeights('dog zebra cat dog')).toEqual([
      { term: 'cat', idf: Math.log(1 + 2.5 / 1.5) },
      { term: 'dog', idf: Math.log(1.6) },
    ])
    index.configure({ variant: 'atire' })
    expect(index.termWeights('dog cat').map((t) => t.idf)).toEqual([Math.log(3), Math.log(1.5)])
    // A term whose only document is deleted is left out.
    index.remove('d3')
    expect(index.termWeights('fish')).toEqual([])
  })

  it("analyses with the index's own chain (stemming, stopwords)", () => {
    const index = new Bm25Index()
    index.add('a', 'The rivers of Zimbabwe')
    index.add('b', 'A waterfall')
    expect(index.termWeights('Which river is in the country?').map((t) => t.term)).toEqual([
      'river',
    ])
  })
})

describe('Bm25Index.heldTerms', () => {
  it("is termWeights of the document's text restricted to the terms asked, in their order", () => {
    const texts = [
      'The Bubye River is a river in the country Zimbabwe, rivers and more rivers',
      'Victoria Falls is a waterfall in Zimbabwe; covid19 p53 mutations',
      'Unrelated text about cats',
      '',
    ]
    const index = new Bm25Index()
    texts.forEach((text, i) => index.add(`d${i}`, text))
    const asked = index
      .termWeights(texts.join(' ') + ' absent words')
      .map((t) => t.term)
      .concat(['nowhere'])
    texts.forEach((text, i) => {
      const inText = new Set(index.termWeights(text).map((t) => t.term))
      expect(index.heldTerms(`d${i}`, asked)).toEqual(asked.filter((t) => inText.has(t)))
    })
    expect(index.heldTerms('d0', [])).toEqual([])
    expect(index.heldTerms('missing', asked)).toBeUndefined()
    // Replaced, removed and compacted documents answer for what the index now holds.
    index.add('d2', 'a waterfall now')
    expect(index.heldTerms('d2', ['waterfal', 'cat'])).toEqual(['waterfal'])
    index.remove('d1')
    expect(index.heldTerms('d1', asked)).toBeUndefined()
    index.compact()
    expect(index.heldTerms('d0', ['zimbabw', 'river', 'waterfal'])).toEqual(['zimbabw', 'river'])
  })
})

describe('Bm25Index.spread', () => {
  it('counts the live documents holding the rarest analysed term of a text', () => {
    const index = new Bm25Index()
    index.add('a', 'Peter Bonetti kept goal for Chelsea')
    index.add('b', 'Chelsea won the cup; Peter scored')
    index.add('c', 'Rivers of Zimbabwe')
    expect(index.spread('Peter Bonetti')).toEqual({ holding: 1, total: 3 })
    expect(index.spread('Chelsea')).toEqual({ holding: 2, total: 3 })
    // A term no document holds: none holds the whole text.
    expect(index.spread('Peter Shilton')).toEqual({ holding: 0, total: 3 })
    // Stopwords only: every document.
    expect(index.spread('the of')).toEqual({ holding: 3, total: 3 })
    index.remove('a')
    expect(index.spread('Peter Bonetti')).toEqual({ holding: 0, total: 2 })
    expect(index.spread('Peter')).toEqual({ holding: 1, total: 2 })
  })
})

describe('kthLargest', () => {
  it('is the k-th largest score of the first `count` listed documents, -Infinity when there are fewer', () => {
    const scores = Float64Array.from([5, 1, 9, 3, 9, 0])
    const all = [0, 1, 2, 3, 4, 5]
    expect(kthLargest(scores, all, 6, 1)).toBe(9)
    expect(kthLargest(scores, all, 6, 2)).toBe(9)
    expect(kthLargest(scores, all, 6, 3)).toBe(5)
    expect(kthLargest(scores, [1, 3, 5], 3, 3)).toBe(0)
    expect(kthLargest(scores, [1, 3], 2, 3)).toBe(-Infinity)
    // Only the first `count`: a reused buffer holds stale documents past it.
    expect(kthLargest(scores, Int32Array.from([1, 3, 2, 4]), 2, 1)).toBe(3)
    expect(kthLargest(scores, Int32Array.from([1, 3, 2, 4]), 2, 3)).toBe(-Infinity)
  })
})

describe('countAbove', () => {
  it('counts the first `count` listed scores above the bound, stopping at `enough`', () => {
    const scores = Float64Array.from([5, 1, 9, 3, 9, 0])
    const all = [0, 1, 2, 3, 4, 5]
    expect(countAbove(scores, all, 6, 3, 10)).toBe(3)
    expect(countAbove(scores, all, 6, 9, 10)).toBe(0)
    expect(countAbove(scores, all, 6, 0, 2)).toBe(2)
    expect(countAbove(scores, Int32Array.from([2, 4, 0]), 2, 3, 10)).toBe(2)
  })
})

describe('Bm25Index.search, pruned', () => {
  it('ranks as scoring every document would: the top k by score, ties by id', () => {
    // A seeded corpus with a Zipf-like vocabulary (rare words admit few documents, common ones many),
    // repeated words (tf above 1) and duplicate texts (equal scores), so that the early stop of
    // admission and the final selection both decide.
    let seed = 7
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    const word = () => `w${Math.floor(40 * random() ** 3)}`
    const index = new Bm25Index({ analyze: plain })
    const ids: string[] = []
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: 3 + Math.floor(random() * 25) }, word).join(' ')
      for (const id of i % 50 === 0 ? [`d${i}`, `d${i}x`] : [`d${i}`]) {
        index.add(id, text)
        ids.push(id)
      }
    }
    for (let q = 0; q < 60; q++) {
      const query = Array.from({ length: 1 + (q % 6) }, word).join(' ')
      const every = ids
        .map((id) => ({ id, score: index.explain(query, id).value }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      for (const k of [1, 5, 50]) {
        const got = index.search(query, k)
        expect(got.map((h) => h.id)).toEqual(every.slice(0, k).map((h) => h.id))
        got.forEach((h, i) => expect(h.score).toBeCloseTo(every[i]!.score, 9))
        // A filter drops documents before the early stop counts them: the k best it accepts.
        const odd = (id: string) => Number.parseInt(id.slice(1), 10) % 2 === 1
        const filtered = every.filter((h) => odd(h.id)).slice(0, k)
        expect(index.search(query, k, odd).map((h) => h.id)).toEqual(filtered.map((h) => h.id))
      }
    }
  })
})

describe('Bm25Index forgetting', () => {
  it('drops a word from the dictionary when its last document goes, and scores as if it never came', () => {
    const kept = new Bm25Index()
    const forgot = new Bm25Index()
    for (const index of [kept, forgot]) {
      index.add('a', 'the lighthouse keeper trims the wick')
      index.add('b', 'ships pass the reef at night')
    }
    forgot.add('c', 'a quixotrellian storm broke the lantern')
    forgot.remove('c')
    expect(forgot.termWeights('quixotrellian storm')).toEqual([])
    expect(forgot.search('quixotrellian', 5)).toEqual([])
    expect(forgot.search('the reef', 5)).toEqual(kept.search('the reef', 5))
    forgot.add('d', 'quixotrellian again')
    expect(forgot.search('quixotrellian', 5).map((h) => h.id)).toEqual(['d'])
  })
})

describe('Bm25Index compact storage', () => {
  it('scores term frequencies past one byte of the encoding as the formula says', () => {
    // tf 300 takes two bytes in the postings; lucene, k1 1.2, b 0: tf part tf / (tf + 1.2).
    const index = new Bm25Index({ variant: 'lucene', k1: 1.2, b: 0, analyze: plain })
    index.add('long', Array.from({ length: 300 }, () => 'x').join(' '))
    index.add('short', 'x y')
    const idf = Math.log(1 + 0.5 / 2.5)
    const hits = index.search('x', 2)
    expect(hits.map((h) => h.id)).toEqual(['long', 'short'])
    expect(hits[0]!.score).toBeCloseTo((idf * 300) / 301.2, 12)
    expect(index.explain('x', 'long').details[0]!.details[2]!.value).toBe(300)
  })

  it('renumbers terms at compaction: a dropped word comes back as a new one, scores unchanged', () => {
    const index = new Bm25Index({ analyze: plain })
    const reference = new Bm25Index({ analyze: plain })
    for (let i = 0; i < 4000; i++) index.add(`d${i}`, `w${i % 50} common rare${i}`)
    const bytesFull = index.bytes()
    // Removing half the documents compacts (more than 1,000 and a quarter dead): their rare words go.
    for (let i = 0; i < 4000; i++) {
      if (i % 2 === 0) index.remove(`d${i}`)
      else reference.add(`d${i}`, `w${i % 50} common rare${i}`)
    }
    expect(index.bytes()).toBeLessThan(bytesFull * 0.75)
    expect(index.termWeights('rare0 rare1')).toEqual(reference.termWeights('rare0 rare1'))
    index.add('back', 'rare0 common')
    reference.add('back', 'rare0 common')
    for (const query of ['rare0', 'common w3 rare7', 'w4 rare0 rare9']) {
      expect(index.search(query, 10)).toEqual(reference.search(query, 10))
    }
    expect(index.explain('rare0 common', 'back')).toEqual(reference.explain('rare0 common', 'back'))
  })
})
