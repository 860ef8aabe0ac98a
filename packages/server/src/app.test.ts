import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, SYSTEM_TOKEN, type TestApp } from '../test/support/test-app.js'

let t: TestApp
beforeEach(async () => {
  t = await buildTestApp()
})
afterEach(async () => {
  await t.close()
})

async function createBrain(id: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/system/brains',
    headers: t.system,
    payload: { brain_id: id },
  })
  expect(res.statusCode).toBe(201)
  return res.json() as { id: string; name_key: string; pat: string }
}

describe('public routes', () => {
  it('answers /health without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ service: 'engram', status: 'ok', version: '0.0.0-test' })
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('requests before ingestion', () => {
  it("touches the engine's foreground when a request arrives and when it is answered", async () => {
    let touches = 0
    const own = await buildTestApp({
      foreground: { touch: () => void touches++, turn: () => undefined },
    })
    try {
      const res = await own.app.inject({ method: 'GET', url: '/health' })
      expect(res.statusCode).toBe(200)
      expect(touches).toBe(2)
      // Errors raised before a route runs count too.
      await own.app.inject({ method: 'GET', url: '/retrieve/entities' })
      expect(touches).toBe(4)
      // A task's submission asks for background work: it does not hold tasks back.
      const submitted = await own.app.inject({
        method: 'POST',
        url: '/ingest/',
        headers: own.system,
        payload: { text: 'Ada Lovelace wrote the first program.' },
      })
      expect(submitted.statusCode).toBe(202)
      expect(touches).toBe(4)
    } finally {
      await own.close()
    }
  })
})

describe('authentication and brain selection', () => {
  it('401 without, with an unknown, or with conflicting tokens', async () => {
    for (const headers of [
      {},
      { ServicePAT: 'spat_wrong' },
      { ServicePAT: SYSTEM_TOKEN, Authorization: 'Bearer spat_other' },
      { Authorization: 'Basic abc' },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/retrieve/entities', headers })
      expect(res.statusCode).toBe(401)
      const body = envelope(res.body)
      expect(body.error.code).toBe('AUTH_INVALID')
      expect(body.error.request_id).toBe(res.headers['x-request-id'])
    }
  })

  it('accepts the token as Bearer and as ServicePAT (same token in both is fine)', async () => {
    for (const headers of [
      { Authorization: `Bearer ${SYSTEM_TOKEN}` },
      { ServicePAT: SYSTEM_TOKEN, Authorization: `bearer ${SYSTEM_TOKEN}` },
    ]) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/retrieve/entities', headers })).statusCode,
      ).toBe(200)
    }
  })

  it('403 with brain A’s token on brain B, and a brain token on /system', async () => {
    const a = await createBrain('alpha')
    await createBrain('beta')
    const res = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities',
      headers: { ServicePAT: a.pat, 'X-Brain-ID': 'beta' },
    })
    expect(res.statusCode).toBe(403)
    expect(envelope(res.body).error.code).toBe('AUTH_INVALID')
    const viaQuery = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities?brain_id=beta',
      headers: { ServicePAT: a.pat },
    })
    expect(viaQuery.statusCode).toBe(403)
    const viaBody = await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: { ServicePAT: a.pat },
      payload: { name: 'X', brain_id: 'beta' },
    })
    expect(viaBody.statusCode).toBe(403)
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/system/brains-list',
          headers: { ServicePAT: a.pat },
        })
      ).statusCode,
    ).toBe(403)
  })

  it('selects the token’s own brain, or the default brain for the system token', async () => {
    const a = await createBrain('alpha')
    await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: { ServicePAT: a.pat },
      payload: { name: 'InAlpha' },
    })
    await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: t.system,
      payload: { name: 'InDefault' },
    })
    const alpha = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities',
      headers: { ServicePAT: a.pat },
    })
    expect(alpha.json().entities.map((e: { name: string }) => e.name)).toEqual(['InAlpha'])
    const dflt = await t.app.inject({ method: 'GET', url: '/retrieve/entities', headers: t.system })
    expect(dflt.json().entities.map((e: { name: string }) => e.name)).toEqual(['InDefault'])
    const viaHeader = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities',
      headers: { ...t.system, 'X-Brain-ID': 'alpha' },
    })
    expect(viaHeader.json().total).toBe(1)
  })

  it('404 BRAIN_NOT_FOUND for an unknown brain, 422 for a malformed or reserved id', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities',
      headers: { ...t.system, 'X-Brain-ID': 'nope' },
    })
    expect(missing.statusCode).toBe(404)
    expect(envelope(missing.body).error.code).toBe('BRAIN_NOT_FOUND')
    for (const id of ['1bad', 'system', 'a b', 'x'.repeat(65)]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/retrieve/entities',
        headers: { ...t.system, 'X-Brain-ID': id },
      })
      expect(res.statusCode).toBe(422)
    }
  })

  it('400 BRAIN_ID_REQUIRED when no default brain is configured', async () => {
    const strict = await buildTestApp({ defaultBrain: null })
    const res = await strict.app.inject({
      method: 'GET',
      url: '/retrieve/entities',
      headers: strict.system,
    })
    expect(res.statusCode).toBe(400)
    expect(envelope(res.body).error.code).toBe('BRAIN_ID_REQUIRED')
    await strict.close()
  })

  it('login-info reports the token kind', async () => {
    const a = await createBrain('alpha')
    expect(
      (await t.app.inject({ method: 'GET', url: '/meta/login-info', headers: t.system })).json(),
    ).toEqual({ brain_id: 'default', is_system_pat: true })
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/meta/login-info',
          headers: { ServicePAT: a.pat },
        })
      ).json(),
    ).toEqual({ brain_id: 'alpha', is_system_pat: false })
  })
})

