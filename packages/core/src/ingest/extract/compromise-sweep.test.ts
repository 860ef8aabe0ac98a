import nlp from 'compromise'
import { describe, expect, it } from 'vitest'
import { bulkMatch, COMPROMISE_VERSION, installBulkMatch } from './compromise-sweep.js'

type World = { methods: { one: Record<string, unknown> } }
type BulkMatch = (
  document: unknown[][],
  net: unknown,
  methods: unknown,
  opts?: Record<string, unknown>,
) => unknown[]
const world = nlp.world() as unknown as World

const TEXTS = [
  "Hey Mel! Good to see you! How've you been? I went to a LGBTQ support group yesterday, and it was so powerful.",
  'Caroline, that sounds amazing; tell me more about the adoption agency in Boston, Massachusetts.',
  'Dr. Wilfried Schneider (born 12 March 1959) is a German politician of the CDU who served as mayor of Mediaș.',
  "Marie Curie won the Nobel Prize in 1903 with Pierre Curie; she wasn't the last woman to win it.",
  'Myelodysplastic syndromes (MDS) are age-dependent stem cell malignancies that share biological features.',
  "I will be there at 5pm on Friday, if the trains run, which they won’t, and then we'll see.",
  "They're walking, talking and singing - all at once. Will Smith will sing. May may come in May.",
  'The 2002 Winter Olympics were held in Salt Lake City, Utah, and cost about $2 billion.',
  // Short sentences, where a rule's minimum word count decides.
  'Run. Go home now. Yes, I will. Not bad at all! Is it? Thanks, Jon. Sounds great, see you soon.',
  'Sounds awesome, Caroline! Have a great time and learn a lot. Have fun!',
  "Totally agree, Mel. Relaxing and expressing ourselves is key. Well, I'm off to go do some research.",
]

/** Parses with the sweep in place, the terms' random ids left out. */
function parseAll(): string {
  return JSON.stringify(
    TEXTS.map((text) => {
      const doc = nlp(text)
      return {
        json: doc.json({ offset: true, terms: { tags: true, offset: true } }),
        people: doc.match('#Person+').out('array'),
        any: doc
          .match([{ match: '#Place' }, { match: 'the #Noun' }, { match: '#Value #Unit?' }])
          .out('array'),
        one: doc.matchOne('#Verb').out('array'),
      }
    }),
    (key, value: unknown) => (key === 'id' ? undefined : value),
  )
}

describe('compromise rule sweep (bulkMatch)', () => {
  it('follows the compromise release installed (pinned in package.json)', () => {
    expect(nlp.version).toBe(COMPROMISE_VERSION)
  })

  it('tags and matches as compromise does', () => {
    installBulkMatch(world, nlp.version)
    const ours = world.methods.one.bulkMatch as { original: unknown }
    expect(ours.original).toBeTypeOf('function')
    const withOurs = parseAll()
    world.methods.one.bulkMatch = ours.original
    try {
      expect(withOurs).toBe(parseAll())
    } finally {
      world.methods.one.bulkMatch = ours
    }
  })

  it('finds the rule matches compromise finds, in its order, for the nets a parse sweeps', () => {
    installBulkMatch(world, nlp.version)
    const installed = world.methods.one.bulkMatch as BulkMatch & { original: BulkMatch }
    // Every sweep of these parses (the post-tagger's rules, match lists), its arguments recorded.
    const calls: Parameters<BulkMatch>[] = []
    world.methods.one.bulkMatch = (...args: Parameters<BulkMatch>) => {
      calls.push(args)
      return installed.original(...args)
    }
    try {
      parseAll()
    } finally {
      world.methods.one.bulkMatch = installed
    }
    const found = (list: unknown[]) =>
      JSON.stringify(
        (list as { match: string; pointer: unknown[] }[]).map((f) => [f.match, f.pointer]),
      )
    const ours = bulkMatch()
    let matched = 0
    for (const [document, net, methods, opts] of calls) {
      const expected = installed.original(document, net, methods, { ...opts, tagger: false })
      const actual = (ours as unknown as BulkMatch)(document, net, methods, {
        ...opts,
        tagger: false,
      })
      expect(found(actual)).toBe(found(expected))
      matched += expected.length
    }
    expect(calls.length).toBeGreaterThan(TEXTS.length)
    expect(matched).toBeGreaterThan(0)
  })

  it('leaves another compromise release its own sweep', () => {
    const other = { methods: { one: { bulkMatch: () => [] as unknown[] } } }
    const own = other.methods.one.bulkMatch
    installBulkMatch(other, '14.18.0')
    expect(other.methods.one.bulkMatch).toBe(own)
  })

  it('is installed once', () => {
    installBulkMatch(world, nlp.version)
    const first = world.methods.one.bulkMatch
    installBulkMatch(world, nlp.version)
    expect(world.methods.one.bulkMatch).toBe(first)
  })
})
