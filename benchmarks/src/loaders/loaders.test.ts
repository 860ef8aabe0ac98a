import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadBeir, parseQrels } from './beir.js'
import { loadLocomo } from './locomo.js'
import { parseEvidenceIds } from './locomo-evidence.js'
import { leaveLastOut, loadMovieLens } from './movielens.js'
import { loadMusique } from './musique.js'
import { parseCsv } from './parse-csv.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'engram-bench-'))

describe('LoCoMo evidence ids', () => {
  it('tolerates the known malformed ids', () => {
    expect(parseEvidenceIds(['D8:6; D9:17'])).toEqual(['D8:6', 'D9:17'])
    expect(parseEvidenceIds(['D30:05', 'D30:5'])).toEqual(['D30:5'])
    expect(parseEvidenceIds(['D:11:26', 'D', ' D1:3 '])).toEqual(['D11:26', 'D1:3'])
  })
})

describe('loadLocomo', () => {
  it('makes one passage per turn and maps evidence within the conversation', () => {
    const dir = tmp()
    const conv = {
      sample_id: 'c1',
      conversation: {
        speaker_a: 'Ann',
        session_1_date_time: '1:00 pm on 8 May, 2023',
        session_1: [
          { speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a cat.' },
          { speaker: 'Bob', dia_id: 'D1:2', text: 'Nice!' },
        ],
      },
      qa: [
        { question: 'What did Ann adopt?', evidence: ['D1:01'], category: 4 },
        { question: 'Unanswerable?', evidence: ['D1:2'], category: 5 },
        { question: 'Lost?', evidence: ['D9:9'], category: 1 },
      ],
    }
    writeFileSync(join(dir, 'locomo-dev.json'), JSON.stringify([conv]))
    const ds = loadLocomo(dir, 'locomo')
    const g = ds.groups[0]!
    expect(g.docs[0]).toEqual({
      id: 'c1/D1:1',
      text: 'Ann: I adopted a cat.',
      metadata: { dia_id: 'D1:1', session: 1, session_date: '1:00 pm on 8 May, 2023' },
    })
    expect(g.queries.map((q) => q.id)).toEqual(['c1/q0'])
    expect([...g.qrels.get('c1/q0')!.keys()]).toEqual(['c1/D1:1'])
  })
})

describe('loadBeir', () => {
  it('reads corpus, judged queries and qrels with a header', () => {
    const dir = tmp()
    mkdirSync(join(dir, 'qrels'))
    writeFileSync(join(dir, 'corpus.jsonl'), '{"_id":"d1","title":"T","text":"body"}\n')
    writeFileSync(
      join(dir, 'queries.jsonl'),
      '{"_id":"1","text":"q one"}\n{"_id":"2","text":"unjudged"}\n',
    )
    writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\n1\td1\t1\n')
    const g = loadBeir(dir, 'x').groups[0]!
    expect(g.docs).toEqual([{ id: 'd1', title: 'T', text: 'body' }])
    expect(g.queries).toEqual([{ id: '1', text: 'q one' }])
    expect(parseQrels('1 0 d2 2\n1 0 d3 0\n').get('1')).toEqual(new Map([['d2', 2]]))
  })
})

describe('loadMusique', () => {
  it('matches supporting paragraphs to corpus passages on title + text', () => {
    const dir = tmp()
    const corpus = [
      { title: 'A', text: 'alpha' },
      { title: 'B', text: 'beta' },
      { title: 'A', text: 'other' },
    ]
    const questions = [
      {
        id: '2hop__1_2',
        question: 'q?',
        paragraphs: [
          { idx: 0, title: 'A', paragraph_text: 'other', is_supporting: true },
          { idx: 1, title: 'B', paragraph_text: 'beta', is_supporting: false },
        ],
      },
    ]
    writeFileSync(join(dir, 'hipporag_musique_train_corpus.json'), JSON.stringify(corpus))
    writeFileSync(join(dir, 'hipporag_musique_train.json'), JSON.stringify(questions))
    const g = loadMusique(dir, 'm').groups[0]!
    expect(g.docs.map((d) => d.id)).toEqual(['p0', 'p1', 'p2'])
    expect([...g.qrels.get('2hop__1_2')!.keys()]).toEqual(['p2'])
  })
})

describe('MovieLens', () => {
  it('parses quoted CSV fields', () => {
    expect(parseCsv('h1,h2\n1,"American President, The (1995)"\n2,"say ""hi"""\n')).toEqual([
      ['1', 'American President, The (1995)'],
      ['2', 'say "hi"'],
    ])
  })

  it('holds out each user last rating, ties broken by movieId', () => {
    const dir = tmp()
    writeFileSync(
      join(dir, 'ratings.csv'),
      'userId,movieId,rating,timestamp\n1,10,4.0,100\n1,30,3.0,200\n1,20,5.0,200\n2,5,1.0,50\n',
    )
    writeFileSync(
      join(dir, 'movies.csv'),
      'movieId,title,genres\n10,"X, The (1999)",Drama|Comedy\n',
    )
    writeFileSync(join(dir, 'tags.csv'), 'userId,movieId,tag,timestamp\n1,10,funny,120\n')
    const ml = loadMovieLens(dir)
    expect(ml.movies[0]).toEqual({
      movieId: 10,
      title: 'X, The (1999)',
      genres: ['Drama', 'Comedy'],
    })
    const split = leaveLastOut(ml.ratings)
    expect(split.test.get(1)?.movieId).toBe(30)
    expect(split.test.has(2)).toBe(false)
    expect(split.train.map((r) => r.movieId)).toEqual([10, 20, 5])
  })
})
