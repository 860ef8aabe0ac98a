import { z } from 'zod'
import type { ContextBranch, EntityContext, WebEntry } from '@engram/core'
import { entityWire, relationshipWire, toEntity, toRelationship } from './wire-records.js'

type EntityWire = z.infer<typeof entityWire>
type RelationshipWire = z.infer<typeof relationshipWire>

export interface ContextBranchWire {
  predicate: RelationshipWire
  node: EntityWire
  direction: 'out' | 'in'
  neighbors: ContextBranchWire[]
}

/** One edge of `neighborhood` and the tree beyond it (a named, recursive component). */
export const contextBranchWire: z.ZodType<ContextBranchWire> = z
  .object({
    predicate: relationshipWire,
    node: entityWire,
    direction: z
      .enum(['out', 'in'])
      .describe('`out`: the node above is the subject of `predicate`; `in`: it is the object.'),
    get neighbors() {
      return z
        .array(contextBranchWire)
        .describe(
          'Empty at the depth limit, at a node already placed elsewhere in the tree, or past the fan-out caps.',
        )
    },
  })
  .meta({
    id: 'ContextBranch',
    description: 'One edge of the neighbourhood tree, and what lies beyond it.',
  })

/**
 * One entry of `natural_language_web`, the original's shape: `{description, information_direction,
 * <PREDICATE>: {<node name>: <node description>, info: [entries one level further]}}`. The predicate
 * is the one key besides the two named ones (relationship names are upper-case, so they never collide
 * with them); inside it, `info` is the one key besides the node's name.
 */
export const webEntryWire: z.ZodType<WebEntry> = z
  .object({
    description: z.string().describe('The relationship\'s description; "" when unset.'),
    information_direction: z
      .enum(['outgoing', 'incoming'])
      .describe('`outgoing` when the node above is the subject of the relationship.'),
  })
  .catchall(
    z
      .object({
        get info() {
          return z.array(webEntryWire).describe('The entries one level further; [] at a leaf.')
        },
      })
      .catchall(z.string().describe('The node\'s description; "" when unset.'))
      .describe('Keyed by the relationship name: {<node name>: <node description>, info}.'),
  )
  .meta({
    id: 'WebEntry',
    description:
      '{description, information_direction, <RELATIONSHIP_NAME>: {<node name>: <node description>, info: [WebEntry]}}',
  })

/** The body of `GET /retrieve/entity/context` but its `target_node` (which carries observations). */
export const entityContextWire = {
  neighborhood: z
    .array(contextBranchWire)
    .describe('Breadth first: each node once, at its shortest distance.'),
  natural_language_web: z.array(webEntryWire),
  text_contexts: z
    .array(z.string())
    .describe(
      'Distinct non-empty descriptions of the target, the nodes and the relationships, nearest first.',
    ),
}

export function toContextBranch(b: ContextBranch): ContextBranchWire {
  return {
    predicate: toRelationship(b.predicate),
    node: toEntity(b.node),
    direction: b.direction,
    neighbors: b.neighbors.map(toContextBranch),
  }
}

/** `neighborhood`, `natural_language_web` and `text_contexts` of an entity context, for the wire. */
export function toEntityContextWire(context: EntityContext) {
  return {
    neighborhood: context.neighborhood.map(toContextBranch),
    natural_language_web: context.naturalLanguageWeb,
    text_contexts: context.textContexts,
  }
}
