import { EngramError, notFound } from '../errors.js'

import type { Entity } from '../model/entity.js'
import { rankNeighbors, type NeighborsResult } from './neighbors.js'
import { resolveTarget } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** Names longer than this cannot match (names are at most 512 characters; aliases are similar). */
const MAX_NAME = 2000

/** Keys of `identification_params` that are not property filters. */
const RESERVED = new Set(['name', 'entity_types', 'uuid', 'brain_id'])

function invalid(msg: string): EngramError {
  return new EngramError('VALIDATION_ERROR', msg, {
    status: 422,
    detail: [{ loc: ['body', 'identification_params', 'name'], msg, type: 'value_error' }],
  })
}

/** Labels compared case-insensitively: structured ingestion upper-cases types, clients may not. */
function typesOf(value: unknown): string[] {
  const raw = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : []
  return raw
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim().toUpperCase())
    .filter((v) => v.length > 0)
}

/** Property equality as clients send it: numbers and booleans may arrive as strings. */
function sameValue(stored: unknown, wanted: unknown): boolean {
  if (stored === wanted) return true
  if (stored === undefined || stored === null || wanted === null) return false
  if (typeof stored === 'object' || typeof wanted === 'object') {
    return JSON.stringify(stored) === JSON.stringify(wanted)
  }
  return String(stored) === String(wanted)
}

/**
 * Finds the entity `identification_params` names (the POST neighbours routes): `uuid` when given, else
 * the name (exact normalised name or alias first, then the entities channel as `resolveTarget` does),
 * keeping only entities that carry every `entity_types` label and whose properties equal every other
 * key. The original matched the name and properties exactly and required all labels
 * (original-notes.md section A.7); the lexical fallback is ours. Throws 422 without a usable name
 * or uuid, 404 when nothing matches.
 */
export async function identifyEntity(
  deps: RetrieveDeps,
  params: Record<string, unknown>,
): Promise<Entity> {
  const name = typeof params.name === 'string' ? params.name.trim() : ''
  const uuid = typeof params.uuid === 'string' ? params.uuid.trim() : ''
  if (name === '' && uuid === '') {
    throw invalid('identification_params needs a non-empty `name` (or a `uuid`).')
  }
  const types = typesOf(params.entity_types)
  const properties = Object.entries(params).filter(([key]) => !RESERVED.has(key))
  const accept = (e: Entity) => {
    const labels = new Set(e.labels.map((l) => l.toUpperCase()))
    return (
      types.every((t) => labels.has(t)) &&
      properties.every(([key, value]) => sameValue(e.properties[key], value))
    )
  }
  if (uuid !== '') {
    const [byId] = await deps.store.entities.get([uuid])
    if (byId !== undefined && accept(byId)) return byId
    if (name === '') throw notFound('Entity', uuid)
  }
  if (name.length > MAX_NAME) throw notFound('Entity')
  const found = await resolveTarget(deps, name, { accept })
  if (found === null) throw notFound('Entity', name)
  return found
}

/** `POST /retrieve/entities/neighbors`: neighbours of the identified entity. */
export async function neighborsByIdentification(
  deps: RetrieveDeps,
  params: Record<string, unknown>,
  options: { limit: number; lookFor?: string | undefined },
): Promise<NeighborsResult> {
  const main = await identifyEntity(deps, params)
  return rankNeighbors(deps, main, {
    limit: options.limit,
    ...(options.lookFor !== undefined && options.lookFor.trim() !== ''
      ? { phrases: [options.lookFor] }
      : {}),
  })
}
