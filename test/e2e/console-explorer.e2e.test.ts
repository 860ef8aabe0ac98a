import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createEngramClient, type EngramClient } from '@engram/client'
import { openConsole, type ConsolePage } from '../support/console-page.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

const BRAIN = 'explorer-e2e'

/**
 * Waits until the element `selector` names has finished its call, on the page's own completion
 * signal (`data-state` `done` or `error`, explorer-view.ts and entity-detail.ts), and returns which.
 * No clock of its own: every call ends in one of the two states, and the test's timeout bounds a page
 * that never gets there. (A fixed poll timeout failed here when a load outlasted it on a busy machine.)
 */
async function settled(page: Page, selector: string): Promise<string | null> {
  const ended = page.locator(`${selector}:is([data-state="done"], [data-state="error"])`)
  await ended.waitFor({ state: 'attached', timeout: 0 })
  return ended.getAttribute('data-state')
}
const STATUS = '[data-testid="explorer-status"]'
const CANVAS = '[data-testid="explorer-canvas"]'

/** Waits for the renderer built at sign-in (renderer-warmup.ts) to be ready. */
const rendererReady = (page: Page) =>
  page.locator(`${CANVAS}[data-ready="true"]`).waitFor({ state: 'attached', timeout: 0 })

/** Waits for the ForceAtlas2 run of the last load to reach its stable frame; returns its attributes. */
async function stableLayout(page: Page) {
  await page.locator(`${STATUS}[data-layout="stable"]`).waitFor({ state: 'attached', timeout: 0 })
  const status = page.getByTestId('explorer-status')
  return {
    stableMs: Number(await status.getAttribute('data-stable-ms')),
    iterations: Number(await status.getAttribute('data-iterations')),
  }
}

/** The label boxes the last placement drew (viewport px), and whether any two overlap. */
async function labelBoxes(page: Page) {
  // The placement runs on a timer after the camera or the graph moved: let it settle.
  await page.waitForTimeout(300)
  const raw = await page.locator(CANVAS).getAttribute('data-label-boxes')
  const boxes = JSON.parse(raw ?? '[]') as [number, number, number, number][]
  let overlaps = 0
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!]
      if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) overlaps++
    }
  return { count: boxes.length, overlaps }
}