describe('errors', () => {
  it('echoes a UUID X-Request-ID and replaces anything else', async () => {
    const id = '4f1c2a8e-3b5d-4c6e-9f70-112233445566'
    const echoed = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities',
      headers: { 'X-Request-ID': id },
    })
    expect(echoed.headers['x-request-id']).toBe(id)
    expect(envelope(echoed.body).error.request_id).toBe(id)
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'X-Request-ID': 'not-a-uuid' },
    })
    expect(replaced.headers['x-request-id']).not.toBe('not-a-uuid')
  })

  it('422 with a detail list for schema failures and broken JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: t.system,
      payload: { name: 42 },
    })
    expect(res.statusCode).toBe(422)
    const body = envelope(res.body)
    expect(body.error.code).toBe('VALIDATION_ERROR')
    expect(body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'name'],
        msg: expect.any(String),
        type: expect.any(String),
      }),
    ])
    const broken = await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: { ...t.system, 'content-type': 'application/json' },
      payload: '{"name": ',
    })
    expect(broken.statusCode).toBe(422)
    const limit = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entities?limit=0',
      headers: t.system,
    })
    expect(envelope(limit.body).detail).toEqual([
      expect.objectContaining({ loc: ['query', 'limit'] }),
    ])
  })

  it('405 with Allow for a known path and a wrong method; 404 for unknown routes', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/model/entity', headers: t.system })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('POST, PUT')
    expect(envelope(res.body).error.code).toBe('METHOD_NOT_ALLOWED')
    const unknown = await t.app.inject({ method: 'GET', url: '/nope' })
    expect(unknown.statusCode).toBe(404)
    expect(envelope(unknown.body).error.code).toBe('RESOURCE_NOT_FOUND')
  })

  it('413 for a body over the limit', async () => {
    const small = await buildTestApp({ maxBodyBytes: 2048 })
    const res = await small.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: small.system,
      payload: { name: 'x', description: 'y'.repeat(5000) },
    })
    expect(res.statusCode).toBe(413)
    expect(envelope(res.body).error.code).toBe('PAYLOAD_TOO_LARGE')
    await small.close()
  })

  it('serves the graph operations that once answered 501', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    }
    for (const path of ['/retrieve/entity/synergies', '/retrieve/context', '/retrieve/recommend'])
      for (const op of Object.values(doc.paths[path]!))
        expect(op.responses).not.toHaveProperty('501')
    const res = await t.app.inject({
      method: 'GET',
      url: '/retrieve/entity/synergies?target=x',
      headers: t.system,
    })
    expect(res.statusCode).toBe(404)
    expect(envelope(res.body).error.code).toBe('RESOURCE_NOT_FOUND')
  })
})

