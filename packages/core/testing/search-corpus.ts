import type {
  Embedder,
  Entity,
  Passage,
  Relationship,
  VectorRecord,
  WriteBatch,
} from '../src/index.js'
import { fixtures as f } from './fixtures.js'

const AT = '2025-01-01T00:00:00.000Z'

/**
 * A small brain for the plugin conformance suites: passages, entities of several labels, two events
 * and two clusters of relationships (people who build software, people who cook) joined by one edge,
 * so that lexical, dense, graph and community channels all have something to find.
 */
export interface SearchCorpus {
  passages: Passage[]
  entities: Entity[]
  relationships: Relationship[]
  /** Queries that match something in the corpus (every channel kind finds some of them). */
  queries: string[]
}

const passage = (id: string, text: string, position: number): Passage =>
  f.passage({
    id,
    text,
    metadata: { doc_id: `doc-${id}` },
    insertedAt: AT,
    brainVersion: 'conformance',
    source: null,
    position,
    end: text.length,
  })

const entity = (
  uuid: string,
  name: string,
  labels: string[],
  description: string | null,
  sourcePassageIds: string[],
  happenedAt: string | null = null,
): Entity =>
  f.entity({ uuid, name, description, labels, happenedAt, lastUpdated: AT, sourcePassageIds })

const relationship = (
  uuid: string,
  subjectUuid: string,
  name: string,
  objectUuid: string,
): Relationship =>
  f.relationship({ uuid, subjectUuid, objectUuid, name, description: null, lastUpdated: AT })

/**
 * The corpus of one brain. Ids and uuids are prefixed with `prefix`, so two brains built from it hold
 * disjoint records (the suites check that one brain's search never returns the other's).
 */
export function searchCorpus(prefix = ''): SearchCorpus {
  const id = (s: string) => `${prefix}${s}`
  const texts = [
    'Alice writes the Engram search engine in TypeScript and tests it with Vitest.',
    'Bob reviews the TypeScript code and runs the Node.js release of the search engine.',
    'The best new york pizza is sold near the station, says Carol.',
    'Carol cooks pasta with basil and tomato at the trattoria every Friday.',
    'Dave and Carol had dinner at the trattoria after the pasta cooking class.',
    'Mountains, bicycles and a long ride through the valley in spring.',
  ]
  const passages = texts.map((text, i) => passage(id(`p${i + 1}`), text, i))
  const p = (n: number) => [id(`p${n}`)]
  const entities = [
    entity(id('alice'), 'Alice', ['PERSON'], 'a software engineer', p(1)),
    entity(id('bob'), 'Bob', ['PERSON'], 'a code reviewer', p(2)),
    entity(id('typescript'), 'TypeScript', ['LANGUAGE'], 'a typed superset of JavaScript', p(1)),
    entity(id('node'), 'Node.js', ['RUNTIME'], 'a JavaScript runtime', p(2)),
    entity(id('engram'), 'Engram', ['PROJECT'], 'a search engine for memory', p(1)),
    entity(id('carol'), 'Carol', ['PERSON'], 'a chef who cooks pasta', p(4)),
    entity(id('dave'), 'Dave', ['PERSON'], null, p(5)),
    entity(id('pasta'), 'Pasta', ['DISH'], 'Italian noodles', p(4)),
    entity(id('trattoria'), 'Trattoria', ['PLACE'], 'an Italian restaurant', p(4)),
    entity(id('class'), 'Pasta cooking class', ['EVENT'], 'Carol teaches pasta', p(5), AT),
    entity(id('release'), 'Engram release', ['EVENT'], 'Bob releases the engine', p(2), AT),
  ]
  const r = (n: number, s: string, name: string, o: string) =>
    relationship(id(`r${n}`), id(s), name, id(o))
  const relationships = [
    r(1, 'alice', 'BUILDS', 'engram'),
    r(2, 'bob', 'REVIEWS', 'engram'),
    r(3, 'engram', 'WRITTEN_IN', 'typescript'),
    r(4, 'engram', 'RUNS_ON', 'node'),
    r(5, 'alice', 'WORKS_WITH', 'bob'),
    r(6, 'bob', 'PERFORMED', 'release'),
    r(7, 'carol', 'COOKS', 'pasta'),
    r(8, 'carol', 'WORKS_AT', 'trattoria'),
    r(9, 'dave', 'VISITS', 'trattoria'),
    r(10, 'carol', 'TEACHES', 'class'),
    r(11, 'dave', 'ATTENDED', 'class'),
    r(12, 'alice', 'LIKES', 'pasta'),
  ]
  return {
    passages,
    entities,
    relationships,
    queries: [
      'typescript search engine',
      'new york pizza',
      'pasta cooking at the trattoria',
      'Carol',
      'release of the engine',
    ],
  }
}

/** The corpus as one write batch, with vectors from `embedder` when given. */
export async function searchCorpusBatch(
  corpus: SearchCorpus,
  embedder?: Embedder,
): Promise<WriteBatch> {
  const batch: WriteBatch = {
    passages: corpus.passages,
    entities: corpus.entities,
    relationships: corpus.relationships,
  }
  if (embedder === undefined) return batch
  const signal = AbortSignal.timeout(30_000)
  const entityText = (e: Entity) => (e.description ? `${e.name}: ${e.description}` : e.name)
  const [passageVectors, entityVectors] = await Promise.all([
    embedder.embed(
      corpus.passages.map((p) => p.text),
      signal,
    ),
    embedder.embed(corpus.entities.map(entityText), signal),
  ])
  const vectors: VectorRecord[] = [
    ...corpus.passages.map((p, i) => ({ space: 'passages', id: p.id, vector: passageVectors[i]! })),
    ...corpus.entities.map((e, i) => ({
      space: 'entities',
      id: e.uuid,
      vector: entityVectors[i]!,
    })),
  ]
  return { ...batch, vectors }
}

/** FNV-1a, 32-bit. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/**
 * A deterministic bag-of-words embedder for tests (feature hashing, Weinberger et al. 2009): each
 * lower-cased word adds ±1 to one of `dimension` buckets, and the vector is normalised to unit length.
 * Texts that share words are close; it needs no model and no network.
 */
export function hashingTestEmbedder(dimension = 64): Embedder {
  const embedOne = (text: string) => {
    const v = new Float32Array(dimension)
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const h = fnv1a(word)
      v[h % dimension]! += h & 0x80000000 ? -1 : 1
    }
    const norm = Math.hypot(...v)
    return norm > 0 ? v.map((x) => x / norm) : v
  }
  return {
    kind: 'embedder',
    name: 'test-hashing-bow',
    dimension,
    embed: async (texts) => texts.map(embedOne),
  }
}