/** Writes the session as the shell keeps it, then reloads: signed in on `brain`. */
async function signIn(ui: ConsolePage & { errors: string[] }, brain: string) {
  await ui.page.evaluate(
    ([token, b]) => {
      // Runs in the page (the test's tsconfig has no DOM types).
      const storage = (
        globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
      ).sessionStorage
      storage.setItem('engram.console.token', token)
      storage.setItem('engram.console.brain', b)
    },
    [SYSTEM_TOKEN, brain] as const,
  )
  await ui.page.reload()
  // Errors count from the signed-in load on: the first load's only one is Chromium's request for
  // /favicon.ico, which the server answers 404.
  ui.errors.length = 0
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const RESULTS = '[data-testid="explorer-results"]'
/** The detail panel of one entity (a new one each time an entity is selected). */
const panel = (uuid: string) => `[data-testid="entity-detail"] > [data-uuid="${uuid}"]`

/**
 * The entity explorer in headless Chromium against a real server: search an entity, open its 2-hop
 * neighbourhood, expand a node (the count grows), read the detail panel (observations,
 * relationships), navigate from it. Screenshots of every step go to test-output/console/.
 *
 * Signing in: the shell keeps the session in sessionStorage (`engram.console.token`,
 * `engram.console.brain`) and shows the explorer under the tab `tab-explorer`; the test writes the
 * session before the page loads, so it needs neither the sign-in form nor the brain picker.
 */
describe('console explorer (e2e)', () => {
  let app: ListeningApp
  let ui: ConsolePage & { errors: string[] }
  const uuids = new Map<string, string>()

  beforeAll(async () => {
    app = await listeningApp({ storage: 'memory' })
    const system = createEngramClient({
      baseUrl: app.url,
      token: SYSTEM_TOKEN,
      retry: { retries: 0 },
    })
    await system.POST('/system/brains', { body: { brain_id: BRAIN } })
    const engram: EngramClient = system.withBrain(BRAIN)
    const entity = async (name: string, labels: string[], extra: object = {}) => {
      const [created] = await engram.POST('/model/entity', { body: { name, labels, ...extra } })
      uuids.set(name, created!.uuid)
    }
    await entity('Ada Lovelace', ['Person'], {
      description: 'Mathematician who wrote the first published algorithm.',
      properties: { born: 1815 },
    })
    await entity('Charles Babbage', ['Person'])
    await entity('Analytical Engine', ['Project'])
    await entity('London', ['Place'])
    await entity('Royal Society', ['Organization'])
    await entity('Harvard Mark I', ['Project'])
    const link = (s: string, predicate: string, o: string) =>
      engram.POST('/model/relationship', {
        body: {
          subject_uuid: uuids.get(s)!,
          object_uuid: uuids.get(o)!,
          predicate_name: predicate,
          predicate_description: '',
        },
      })
    await link('Ada Lovelace', 'worked_with', 'Charles Babbage')
    await link('Ada Lovelace', 'lived_in', 'London')
    await link('Charles Babbage', 'designed', 'Analytical Engine')
    await link('Charles Babbage', 'member_of', 'Royal Society')
    // Three hops from Ada: only an expansion of the Analytical Engine brings it in.
    await link('Analytical Engine', 'inspired', 'Harvard Mark I')
    await app.engram.commit(BRAIN, {
      observations: [
        {
          id: 'obs-ada-notes',
          resourceId: uuids.get('Ada Lovelace')!,
          text: 'Ada annotated Menabrea’s paper on the Analytical Engine.',
          metadata: { labels: ['Person'] },
          insertedAt: new Date().toISOString(),
        },
      ],
    })
    ui = await openConsole(app.url)
    await signIn(ui, BRAIN)
  })

  afterAll(async () => {
    await ui?.close()
    await app?.close()
  })

  const nodeCount = async () =>
    Number(await ui.page.getByTestId('explorer-node-count').getAttribute('data-nodes'))

  it('searches, opens the single match at once, expands, and shows entity detail', async () => {
    const { page } = ui
    await page.getByTestId('tab-explorer').click()
    // Before anything is drawn, the canvas says what to do.
    const empty = page.getByTestId('explorer-empty')
    expect(await empty.isVisible()).toBe(true)
    expect(await empty.getAttribute('data-kind')).toBe('start')
    expect(await empty.textContent()).toMatch(/press Find.*Whole brain/)
    await rendererReady(page)
    await ui.screenshot('explorer-0-empty')
    await page.getByTestId('explorer-search').fill('lovelace')
    await page.getByTestId('explorer-search-submit').click()
    expect(await settled(page, RESULTS)).toBe('done')
    const result = page.getByTestId('explorer-result')
    expect(await result.count()).toBe(1)
    expect(await result.first().textContent()).toContain('Ada Lovelace')

    // A single match opens without a click.
    const status = page.getByTestId('explorer-status')
    await page.locator(`${STATUS}[data-action="2-hop"]`).waitFor({ state: 'attached' })
    expect(await settled(page, STATUS)).toBe('done')
    expect(await empty.isVisible()).toBe(false)
    await ui.screenshot('explorer-1-search')
    // Ada, Babbage, London (1 hop); Analytical Engine, Royal Society (2 hops). Not Harvard Mark I.
    expect(await nodeCount()).toBe(5)
    expect(Number(await page.getByTestId('explorer-node-count').getAttribute('data-edges'))).toBe(4)
    expect(await page.getByTestId('explorer-legend-item').count()).toBe(4)
    expect(await page.locator('[data-testid="explorer-canvas"] canvas').count()).toBeGreaterThan(0)
    // ForceAtlas2 refines the radial layout in the worker, then the stable frame is marked.
    const layout = await stableLayout(page)
    expect(layout.iterations).toBeGreaterThan(0)
    expect(layout.stableMs).toBeGreaterThan(0)
    // Every node's label fits: five labels, none over another.
    expect(await labelBoxes(page)).toEqual({ count: 5, overlaps: 0 })

    // The load selects Ada: her panel settles once every part of it has answered.
    const detail = page.getByTestId('entity-detail')
    expect(await settled(page, panel(uuids.get('Ada Lovelace')!))).toBe('done')
    expect(await detail.getByTestId('entity-name').textContent()).toBe('Ada Lovelace')
    expect(await detail.getByTestId('entity-observation').first().textContent()).toContain(
      'Menabrea',
    )
    expect(await detail.getByTestId('entity-relationship').count()).toBe(2)
    expect(await detail.getByTestId('entity-description').textContent()).toContain('algorithm')
    expect(await detail.getByTestId('entity-properties').textContent()).toContain('1815')
    const outgoing = detail.locator('[data-testid="entity-relationship"][data-direction="out"]')
    expect(await outgoing.count()).toBe(2)
    // Predicates are stored upper-case.
    expect((await outgoing.allTextContents()).join(' ')).toMatch(/worked_with/i)
    // Synergies and recommendations answer (a list, "None." or an error box, never a blank).
    for (const id of ['entity-synergies', 'entity-recommendations']) {
      expect(await detail.getByTestId(id).getAttribute('data-state')).toMatch(/^(done|error)$/)
      expect(await detail.getByTestId(id).textContent()).not.toContain('Loading')
    }
    await ui.screenshot('explorer-2-neighbourhood')

    // Navigate from the detail panel to Babbage, then on to the Analytical Engine (a drawn node).
    await detail.locator('[data-testid="entity-relationship-link"]', { hasText: 'Babbage' }).click()
    expect(await settled(page, panel(uuids.get('Charles Babbage')!))).toBe('done')
    expect(await detail.getByTestId('entity-name').textContent()).toBe('Charles Babbage')
    await detail
      .locator('[data-testid="entity-relationship-link"]', { hasText: 'Analytical Engine' })
      .click()
    expect(await settled(page, panel(uuids.get('Analytical Engine')!))).toBe('done')
    expect(await detail.getByTestId('entity-name').textContent()).toBe('Analytical Engine')
    await ui.screenshot('explorer-3-detail')

    await page.getByTestId('explorer-expand').click()
    expect(await settled(page, STATUS)).toBe('done')
    expect(await status.getAttribute('data-action')).toBe('expand')
    expect(await nodeCount()).toBe(6)
    await ui.screenshot('explorer-4-expanded')
    await stableLayout(page)

    // Shortest path over what is drawn: Ada → Babbage → Royal Society.
    await page.getByTestId('explorer-path-from').fill('ada lovelace')
    await page.getByTestId('explorer-path-to').fill('royal')
    await page.getByTestId('explorer-path-submit').click()
    const pathResult = page.getByTestId('explorer-path-result')
    expect(await pathResult.getAttribute('data-state')).toBe('done')
    expect(await pathResult.getAttribute('data-hops')).toBe('2')
    expect(await pathResult.getAttribute('data-path')).toBe(
      ['Ada Lovelace', 'Charles Babbage', 'Royal Society'].map((n) => uuids.get(n)).join(' '),
    )
    expect(await pathResult.textContent()).toBe(
      '2 hops: Ada Lovelace → Charles Babbage → Royal Society',
    )
    await ui.screenshot('explorer-4b-path')
    // A name that matches no drawn entity says so.
    await page.getByTestId('explorer-path-to').fill('Grace Hopper')
    await page.getByTestId('explorer-path-submit').click()
    expect(await pathResult.getAttribute('data-state')).toBe('none')
    expect(await pathResult.textContent()).toContain('Grace Hopper')
    await page.getByTestId('explorer-path-clear').click()

    // Filters: hiding Place hides London and its edge; hiding a predicate hides its edges.
    const count = page.getByTestId('explorer-node-count')
    const visible = async () => [
      Number(await count.getAttribute('data-visible-nodes')),
      Number(await count.getAttribute('data-visible-edges')),
    ]
    expect(await visible()).toEqual([6, 5])
    await page
      .locator('[data-testid="explorer-legend-item"][data-label="Place"]')
      .getByTestId('explorer-legend-item-box')
      .uncheck()
    expect(await visible()).toEqual([5, 4])
    const designed = page.locator(
      '[data-testid="explorer-filter-predicate"][data-predicate="DESIGNED"]',
    )
    expect(await designed.textContent()).toBe('DESIGNED 1')
    await designed.getByTestId('explorer-filter-predicate-box').uncheck()
    expect(await visible()).toEqual([5, 3])
    await ui.screenshot('explorer-4c-filtered')
    await designed.getByTestId('explorer-filter-predicate-box').check()
    await page
      .locator('[data-testid="explorer-legend-item"][data-label="Place"]')
      .getByTestId('explorer-legend-item-box')
      .check()
    expect(await visible()).toEqual([6, 5])

    // Colour by community lists the communities in the legend; size by PageRank keeps every label.
    await page.getByTestId('explorer-color-by').selectOption('community')
    expect(await page.getByTestId('explorer-legend-community').count()).toBeGreaterThan(0)
    await page.getByTestId('explorer-size-by').selectOption('pagerank')
    expect((await labelBoxes(page)).overlaps).toBe(0)
    await ui.screenshot('explorer-4d-community-pagerank')
    await page.getByTestId('explorer-color-by').selectOption('label')
    await page.getByTestId('explorer-size-by').selectOption('degree')

    // The whole brain: every entity and relationship.
    await page.getByTestId('explorer-load-all').click()
    expect(await settled(page, STATUS)).toBe('done')
    expect(await status.getAttribute('data-action')).toBe('whole brain')
    expect(await nodeCount()).toBe(6)
    expect(Number(await page.getByTestId('explorer-node-count').getAttribute('data-edges'))).toBe(5)
    await ui.screenshot('explorer-5-whole-brain')

    expect(ui.errors).toEqual([])
  }, 60_000)

  it('shows the error of a failed call instead of a blank panel', async () => {
    const { page } = ui
    await page.getByTestId('explorer-search').fill('x'.repeat(2001))
    await page.getByTestId('explorer-search-submit').click()
    expect(await settled(page, RESULTS)).toBe('error')
    expect(await page.getByTestId('explorer-error').count()).toBe(1)
    expect(await page.getByTestId('explorer-error').textContent()).toMatch(
      /VALIDATION|422|INVALID/i,
    )
    await ui.screenshot('explorer-6-error')
  })
})

/**
 * Time in the explorer and the search (docs/time.md, issue 28): "Alice lives in Paris." (2020) then
 * "Alice moved to Berlin in 2023." (2023) end the Paris fact at 2023-01-01. Opened now, Alice's
 * neighbourhood draws the Paris event and its edges greyed with their window; as of 2021-06-01 the
 * Berlin event is not there yet and Paris holds, not greyed. Screenshots: explorer-time-*.png.
 */
describe('console explorer and search: as of (e2e)', () => {
  const TIME_BRAIN = 'explorer-time-e2e'
  let app: ListeningApp
  let ui: ConsolePage & { errors: string[] }
  let api: EngramClient
  const ids = new Map<string, string>()

  beforeAll(async () => {
    app = await listeningApp({ storage: 'memory' })
    const system = createEngramClient({
      baseUrl: app.url,
      token: SYSTEM_TOKEN,
      retry: { retries: 0 },
    })
    await system.POST('/system/brains', { body: { brain_id: TIME_BRAIN } })
    api = system.withBrain(TIME_BRAIN)
    for (const [text, at] of [
      ['Alice lives in Paris.', '2020-03-01T00:00:00Z'],
      ['Alice moved to Berlin in 2023.', '2023-06-01T00:00:00Z'],
    ] as const) {
      const { task_id } = await api.POST('/ingest/', { body: { text, source_timestamp: at } })
      expect((await api.waitForTask(task_id)).status).toBe('completed')
    }
    const { entities } = await api.GET('/retrieve/entities', { params: { query: { limit: 100 } } })
    for (const e of entities) ids.set(e.name, e.uuid)
    // What the local extractor makes of the two sentences (the story the checks below rely on).
    for (const name of [
      'Alice',
      'Alice lives Paris',
      'Alice moved Berlin',
      'Paris',
      'Berlin',
      '2023',
    ])
      expect(ids.has(name), name).toBe(true)
    ui = await openConsole(app.url)
    await signIn(ui, TIME_BRAIN)
  })

  afterAll(async () => {
    await ui?.close()
    await app?.close()
  })

  const counts = async () => {
    const count = ui.page.getByTestId('explorer-node-count')
    const read = async (name: string) => Number(await count.getAttribute(name))
    return {
      nodes: await read('data-nodes'),
      edges: await read('data-edges'),
      endedNodes: await read('data-ended-nodes'),
      endedEdges: await read('data-ended-edges'),
    }
  }
  /** Alice's relationship row to `other` in the detail panel. */
  const row = (other: string) =>
    ui.page.getByTestId('entity-detail').locator('[data-testid="entity-relationship"]', {
      has: ui.page.locator(
        `[data-testid="entity-relationship-link"][data-uuid="${ids.get(other)}"]`,
      ),
    })

  it('greys the ended fact with its window, and shows 2021 as it was', async () => {
    const { page } = ui
    const alice = ids.get('Alice')!
    await page.getByTestId('tab-explorer').click()
    await rendererReady(page)
    await page.getByTestId('explorer-search').fill('Alice')
    await page.getByTestId('explorer-search-submit').click()
    expect(await settled(page, RESULTS)).toBe('done')
    // Several matches ("Alice", "Alice lives Paris"...): nothing opens until one is picked.
    expect(await page.getByTestId('explorer-result').count()).toBeGreaterThan(1)
    expect(await page.locator(`${STATUS}[data-action]`).count()).toBe(0)
    await page.locator(`[data-testid="explorer-result"][data-uuid="${alice}"]`).click()
    expect(await settled(page, STATUS)).toBe('done')
    // Alice, both events, Paris, Berlin and the year the move names (a date node); the Paris event and
    // its two legs are ended, greyed.
    expect(await counts()).toEqual({ nodes: 6, edges: 5, endedNodes: 1, endedEdges: 2 })
    expect(await page.getByTestId('explorer-legend-ended').textContent()).toContain(
      'ended 1 events',
    )
    expect(await settled(page, panel(alice))).toBe('done')
    const paris = row('Alice lives Paris')
    expect(await paris.getAttribute('data-ended')).toBe('true')
    expect(await paris.getByTestId('entity-relationship-window').textContent()).toBe(
      'valid 2020-03-01 → 2023-01-01, superseded',
    )
    const berlin = row('Alice moved Berlin')
    expect(await berlin.getAttribute('data-ended')).toBe('false')
    expect(await berlin.getByTestId('entity-relationship-window').textContent()).toBe(
      'valid since 2023-01-01',
    )
    // The Paris event is drawn: the link selects it, and its panel shows its window.
    await paris.getByTestId('entity-relationship-link').click()
    expect(await settled(page, panel(ids.get('Alice lives Paris')!))).toBe('done')
    const window = page.getByTestId('entity-detail').getByTestId('entity-window')
    // The event node carries the window but not `invalidated_by` (only the legs name their successor).
    expect(await window.textContent()).toMatch(
      /^valid 2020-03-01 → 2023-01-01, (superseded|ended)$/,
    )
    expect(await window.getAttribute('data-ended')).toBe('true')
    await ui.screenshot('explorer-time-1-now')

    // The date field is next in the keyboard order after "Whole brain".
    await page.getByTestId('explorer-load-all').focus()
    await page.keyboard.press('Tab')
    expect(
      await page.evaluate(
        () =>
          (
            globalThis as unknown as {
              document: { activeElement: { dataset: { testid?: string } } }
            }
          ).document.activeElement.dataset.testid,
      ),
    ).toBe('explorer-as-of')
    await page.getByTestId('explorer-as-of').fill('2021-06-01')
    expect(await settled(page, STATUS)).toBe('done')
    expect(await page.getByTestId('explorer-node-count').getAttribute('data-as-of')).toBe(
      '2021-06-01',
    )
    // Alice, the Paris event and Paris; nothing greyed, no Berlin yet.
    expect(await counts()).toEqual({ nodes: 3, edges: 2, endedNodes: 0, endedEdges: 0 })
    expect(await page.getByTestId('explorer-legend-ended').count()).toBe(0)
    expect(await settled(page, panel(alice))).toBe('done')
    expect(await row('Alice moved Berlin').count()).toBe(0)
    expect(await row('Alice lives Paris').getAttribute('data-ended')).toBe('false')
    expect(
      await row('Alice lives Paris').getByTestId('entity-relationship-window').textContent(),
    ).toBe('valid 2020-03-01 → 2023-01-01')
    await ui.screenshot('explorer-time-2-as-of-2021')

    await page.getByTestId('explorer-as-of-now').click()
    expect(await settled(page, STATUS)).toBe('done')
    expect(await counts()).toEqual({ nodes: 6, edges: 5, endedNodes: 1, endedEdges: 2 })
    expect(ui.errors).toEqual([])
  }, 60_000)

  it('searches as of the date field', async () => {
    const { page } = ui
    const expected = async (asOf?: string) =>
      (
        await api.POST('/retrieve/search', {
          body: { query: 'Alice', k: 10, channels: ['passages'], ...(asOf ? { as_of: asOf } : {}) },
        })
      ).hits.length
    const [now, then] = [await expected(), await expected('2021-06-01')]
    // Both passages now (passages are never filtered by default); in 2021 the Berlin one states
    // nothing true yet.
    expect([now, then]).toEqual([2, 1])
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-query').fill('Alice')
    await page.getByTestId('search-as-of').fill('2021-06-01')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('search-summary').filter({ hasText: 'hit' }).waitFor()
    // One hit, as the API answers as of 2021 (two without as_of): the date was sent as `as_of`.
    expect(await page.getByTestId('search-summary').textContent()).toMatch(
      new RegExp(`^${then} hit\\b`),
    )
    await ui.screenshot('explorer-time-3-search-as-of')
    expect(ui.errors).toEqual([])
  })
})

/**
 * Issue 30's two scale checks. (1) A 10-node neighbourhood opens in under 500 ms in the page: it took
 * 3.3 to 5.4 s while its requests answered in tens of ms, because the renderer's first build and first
 * frame were paid on the first open (renderer-warmup.ts); the page's own performance measures show
 * where the time goes. (2) A 400-entity brain in four clusters opens collapsed to its communities,
 * labelled without overlap, and zooming in shows its entities.
 */
describe('console explorer at scale (e2e)', () => {
  const SCALE_BRAIN = 'explorer-scale-e2e'
  let app: ListeningApp
  let ui: ConsolePage & { errors: string[] }
  const names: string[] = []

  beforeAll(async () => {
    app = await listeningApp({ storage: 'memory' })
    await app.engram.brains.create(SCALE_BRAIN)
    const uuids: string[] = []
    const entity = async (name: string, label: string) => {
      const { entity: e } = await app.engram.graph.createEntity(SCALE_BRAIN, {
        name,
        labels: [label],
        description: null,
        properties: {},
        metadata: null,
        happenedAt: null,
        polarity: 'neutral',
      })
      names.push(name)
      uuids.push(e.uuid)
      return uuids.length - 1
    }
    const link = (a: number, b: number, predicate: string) =>
      app.engram.graph.createRelationship(SCALE_BRAIN, {
        subjectUuid: uuids[a]!,
        objectUuid: uuids[b]!,
        predicateName: predicate,
        predicateDescription: '',
        amount: null,
        properties: {},
        direction: 'neutral',
        happenedAt: null,
      })
    // A 10-node neighbourhood: Root, 3 neighbours, 2 more behind each.
    const root = await entity('Root Meridian', 'Project')
    for (let i = 0; i < 3; i++) {
      const mid = await entity(`Meridian Partner ${i}`, 'Organization')
      await link(root, mid, 'funds')
      for (let j = 0; j < 2; j++)
        await link(mid, await entity(`Meridian Staff ${i}.${j}`, 'Person'), 'employs')
    }
    // Four clusters of 100 entities, 3 links a node inside its cluster, 4 links between clusters.
    const labels = ['Person', 'Place', 'Topic', 'Organization']
    let seed = 7
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const clusters: number[][] = []
    for (let c = 0; c < 4; c++) {
      const members: number[] = []
      for (let i = 0; i < 100; i++)
        members.push(await entity(`Cluster ${c} member ${String(i).padStart(3, '0')}`, labels[c]!))
      for (let i = 1; i < members.length; i++) {
        await link(members[i]!, members[Math.floor(rnd() * i)]!, 'knows')
        for (let k = 0; k < 2; k++) {
          const other = members[Math.floor(rnd() * members.length)]!
          if (other !== members[i]) await link(members[i]!, other, 'works_with')
        }
      }
      clusters.push(members)
    }
    for (let c = 0; c < 4; c++)
      for (let k = 0; k < 4; k++)
        await link(clusters[c]![k]!, clusters[(c + 1) % 4]![k]!, 'mentions')
    ui = await openConsole(app.url)
    await signIn(ui, SCALE_BRAIN)
  }, 120_000)

  afterAll(async () => {
    await ui?.close()
    await app?.close()
  })

  it('opens a 10-node neighbourhood in under 500 ms in the page', async () => {
    const { page } = ui
    await page.getByTestId('tab-explorer').click()
    await rendererReady(page)
    await page.getByTestId('explorer-search').fill('Root Meridian')
    await page.getByTestId('explorer-search-submit').click()
    const status = page.getByTestId('explorer-status')
    await page.locator(`${STATUS}[data-action="2-hop"]`).waitFor({ state: 'attached' })
    expect(await settled(page, STATUS)).toBe('done')
    expect(await page.getByTestId('explorer-node-count').getAttribute('data-nodes')).toBe('10')
    const totals = [Number(await status.getAttribute('data-total-ms'))]
    for (let i = 0; i < 4; i++) {
      await page.getByTestId('explorer-result').first().click()
      expect(await settled(page, STATUS)).toBe('done')
      totals.push(Number(await status.getAttribute('data-total-ms')))
    }
    // The page's own measures of the last open (explorer-view.ts): fetch, graph, first frame.
    const measures = (await page.evaluate(`performance.getEntriesByType('measure')
      .filter((m) => m.name.startsWith('explorer 2-hop'))
      .map((m) => [m.name, Math.round(m.duration)])`)) as [string, number][]
    console.log('ALL', JSON.stringify(measures))
    expect(new Set(measures.map(([name]) => name))).toEqual(
      new Set(['explorer 2-hop fetch', 'explorer 2-hop graph', 'explorer 2-hop render']),
    )
    console.log(
      `10-node opens (ms): ${totals.join(', ')}; last: ${JSON.stringify(measures.slice(-3))}`,
    )
    expect(median(totals)).toBeLessThan(500)
    await stableLayout(page)
    expect((await labelBoxes(page)).overlaps).toBe(0)
    await ui.screenshot('explorer-7-ten-nodes')
    expect(ui.errors).toEqual([])
  }, 60_000)

  it('draws the whole brain as communities until zoomed in, labels never overlapping', async () => {
    const { page } = ui
    await page.getByTestId('explorer-load-all').click()
    await page.locator(`${STATUS}[data-action="whole brain"]`).waitFor({ state: 'attached' })
    expect(await settled(page, STATUS)).toBe('done')
    const status = page.getByTestId('explorer-status')
    expect(await page.getByTestId('explorer-node-count').getAttribute('data-nodes')).toBe(
      String(names.length),
    )
    const communities = Number(await status.getAttribute('data-communities'))
    expect(communities).toBeGreaterThanOrEqual(4)
    await stableLayout(page)
    const canvas = page.locator(CANVAS)
    expect(await canvas.getAttribute('data-collapsed')).toBe('true')
    const collapsed = await labelBoxes(page)
    expect(collapsed.count).toBeGreaterThan(0)
    expect(collapsed.count).toBeLessThanOrEqual(communities)
    expect(collapsed.overlaps).toBe(0)
    await ui.screenshot('explorer-8-brain-collapsed')

    // Zoom in on the middle of the canvas: the communities open into their entities.
    const box = (await canvas.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    for (let i = 0; i < 6 && (await canvas.getAttribute('data-collapsed')) === 'true'; i++) {
      await page.mouse.wheel(0, -300)
      await page.waitForTimeout(400)
    }
    expect(await canvas.getAttribute('data-collapsed')).toBe('false')
    const open = await labelBoxes(page)
    expect(open.count).toBeGreaterThan(0)
    expect(open.overlaps).toBe(0)
    await ui.screenshot('explorer-9-brain-zoomed')
    expect(ui.errors).toEqual([])
  }, 120_000)
})