describe('system routes', () => {
  it('creates brains once (409 after) and never lists a whole token', async () => {
    const a = await createBrain('alpha')
    expect(a).toMatchObject({ id: 'alpha', name_key: 'alpha' })
    expect(a.pat).toMatch(/^spat_/)
    const again = await t.app.inject({
      method: 'POST',
      url: '/system/brains',
      headers: t.system,
      payload: { brain_id: 'alpha' },
    })
    expect(again.statusCode).toBe(409)
    expect(envelope(again.body).error.code).toBe('BRAIN_EXISTS')
    const list = await t.app.inject({
      method: 'GET',
      url: '/system/brains-list',
      headers: t.system,
    })
    expect(list.body).not.toContain(a.pat)
    expect(list.json()).toContainEqual({
      id: 'alpha',
      name_key: 'alpha',
      pat: `spat_…${a.pat.slice(-4)}`,
    })
  })

  it('rotates tokens and deletes brains', async () => {
    const a = await createBrain('alpha')
    const rotated = await t.app.inject({
      method: 'POST',
      url: '/system/brains/alpha/rotate-token',
      headers: t.system,
    })
    expect(rotated.statusCode).toBe(200)
    expect(
      (await t.app.inject({ method: 'GET', url: '/tasks/', headers: { ServicePAT: a.pat } }))
        .statusCode,
    ).toBe(401)
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/tasks/',
          headers: { ServicePAT: rotated.json().pat },
        })
      ).statusCode,
    ).toBe(200)
    await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: { ...t.system, 'X-Brain-ID': 'alpha' },
      payload: { name: 'E' },
    })
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/system/brains/alpha',
      headers: t.system,
    })
    expect(deleted.json()).toMatchObject({
      brain_id: 'alpha',
      deleted: true,
      removed: { entities: 1, changelog: 1 },
    })
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/system/brains/alpha', headers: t.system }))
        .statusCode,
    ).toBe(404)
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/system/brains/default', headers: t.system }))
        .statusCode,
    ).toBe(400)
  })
})

