import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 11 item 10: the spec's minimal structured item (only `object`) is accepted and creates or
 * updates that node with no edge; the OpenAPI request schema lists exactly the accepted item shapes.
 */
let t: ListeningApp
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers() })
const ingest = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/ingest/structured', headers: t.headers(), payload })

interface WireEntity {
  uuid: string
  name: string
  labels: string[]
  description: unknown
}

async function completed(res: { statusCode: number; body: string; json(): unknown }) {
  expect(res.statusCode, res.body).toBe(202)
  const { task_id } = res.json() as { task_id: string }
  await t.engram.tasks.idle()
  const task = (await get(`/tasks/${task_id}`)).json()
  expect(task.status, JSON.stringify(task)).toBe('completed')
  return task as { result: Record<string, number> }
}

const widgets = async () =>
  (
    (await get('/retrieve/entities?node_labels=PRODUCT&query_text=Widget')).json()
      .entities as WireEntity[]
  ).filter((e) => e.name === 'Widget')

beforeAll(async () => {
  t = await listeningApp({ storage: 'memory' })
})
afterAll(async () => {
  await t?.close()
})

describe('POST /ingest/structured with a node-only item', () => {
  it('creates the node, then updates it on a repeat, never duplicating it', async () => {
    const first = await completed(
      await ingest({ data: [{ object: { name: 'Widget', type: 'PRODUCT' } }] }),
    )
    expect(first.result).toMatchObject({ entities: 1, relationships: 0, events: 0 })
    const [created, ...others] = await widgets()
    expect(others).toEqual([])
    expect(created!.labels).toEqual(['PRODUCT'])

    await completed(
      await ingest({
        data: [
          {
            object: {
              name: 'Widget',
              type: 'PRODUCT',
              description: 'A small blue widget',
              properties: { colour: 'blue' },
            },
          },
        ],
      }),
    )
    const after = await widgets()
    expect(after.map((e) => e.uuid)).toEqual([created!.uuid])
    expect(after[0]!.description).toBe('A small blue widget')
    const status = (await get('/retrieve/entity/status?target=Widget')).json()
    expect(status).toMatchObject({ exists: true, has_relationships: false })
    expect(status.node.uuid).toBe(created!.uuid)
    expect(status.node.properties).toMatchObject({ colour: 'blue' })
  })

  it('with an anchor: resolves the anchor but links nothing to a node-only item', async () => {
    const task = await completed(
      await ingest({
        anchor: { name: 'Nora', type: 'person' },
        data: [{ object: { name: 'Gadget', type: 'PRODUCT' } }],
      }),
    )
    expect(task.result).toMatchObject({ relationships: 0 })
    for (const name of ['Gadget', 'Nora']) {
      const status = (await get(`/retrieve/entity/status?target=${name}`)).json()
      expect(status, name).toMatchObject({ exists: true, has_relationships: false })
    }
  })

  it('with an anchor and subj_event: the anchor is the subject of a direct edge', async () => {
    const task = await completed(
      await ingest({
        anchor: { name: 'Nora', type: 'person' },
        data: [{ subj_event: { name: 'likes' }, object: { name: 'Gadget', type: 'PRODUCT' } }],
      }),
    )
    expect(task.result).toMatchObject({ relationships: 1 })
    const status = (await get('/retrieve/entity/status?target=Nora')).json()
    expect(status.has_relationships).toBe(true)
    const [[relationship, other]] = status.relationships as [{ name: string }, { name: string }][]
    expect(relationship.name.toUpperCase()).toBe('LIKES')
    expect(other.name).toBe('Gadget')
    const refused = await ingest({
      data: [{ subj_event: { name: 'likes' }, object: { name: 'Gadget', type: 'PRODUCT' } }],
    })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().detail[0].loc).toEqual(['body', 'data', 0])
    expect(refused.json().error.message).toContain('anchor')
  })
})

describe('the OpenAPI item schema', () => {
  /** The subset of JSON Schema the variants use: `required` and `not: {anyOf: [{required}]}`. */
  interface Variant {
    title: string
    required: string[]
    not?: { anyOf: { required: string[] }[] }
  }
  const matches = (item: object, v: Variant) =>
    v.required.every((k) => k in item) &&
    !(v.not?.anyOf ?? []).some((alt) => alt.required.every((k) => k in item))

  it('accepts exactly the combinations its oneOf lists (anchor-dependent ones need the anchor)', async () => {
    const doc = (await get('/openapi.json')).json()
    const itemSchema =
      doc.paths['/ingest/structured'].post.requestBody.content['application/json'].schema.properties
        .data.items
    const variants = itemSchema.oneOf as Variant[]
    expect(variants.map((v) => v.title)).toContain('node')
    const parts = {
      subject: { name: 'Ola', type: 'person' },
      subj_event: { name: 'bought' },
      event: { name: 'Purchase', type: 'purchase' },
      event_obj: { name: 'item' },
    }
    const keys = Object.keys(parts) as (keyof typeof parts)[]
    let accepted = 0
    for (let mask = 0; mask < 16; mask++) {
      const item: Record<string, object> = { object: { name: 'Thing', type: 'PRODUCT' } }
      keys.forEach((k, i) => {
        if (mask & (1 << i)) item[k] = parts[k]
      })
      const matching = variants.filter((v) => matches(item, v))
      expect(matching.length, JSON.stringify(item)).toBeLessThanOrEqual(1)
      const needsAnchor = 'subj_event' in item && !('subject' in item)
      for (const anchor of [undefined, { name: 'Nora', type: 'person' }]) {
        const res = await ingest({ data: [item], ...(anchor ? { anchor } : {}) })
        const expected = matching.length === 1 && (anchor !== undefined || !needsAnchor)
        expect(res.statusCode, `${JSON.stringify(item)} anchor=${anchor !== undefined}`).toBe(
          expected ? 202 : 422,
        )
        if (expected) accepted++
      }
    }
    // 6 shapes with an anchor, 4 without.
    expect(accepted).toBe(10)
    await t.engram.tasks.idle()
  })
})
