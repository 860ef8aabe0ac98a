import { mulberry32 } from '../scale/synthetic-corpus.js'

/**
 * The SYNTHETIC brain of `--op-growth`: one seeded stream of "event units", each a structured item
 * `Person -subj_event-> Event -event_obj-> Place`. Degrees are kept stationary on purpose: a person has
 * about 3 events (plus a few older people picked again, which grows only logarithmically), a place
 * about 10, so an operation on a typical entity touches a neighbourhood of the same size at 1k and at
 * 100k entities. A cost that grows with the brain then comes from the brain's size (a scan, a count,
 * a whole-graph build), not from the target's neighbourhood growing.
 *
 * Names use pronounceable non-English syllables so every person, event and place has a unique
 * surname term: a query for one entity stays selective however large the brain becomes.
 */

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'bre', 'dor']
const EVENT_KINDS = ['Meeting', 'Purchase', 'Trip', 'Call', 'Review'] as const
const PLACE_KINDS = ['Street', 'Lab', 'Park', 'Office', 'Market'] as const
const SUBJ_EVENT = ['ATTENDED', 'ORGANISED', 'JOINED'] as const
const EVENT_OBJ = ['HELD_AT', 'ABOUT'] as const

/** Word number n: unique per n (base-13 syllables), capitalised. */
export function growthWord(n: number): string {
  let s = ''
  let x = n + SYLLABLES.length
  while (x > 0) {
    s += SYLLABLES[x % SYLLABLES.length]
    x = Math.floor(x / SYLLABLES.length)
  }
  return s[0]!.toUpperCase() + s.slice(1)
}

/** Disjoint word ranges per kind, so a surname never collides across kinds. */
const personName = (p: number) => `${growthWord(p % 300)} ${growthWord(1_000_000 + p)}`
const eventName = (i: number) =>
  `${EVENT_KINDS[i % EVENT_KINDS.length]} ${growthWord(2_000_000 + i)}`
const placeName = (q: number) =>
  `${growthWord(3_000_000 + q)} ${PLACE_KINDS[q % PLACE_KINDS.length]}`
export const organisationName = (o: number) => `${growthWord(4_000_000 + o)} Corporation`

/** One structured item of `POST /ingest/structured`, in its wire shape. */
export interface GrowthItem {
  subject: { name: string; type: string }
  subj_event: { name: string }
  event: { name: string; type: string; happened_at: string }
  event_obj: { name: string }
  object: { name: string; type: string }
}

/** Unit i's person, event and place names (the person and place indexes are the stationary pools). */
export interface GrowthUnit {
  readonly person: string
  readonly event: string
  readonly place: string
  readonly item: GrowthItem
}

/** Units in order; the same seed gives the same brain. */
export function growthUnits(seed = 29): (i: number) => GrowthUnit {
  const rnd = mulberry32(seed)
  return (i) => {
    // Mostly a new-ish person (about 3 events each); 30% an older one, uniformly.
    const p = rnd() < 0.3 ? Math.floor(rnd() * (i / 3 + 1)) : Math.floor(i / 3)
    // A place in a sliding window: about 10 events each, never a hub that grows with the brain.
    const q = Math.max(0, Math.floor(i / 10) + Math.floor(rnd() * 8) - 4)
    const day = 1 + (i % 28)
    const month = 1 + (Math.floor(i / 28) % 12)
    const person = personName(p)
    const event = eventName(i)
    const place = placeName(q)
    return {
      person,
      event,
      place,
      item: {
        subject: { name: person, type: 'Person' },
        subj_event: { name: SUBJ_EVENT[i % SUBJ_EVENT.length]! },
        event: {
          name: event,
          type: 'Event',
          happened_at: `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
        },
        event_obj: { name: EVENT_OBJ[i % EVENT_OBJ.length]! },
        object: { name: place, type: 'Place' },
      },
    }
  }
}

/** A short text about a unit, for text ingestion through the local extractor. */
export function growthText(unit: GrowthUnit, n: number): string {
  return `${unit.person} met ${organisationName(n)} staff at ${unit.place} for the ${unit.event.toLowerCase()}. They agreed to meet again next month.`
}

/**
 * A passage committed in bulk (no extraction): the unit's names among filler words, so the passages
 * channel has a realistic BM25 index (a Zipf-like skew over 2,000 filler words) without running the
 * extractor on tens of thousands of texts.
 */
export function growthPassage(unit: GrowthUnit, rnd: () => number): string {
  const words: string[] = []
  const len = 30 + Math.floor(rnd() * 40)
  for (let j = 0; j < len; j++) words.push(growthWord(5_000_000 + Math.floor(2000 * rnd() ** 3)))
  words.splice(5, 0, unit.person)
  words.splice(15, 0, unit.place)
  words.splice(25, 0, unit.event)
  return words.join(' ').toLowerCase()
}