describe('model, records and tasks', () => {
  it('writes entities and relationships with changelog entries and lists them', async () => {
    const h = t.system
    const emily = await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: h,
      payload: { name: 'Emily', labels: ['PERSON'], properties: { age: 30 } },
    })
    expect(emily.statusCode).toBe(201)
    const [e] = emily.json()
    expect(e).toMatchObject({
      name: 'Emily',
      labels: ['PERSON'],
      polarity: 'neutral',
      observations: [],
    })
    const london = (
      await t.app.inject({
        method: 'POST',
        url: '/model/entity',
        headers: h,
        payload: { name: 'London', labels: ['PLACE'] },
      })
    ).json()[0]
    const rel = await t.app.inject({
      method: 'POST',
      url: '/model/relationship',
      headers: h,
      payload: {
        subject_uuid: e.uuid,
        object_uuid: london.uuid,
        predicate_name: 'lives in',
        predicate_description: 'Emily lives in London',
      },
    })
    expect(rel.statusCode).toBe(201)
    const relUuid = rel.json() as string
    expect(typeof relUuid).toBe('string')
    const missing = await t.app.inject({
      method: 'POST',
      url: '/model/relationship',
      headers: h,
      payload: {
        subject_uuid: e.uuid,
        object_uuid: 'nope',
        predicate_name: 'x',
        predicate_description: 'y',
      },
    })
    expect(missing.statusCode).toBe(404)
    const upd = await t.app.inject({
      method: 'PUT',
      url: '/model/entity',
      headers: h,
      payload: { uuid: e.uuid, new_properties: { city: 'London' }, properties_to_remove: ['age'] },
    })
    expect(upd.json().properties).toEqual({ city: 'London' })
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/model/entity',
          headers: h,
          payload: { uuid: 'nope' },
        })
      ).statusCode,
    ).toBe(404)
    const dep = await t.app.inject({
      method: 'PUT',
      url: '/model/relationship',
      headers: h,
      payload: { uuid: relUuid, new_properties: { deprecated: true } },
    })
    expect(dep.json().deprecated).toBe(true)

    const rels = (
      await t.app.inject({
        method: 'GET',
        url: '/retrieve/relationships?relationship_types=LIVES_IN',
        headers: h,
      })
    ).json()
    expect(rels.total).toBe(1)
    expect(rels.relationships[0].subject.name).toBe('Emily')
    const people = (
      await t.app.inject({
        method: 'GET',
        url: '/retrieve/entities?node_labels=PERSON&node_labels=ORG',
        headers: h,
      })
    ).json()
    expect(people.entities.map((x: { name: string }) => x.name)).toEqual(['Emily'])
    const logs = (
      await t.app.inject({
        method: 'GET',
        url: '/retrieve/changelogs?types=node_created,relationship_created',
        headers: h,
      })
    ).json()
    expect(logs.count).toBe(3)
    const one = (
      await t.app.inject({
        method: 'GET',
        url: `/retrieve/changelogs/${logs.changelogs[0].id}`,
        headers: h,
      })
    ).json()
    expect(one.changelog.type).toBe('relationship_created')
    expect(
      (await t.app.inject({ method: 'GET', url: '/retrieve/changelogs/types', headers: h })).json()
        .types,
    ).toEqual([
      'node_created',
      'node_properties_updated',
      'relationship_created',
      'relationship_deprecated',
    ])
    expect(
      (await t.app.inject({ method: 'GET', url: '/meta/entity-labels', headers: h })).json(),
    ).toEqual(['PERSON', 'PLACE'])
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/meta/relationships-properties', headers: h })
      ).json(),
    ).toEqual(['LIVES_IN'])
    expect(
      (await t.app.inject({ method: 'GET', url: '/meta/entity-properties', headers: h })).json(),
    ).toEqual(['city'])
  })

  it('serves the empty lists and 404s for unknown ids', async () => {
    const h = t.system
    expect(
      (await t.app.inject({ method: 'GET', url: '/retrieve/observations', headers: h })).json(),
    ).toEqual({ observations: [], count: 0, message: expect.any(String) })
    expect(
      (await t.app.inject({ method: 'GET', url: '/retrieve/structured-data', headers: h })).json(),
    ).toMatchObject({ data: [], count: 0, total: 0 })
    for (const url of [
      '/retrieve/observations/x',
      '/retrieve/structured-data/x',
      '/retrieve/changelogs/x',
      '/tasks/x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: h })
      expect(res.statusCode).toBe(404)
      expect(envelope(res.body).error.code).toBe('RESOURCE_NOT_FOUND')
    }
    expect((await t.app.inject({ method: 'GET', url: '/tasks', headers: h })).json()).toEqual({
      tasks: [],
    })
    expect((await t.app.inject({ method: 'GET', url: '/tasks/', headers: h })).json()).toEqual({
      tasks: [],
    })
  })

  it('mounts under BASE_PATH', async () => {
    const prefixed = await buildTestApp({ basePath: '/api' })
    expect((await prefixed.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    expect((await prefixed.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(404)
    await prefixed.close()
  })
})
