import type { TextIngestPayload } from '@engram/core'
import type { IngestTaskSpec } from '../ingest/locomo-tasks.js'
import { mulberry32 } from '../scale/synthetic-corpus.js'

/**
 * A SYNTHETIC corpus for issue 28's invalidation cost: people who move and change employer, one statement
 * per task ("Mara Okafor lives in Lisbon.", "Mara Okafor moved to Berlin.", "Mara Okafor works for
 * Siemens."), each dated by its `source_timestamp`, so every statement after a person's first fills a
 * single-valued slot (residence, employer) someone already holds and the contradiction path runs on
 * nearly every task. Tasks arrive in a shuffled order (seeded), so older facts often arrive after newer
 * ones: the out-of-order case ends the late arrival itself. No real data of this shape exists (LoCoMo
 * states few single-valued facts), hence synthetic; every table that uses it says so.
 */

const FIRST = [
  'Mara',
  'Tomas',
  'Ines',
  'Kofi',
  'Lena',
  'Ravi',
  'Sofia',
  'Jonas',
  'Amara',
  'Felix',
  'Yuki',
  'Omar',
  'Clara',
  'Mateo',
  'Hana',
  'Pavel',
  'Nadia',
  'Elias',
  'Zara',
  'Bruno',
  'Leila',
  'Anton',
  'Maya',
  'Dario',
  'Freya',
  'Ivan',
  'Noor',
  'Hugo',
  'Selma',
  'Kenji',
  'Olga',
  'Rafael',
  'Tara',
  'Emil',
  'Aisha',
  'Luca',
  'Greta',
  'Samir',
  'Vera',
  'Arjun',
]
const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Haddad',
  'Novak',
  'Sato',
  'Brennan',
  'Castillo',
  'Weber',
  'Kowalski',
  'Rossi',
  'Nakamura',
  'Dubois',
  'Petrov',
  'Silva',
  'Fischer',
  'Jansen',
  'Ferreira',
  'Larsen',
  'Horvat',
  'Mendes',
  'Ibrahim',
  'Varga',
  'Schmidt',
  'Costa',
  'Bianchi',
  'Olsen',
  'Kaur',
  'Tanaka',
  'Andersson',
  'Ortiz',
  'Popescu',
  'Hoffmann',
  'Ali',
  'Nieminen',
  'Duarte',
  'Kovacs',
  'Berg',
  'Romano',
  'Yilmaz',
  'Muller',
  'Lopez',
  'Ward',
  'Kim',
  'Evans',
  'Quinn',
  'Marsh',
  'Holt',
  'Reyes',
  'Stone',
]
const CITIES = [
  'Lisbon',
  'Berlin',
  'Madrid',
  'Vienna',
  'Prague',
  'Oslo',
  'Dublin',
  'Warsaw',
  'Athens',
  'Rome',
  'Paris',
  'Helsinki',
  'Budapest',
  'Copenhagen',
  'Zurich',
  'Munich',
  'Milan',
  'Seville',
  'Porto',
  'Krakow',
]
const EMPLOYERS = [
  'Siemens',
  'Bosch',
  'Philips',
  'Ericsson',
  'Nokia',
  'Airbus',
  'Unilever',
  'Heineken',
  'Spotify',
  'Adidas',
  'Ikea',
  'Lego',
  'Novartis',
  'Roche',
  'Danone',
  'Renault',
]

export interface MovesCorpusOptions {
  /** People (at most FIRST x LAST names). */
  readonly people: number
  /** Residence statements per person (the first "lives in", the others "moved to"). */
  readonly homes: number
  /** Employer statements per person ("works for"). */
  readonly employers: number
  readonly seed?: number
  readonly brainId?: string
}

/** One person's dated statements, in event-time order, for queries about the past. */
export interface MovesPerson {
  readonly name: string
  /** Each statement's text and its `source_timestamp` (ISO), oldest first. */
  readonly statements: readonly { readonly text: string; readonly at: string }[]
}

export interface MovesCorpus {
  readonly people: readonly MovesPerson[]
  /** The tasks in arrival order (shuffled). */
  readonly tasks: readonly IngestTaskSpec[]
}

const DAY = 86_400_000
const START = Date.UTC(2015, 0, 1)

/** Builds the corpus: each statement at least 60 days after the previous one of its person. */
export function movesCorpus(options: MovesCorpusOptions): MovesCorpus {
  const { people: n, homes, employers, seed = 28, brainId = 'moves' } = options
  if (n > FIRST.length * LAST.length)
    throw new Error(`movesCorpus: at most ${FIRST.length * LAST.length} people`)
  const random = mulberry32(seed)
  const pick = <T>(list: readonly T[], not?: T): T => {
    for (;;) {
      const x = list[Math.floor(random() * list.length)]!
      if (x !== not) return x
    }
  }
  const people: MovesPerson[] = []
  for (let i = 0; i < n; i++) {
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length)]}`
    const kinds = shuffle(
      [
        ...Array.from({ length: homes }, () => 'home' as const),
        ...Array.from({ length: employers }, () => 'employer' as const),
      ],
      random,
    )
    let at = START + Math.floor(random() * 365) * DAY
    let city: string | undefined
    let employer: string | undefined
    const statements = kinds.map((kind) => {
      at += (60 + Math.floor(random() * 400)) * DAY
      let text: string
      if (kind === 'home') {
        const first = city === undefined
        city = pick(CITIES, city)
        text = first ? `${name} lives in ${city}.` : `${name} moved to ${city}.`
      } else {
        employer = pick(EMPLOYERS, employer)
        text = `${name} works for ${employer}.`
      }
      return { text, at: new Date(at).toISOString() }
    })
    people.push({ name, statements })
  }
  const tasks: IngestTaskSpec[] = people.flatMap((p) =>
    p.statements.map((s) => ({
      brainId,
      turns: 1,
      payload: {
        text: s.text,
        json: null,
        metaKeys: {},
        observateFor: [],
        sourceTimestamp: s.at,
        skipEnrichment: false,
      } satisfies TextIngestPayload,
    })),
  )
  // Arrival order is not event-time order.
  return { people, tasks: shuffle(tasks, random) }
}

/** Fisher-Yates (Knuth, TAOCP vol. 2, Algorithm P) in place with the given generator. */
function shuffle<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[list[i], list[j]] = [list[j]!, list[i]!]
  }
  return list
}
