import { describe, expect, it } from 'vitest'
import { EngramError } from '../errors.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { StorageAdapter } from '../contracts/storage-adapter.js'
import { hashToken } from '../brain/tokens.js'
import { createEngineCore } from './engine-core.js'
import type { EngineCoreOptions } from './engine-types.js'

const SYSTEM_TOKEN = 'spat_system-token-for-tests'

async function startEngine(
  overrides: Partial<EngineCoreOptions> = {},
  storage: StorageAdapter = memoryAdapter(),
) {
  const engram = createEngineCore({
    storage,
    version: '0.0.0-test',
    systemTokenHash: hashToken(SYSTEM_TOKEN),
    ...overrides,
  })
  await engram.start()
  return engram
}

async function expectCode(promise: Promise<unknown>, code: string, status?: number) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(EngramError)
  expect((error as EngramError).code).toBe(code)
  if (status !== undefined) expect((error as EngramError).status).toBe(status)
}

describe('brains and tokens', () => {
  it('creates the default brain at start and refuses to delete it', async () => {
    const engram = await startEngine()
    expect((await engram.brains.list()).map((b) => b.id)).toEqual(['default'])
    await expectCode(engram.brains.delete('default'), 'VALIDATION_ERROR', 400)
  })

  it('creates brains with hashed tokens and authenticates both token kinds', async () => {
    const engram = await startEngine()
    const { record, token } = await engram.brains.create('alpha')
    expect(token).toMatch(/^spat_[A-Za-z0-9_-]{43}$/)
    expect(record.tokenHash).toBe(hashToken(token))
    expect(JSON.stringify(await engram.brains.list())).not.toContain(token)
    expect(await engram.brains.authenticate(token)).toEqual({ kind: 'brain', brainId: 'alpha' })
    expect(await engram.brains.authenticate(SYSTEM_TOKEN)).toEqual({ kind: 'system' })
    expect(await engram.brains.authenticate('spat_nope')).toBeNull()
    expect(await engram.brains.authenticate('')).toBeNull()
  })

  it('rejects duplicates, invalid and reserved ids', async () => {
    const engram = await startEngine()
    await engram.brains.create('alpha')
    await expectCode(engram.brains.create('alpha'), 'BRAIN_EXISTS', 409)
    await expectCode(engram.brains.create('1abc'), 'VALIDATION_ERROR', 422)
    await expectCode(engram.brains.create('system'), 'VALIDATION_ERROR', 422)
    await expectCode(engram.brains.create('a'.repeat(65)), 'VALIDATION_ERROR', 422)
  })

  it('rotating a token invalidates the old one', async () => {
    const engram = await startEngine()
    const { token } = await engram.brains.create('alpha')
    const rotated = await engram.brains.rotateToken('alpha')
    expect(await engram.brains.authenticate(token)).toBeNull()
    expect(await engram.brains.authenticate(rotated.token)).toEqual({
      kind: 'brain',
      brainId: 'alpha',
    })
    await expectCode(engram.brains.rotateToken('missing'), 'BRAIN_NOT_FOUND', 404)
  })

  it('deletes a brain and everything in it', async () => {
    const engram = await startEngine()
    const { token } = await engram.brains.create('alpha')
    await engram.graph.createEntity('alpha', { name: 'Emily' })
    const stats = await engram.brains.delete('alpha')
    expect(stats.entities).toBe(1)
    expect(stats.changelog).toBe(1)
    expect(await engram.brains.authenticate(token)).toBeNull()
    await expectCode(engram.store('alpha'), 'BRAIN_NOT_FOUND', 404)
    await expectCode(engram.brains.delete('alpha'), 'BRAIN_NOT_FOUND', 404)
  })
})

describe('graph writes', () => {
  it('creates an entity with its changelog entry', async () => {
    const engram = await startEngine()
    const { entity, created } = await engram.graph.createEntity('default', {
      name: 'Emily',
      labels: ['PERSON'],
      properties: { role: 'organiser' },
    })
    expect(created).toBe(true)
    const store = await engram.store('default')
    expect(await store.entities.get([entity.uuid])).toEqual([entity])
    const log = await store.changelog.list({ limit: 10, skip: 0 })
    expect(log.items).toHaveLength(1)
    expect(log.items[0]!.type).toBe('node_created')
    expect(log.items[0]!.change).toMatchObject({
      type: 'node_created',
      node: { uuid: entity.uuid, name: 'Emily' },
    })
  })

  it('updates the matching entity instead of creating one when identification params match, keeping its uuid', async () => {
    const engram = await startEngine()
    const first = await engram.graph.createEntity('default', {
      name: 'Emily',
      identificationParams: { email: 'emily@example.com' },
    })
    const second = await engram.graph.createEntity('default', {
      name: 'emily',
      description: 'Organiser',
      identificationParams: { email: 'emily@example.com' },
    })
    expect(second.created).toBe(false)
    expect(second.entity.uuid).toBe(first.entity.uuid)
    expect(second.entity.description).toBe('Organiser')
    const other = await engram.graph.createEntity('default', {
      name: 'Emily',
      identificationParams: { email: 'other@example.com' },
    })
    expect(other.created).toBe(true)
    expect(other.entity.uuid).not.toBe(first.entity.uuid)
  })

  it('updates entities and 404s on unknown uuids', async () => {
    const engram = await startEngine()
    const { entity } = await engram.graph.createEntity('default', {
      name: 'Emily',
      properties: { a: 1, b: 2 },
    })
    const updated = await engram.graph.updateEntity('default', {
      uuid: entity.uuid,
      newName: 'Emily Stone',
      newProperties: { c: 3 },
      propertiesToRemove: ['a'],
      newLabels: ['PERSON'],
    })
    expect(updated.uuid).toBe(entity.uuid)
    expect(updated.properties).toEqual({ b: 2, c: 3 })
    expect(updated.aliases).toContain('Emily')
    expect(updated.labels).toEqual(['PERSON'])
    await expectCode(
      engram.graph.updateEntity('default', { uuid: 'nope' }),
      'RESOURCE_NOT_FOUND',
      404,
    )
  })

  it('creates, updates and deprecates relationships', async () => {
    const engram = await startEngine()
    const emily = (await engram.graph.createEntity('default', { name: 'Emily' })).entity
    const london = (await engram.graph.createEntity('default', { name: 'London' })).entity
    const rel = await engram.graph.createRelationship('default', {
      subjectUuid: emily.uuid,
      objectUuid: london.uuid,
      predicateName: 'lives in',
      predicateDescription: 'Emily lives in London',
    })
    expect(rel.name).toBe('LIVES_IN')
    await expectCode(
      engram.graph.createRelationship('default', {
        subjectUuid: emily.uuid,
        objectUuid: 'missing',
        predicateName: 'x',
        predicateDescription: 'y',
      }),
      'RESOURCE_NOT_FOUND',
      404,
    )
    const deprecated = await engram.graph.updateRelationship('default', {
      uuid: rel.uuid,
      newProperties: { deprecated: true, since: '2025' },
    })
    expect(deprecated.deprecated).toBe(true)
    expect(deprecated.properties).toEqual({ since: '2025' })
    const store = await engram.store('default')
    const types = (await store.changelog.list({ limit: 10, skip: 0 })).items.map((e) => e.type)
    expect(types).toEqual([
      'relationship_deprecated',
      'relationship_created',
      'node_created',
      'node_created',
    ])
  })
})
