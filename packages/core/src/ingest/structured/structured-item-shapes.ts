import type { StructuredItem } from '../ingest-payloads.js'

/** The optional parts of a structured item; `object` is always there. */
export type StructuredItemPart = 'subject' | 'subjEvent' | 'event' | 'eventObj'

export const STRUCTURED_ITEM_PARTS: readonly StructuredItemPart[] = [
  'subject',
  'subjEvent',
  'event',
  'eventObj',
]

/** One accepted combination of parts: the item carries exactly `parts` besides `object`. */
export interface StructuredItemShape {
  /** Stable name (the OpenAPI variant's title). */
  name: string
  parts: readonly StructuredItemPart[]
  /** What the item writes. */
  description: string
}

/**
 * Every item shape structured ingestion accepts (CONTRACT.md section 3). One table for the validator
 * below, the OpenAPI request schema (a `oneOf` of these) and `docs/request-options.md`; the builder
 * (`buildStructuredBatch`) writes what each description says.
 *
 * The anchor is the actor of items that name a predicate from a missing subject (`subj_event`), and of
 * event items without an actor (then linked by `MADE`). A node item names no predicate, so no edge is
 * invented for it: the anchor is not linked to it.
 */
export const STRUCTURED_ITEM_SHAPES: readonly StructuredItemShape[] = [
  {
    name: 'node',
    parts: [],
    description:
      'Only `object`: creates that node, or merges it into the stored entity it resolves to; no edge.',
  },
  {
    name: 'direct_edge',
    parts: ['subject', 'subjEvent'],
    description: 'subject -subj_event-> object.',
  },
  {
    name: 'anchored_edge',
    parts: ['subjEvent'],
    description: 'anchor -subj_event-> object (the request needs an `anchor`).',
  },
  {
    name: 'event',
    parts: ['subject', 'subjEvent', 'event', 'eventObj'],
    description: 'subject -subj_event-> event -event_obj-> object, sharing one flow key.',
  },
  {
    name: 'event_without_actor',
    parts: ['event', 'eventObj'],
    description: 'event -event_obj-> object; with an `anchor`, also anchor -MADE-> event.',
  },
  {
    name: 'anchored_event',
    parts: ['subjEvent', 'event', 'eventObj'],
    description:
      'anchor -subj_event-> event -event_obj-> object, sharing one flow key (the request needs an `anchor`).',
  },
]

/**
 * Whether an item of `shape` needs the request's `anchor`: it names a predicate from a subject it does
 * not carry (`subj_event` without `subject`), and the anchor stands in for that subject.
 */
function needsAnchor(shape: StructuredItemShape): boolean {
  return shape.parts.includes('subjEvent') && !shape.parts.includes('subject')
}

/** The shape `item` has, or undefined when its combination of parts is not accepted. */
function structuredItemShape(item: StructuredItem): StructuredItemShape | undefined {
  const present = STRUCTURED_ITEM_PARTS.filter((part) => item[part] !== undefined)
  return STRUCTURED_ITEM_SHAPES.find(
    (shape) =>
      shape.parts.length === present.length && present.every((p) => shape.parts.includes(p)),
  )
}

/**
 * The shape rules of a structured item (the table above). Returns a message per broken rule (empty
 * when valid), naming the wire fields.
 */
export function structuredItemProblems(item: StructuredItem, hasAnchor: boolean): string[] {
  const shape = structuredItemShape(item)
  if (shape === undefined) {
    // Outside the table, only two mistakes are possible: half an event, or a subject without its
    // predicate.
    return (item.event === undefined) !== (item.eventObj === undefined)
      ? ['`event` and `event_obj` must be given together']
      : ['`subject` needs `subj_event` (the predicate from the subject)']
  }
  if (needsAnchor(shape) && !hasAnchor)
    return ['`subj_event` without `subject` needs an `anchor` to act as the subject']
  return []
}
