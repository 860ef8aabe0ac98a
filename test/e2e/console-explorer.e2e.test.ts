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
    await ui.page.evaluate(
      ([token, brain]) => {
        // Runs in the page (the test's tsconfig has no DOM types).
        const storage = (
          globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
        ).sessionStorage
        storage.setItem('engram.console.token', token)
        storage.setItem('engram.console.brain', brain)
      },
      [SYSTEM_TOKEN, BRAIN] as const,
    )
    await ui.page.reload()
    // Errors count from the signed-in load on: the first load's only one is Chromium's request for
    // /favicon.ico, which the server answers 404.
    ui.errors.length = 0
  })

  afterAll(async () => {
    await ui?.close()
    await app?.close()
  })

  const nodeCount = async () =>
    Number(await ui.page.getByTestId('explorer-node-count').getAttribute('data-nodes'))

  it('searches, opens the 2-hop neighbourhood, expands, and shows entity detail', async () => {
    const { page } = ui
    await page.getByTestId('tab-explorer').click()
    await page.getByTestId('explorer-search').fill('lovelace')
    await page.getByTestId('explorer-search-submit').click()
    expect(await settled(page, RESULTS)).toBe('done')
    const result = page.getByTestId('explorer-result')
    expect(await result.count()).toBe(1)
    expect(await result.first().textContent()).toContain('Ada Lovelace')
    await ui.screenshot('explorer-1-search')

    // The click starts the load at once (`data-state` loading), so the next `done` is this load's.
    await result.first().click()
    const status = page.getByTestId('explorer-status')
    expect(await settled(page, STATUS)).toBe('done')
    expect(await status.getAttribute('data-action')).toBe('2-hop')
    // Ada, Babbage, London (1 hop); Analytical Engine, Royal Society (2 hops). Not Harvard Mark I.
    expect(await nodeCount()).toBe(5)
    expect(Number(await page.getByTestId('explorer-node-count').getAttribute('data-edges'))).toBe(4)
    expect(await page.getByTestId('explorer-legend-item').count()).toBe(4)
    expect(await page.locator('[data-testid="explorer-canvas"] canvas').count()).toBeGreaterThan(0)

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
