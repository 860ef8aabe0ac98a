import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createEngramClient, type EngramClient } from '@engram/client'
import { openConsole, SCREENSHOT_DIR, type ConsolePage } from '../support/console-page.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

const BRAIN = 'work-e2e'
/** One more than a page of `GET /tasks/` in the console (TASKS_PAGE), so "Older tasks" shows. */
const BULK = 50
const WAIT = { timeout: 30_000 }

/** Waits for the task list's read to end (`data-state` `done` or `error`) and returns which. */
async function settled(page: Page): Promise<string | null> {
  const ended = page.locator(
    '[data-testid="task-list"]:is([data-state="done"], [data-state="error"])',
  )
  await ended.waitFor({ state: 'attached', ...WAIT })
  return ended.getAttribute('data-state')
}

/**
 * Brains and work in headless Chromium against a real server: a brain created from the console with
 * the system token (its token shown once, and working), every task of the brain listed and filtered
 * and paged, the changelog grouped by write with each ingestion's task and source, and a fact a later
 * one ended shown with its window, true or not at an "As of" date. Keyboard only where a person
 * would use it. Screenshots go to test-output/console/.
 */
describe('console brains and work (e2e)', () => {
  let app: ListeningApp
  let ui: ConsolePage & { errors: string[] }
  let api: EngramClient
  let paris: string
  let berlin: string

  beforeAll(async () => {
    app = await listeningApp({ storage: 'memory' })
    ui = await openConsole(app.url)
  })

  afterAll(async () => {
    await ui?.close()
    await app?.close()
  })

  it('creates a brain with the system token and shows its token once', async () => {
    const { page } = ui
    await page.getByTestId('signin-token').fill(SYSTEM_TOKEN)
    await page.getByTestId('signin-submit').click()
    await page.getByTestId('create-brain-form').waitFor(WAIT)
    ui.errors.length = 0

    // A malformed id is refused in the page, without a call.
    await page.getByTestId('create-brain-id').fill('9 lives')
    await page.getByTestId('create-brain-submit').click()
    expect(await page.getByTestId('create-brain-error-code').textContent()).toBe('VALIDATION_ERROR')

    await page.getByTestId('create-brain-id').fill(BRAIN)
    await page.getByTestId('create-brain-id').press('Enter')
    await page.getByTestId('created-brain').waitFor(WAIT)
    expect(await page.getByTestId('create-brain-error').isHidden()).toBe(true)
    expect(await page.getByTestId('created-brain-id').textContent()).toBe(BRAIN)
    const pat = await page.getByTestId('created-brain-pat').inputValue()
    expect(pat).toMatch(/^spat_/)
    // The token works, for this brain only; the picker lists the new brain, chosen.
    const own = createEngramClient({ baseUrl: app.url, token: pat })
    expect(await own.GET('/meta/login-info')).toEqual({ brain_id: BRAIN, is_system_pat: false })
    expect(await page.getByTestId('brain-select').inputValue()).toBe(BRAIN)
    // Copy from the keyboard: the clipboard, or where the browser refuses it, how to copy by hand.
    await page.getByTestId('created-brain-copy').focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('created-brain-copied').textContent(), WAIT)
      .toMatch(/Copied|Ctrl\+C/)
    await ui.screenshot('work-1-brain-created')
    await page.screenshot({ path: `${SCREENSHOT_DIR}console-brains.png` })

    // The same id again is the server's 409, shown with its code (Chromium logs the refused call).
    await page.getByTestId('create-brain-id').fill(BRAIN)
    await page.getByTestId('create-brain-submit').click()
    await page.getByTestId('create-brain-error-code').waitFor(WAIT)
    expect(await page.getByTestId('create-brain-error-code').textContent()).toBe('BRAIN_EXISTS')
    expect(ui.errors).toEqual([expect.stringContaining('409')])
    ui.errors.length = 0

    await page.getByTestId('brain-submit').click()
    expect(await page.getByTestId('brain-name').textContent()).toBe(BRAIN)
    api = createEngramClient({ baseUrl: app.url, token: pat })
    expect(ui.errors).toEqual([])
  }, 60_000)

  it('lists every task of the brain, filtered by status and text, a page at a time', async () => {
    const { page } = ui
    const bulk = await Promise.all(
      Array.from({ length: BULK }, (_, i) =>
        api.POST('/ingest/', {
          body: { text: `Bulk note ${i}.`, source_id: `bulk-${i}`, skip_enrichment: true },
        }),
      ),
    )
    for (const { task_id } of bulk) await api.waitForTask(task_id)
    paris = (
      await api.POST('/ingest/', {
        body: { text: 'Alice lived in Paris in 2019.', source_id: 'alice-2019' },
      })
    ).task_id
    await api.waitForTask(paris)
    berlin = (
      await api.POST('/ingest/', {
        body: { text: 'Alice moved to Berlin in 2023.', source_id: 'alice-2023' },
      })
    ).task_id
    expect((await api.waitForTask(berlin)).status).toBe('completed')

    // The tabs answer the arrow keys: from Ingest to Sources and back.
    await page.getByTestId('tab-ingest').focus()
    await page.keyboard.press('ArrowRight')
    expect(await page.getByTestId('tab-sources').getAttribute('aria-selected')).toBe('true')
    await page.keyboard.press('ArrowLeft')
    expect(await page.getByTestId('tab-ingest').getAttribute('aria-selected')).toBe('true')
    expect(await settled(page)).toBe('done')

    const list = page.getByTestId('task-list')
    const rows = list.getByTestId('task-row')
    const ids = () => rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-task-id')))
    const first = await api.GET('/tasks/', { params: { query: { limit: 50 } } })
    expect(await ids()).toEqual(first.tasks.map((t) => t.task_id))
    expect((await ids())[0]).toBe(berlin)
    expect(await list.getByTestId('task-list-summary').textContent()).toMatch(
      /^50 tasks read so far/,
    )
    await list.getByTestId('task-list-more').click()
    await expect.poll(() => rows.count(), WAIT).toBe(BULK + 2)
    expect(await list.getByTestId('task-list-more').isHidden()).toBe(true)
    expect(await list.getByTestId('task-list-summary').textContent()).toBe(
      `${BULK + 2} tasks: ${BULK + 2} completed`,
    )

    // Filters: a source's text finds its task; no task failed.
    await list.getByTestId('task-filter-text').fill('alice-2019')
    expect(await ids()).toEqual([paris])
    expect(await rows.first().getByTestId('task-row-source').textContent()).toBe('alice-2019')
    await list.getByTestId('task-filter-text').fill('')
    // The status filter is the server's (GET /tasks/?status=), paged like the whole list.
    const summary = () => list.getByTestId('task-list-summary').textContent()
    await list.getByTestId('task-filter-status').selectOption('failed')
    await expect.poll(summary, WAIT).toBe('No failed tasks.')
    expect(await rows.count()).toBe(0)
    await list.getByTestId('task-filter-status').selectOption('completed')
    await expect.poll(summary, WAIT).toMatch(/^50 completed tasks read so far/)
    await list.getByTestId('task-list-more').click()
    await expect.poll(() => rows.count(), WAIT).toBe(BULK + 2)
    // A row unfolds to what the task read and wrote.
    await rows.first().getByTestId('task-row-details').locator('summary').click()
    expect(
      Number(await rows.first().getByTestId('task-row-result-relationships').textContent()),
    ).toBeGreaterThan(0)
    await ui.screenshot('work-2-tasks')
    await page.screenshot({ path: `${SCREENSHOT_DIR}console-tasks.png` })

    // A task's source opens in the Sources tab.
    await rows.first().getByTestId('task-row-source').click()
    expect(await page.getByTestId('tab-sources').getAttribute('aria-selected')).toBe('true')
    await page
      .locator('[data-testid="source-detail"][data-source-id="alice-2023"][data-state="done"]')
      .waitFor(WAIT)
    expect(ui.errors).toEqual([])
  }, 90_000)

  it('groups the changelog by write, and shows an ended fact’s window as of a date', async () => {
    const { page } = ui
    await page.getByTestId('tab-changelog').click()
    const batches = page.getByTestId('changelog-batch')
    await batches.first().waitFor(WAIT)
    // Newest first: Berlin's ingestion, then Paris's, each under its task and source.
    expect(await batches.nth(0).getAttribute('data-task-id')).toBe(berlin)
    expect(await batches.nth(1).getAttribute('data-task-id')).toBe(paris)
    expect(await batches.nth(0).getByTestId('changelog-batch-source').textContent()).toBe(
      'alice-2023',
    )
    // One card per write: Berlin's entries are all inside its batch, none loose.
    const api_ = await api.GET('/retrieve/changelogs', { params: { query: { limit: 100 } } })
    const berlinEntries = await batches.nth(0).getByTestId('changelog-entry').count()
    const markerAt = api_.changelogs.findIndex((c) => c.change.task_id === berlin)
    const parisAt = api_.changelogs.findIndex((c) => c.change.task_id === paris)
    expect(berlinEntries).toBe(parisAt - markerAt - 1)
    expect(berlinEntries).toBeGreaterThan(1)

    // Berlin ended Paris: the ended fact shows its window; it is not true now, but was in mid-2020.
    const ended = batches
      .nth(0)
      .locator('[data-testid="changelog-entry"][data-type="relationship_invalidated"]')
    expect(await ended.count()).toBeGreaterThan(0)
    const window = ended.first().getByTestId('changelog-window')
    expect(await window.textContent()).toContain('valid 2019-01-01 → 2023-01-01, superseded')
    expect(await ended.first().getByTestId('changelog-fact-state').textContent()).toBe(
      ' · now: no longer true',
    )
    expect(await ended.first().getAttribute('data-fact-state')).toBe('ended')
    await page.getByTestId('changelog-as-of').fill('2020-06-01')
    await expect
      .poll(() => ended.first().getByTestId('changelog-fact-state').textContent(), WAIT)
      .toBe(' · on 2020-06-01: true')
    await ui.screenshot('work-3-changelog')
    await page.screenshot({ path: `${SCREENSHOT_DIR}console-changelog.png` })

    // A batch folds and unfolds from the keyboard.
    const summary = batches.nth(1).getByTestId('changelog-batch-summary')
    expect(await batches.nth(1).getByTestId('changelog-entry').first().isVisible()).toBe(false)
    await summary.focus()
    await page.keyboard.press('Enter')
    await batches.nth(1).getByTestId('changelog-entry').first().waitFor(WAIT)

    // The batch's source opens in the Sources tab.
    await batches.nth(1).getByTestId('changelog-batch-source').click()
    expect(await page.getByTestId('tab-sources').getAttribute('aria-selected')).toBe('true')
    await page
      .locator('[data-testid="source-detail"][data-source-id="alice-2019"][data-state="done"]')
      .waitFor(WAIT)
    expect(ui.errors).toEqual([])
  }, 60_000)

  it('finds the ended fact in a search only as of a date inside its window, marked superseded', async () => {
    const { page } = ui
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-query').fill('Alice Paris')
    await page.getByTestId('search-channel-passages').uncheck()
    await page.getByTestId('search-channel-events').check()
    const paris = page.locator('[data-testid="search-hit"]:has-text("Alice lived Paris")')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('search-hit').first().waitFor(WAIT)
    // Now: the ended fact is left out.
    expect(await paris.count()).toBe(0)
    await page.getByTestId('search-as-of').fill('2020-06-01')
    await page.getByTestId('search-submit').click()
    await paris.first().waitFor(WAIT)
    expect(await page.getByTestId('search-summary').textContent()).toContain('as of 2020-06-01')
    expect(await paris.first().getByTestId('hit-superseded').textContent()).toMatch(
      /^superseded true on 2020-06-01; a later fact ended it/,
    )
    await ui.screenshot('work-4-search-as-of')
    expect(ui.errors).toEqual([])
  }, 60_000)
})
