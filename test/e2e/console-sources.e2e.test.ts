import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createEngramClient, EngramError, type EngramClient } from '@engram/client'
import { openConsole, SCREENSHOT_DIR, type ConsolePage } from '../support/console-page.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

const BRAIN = 'sources-e2e'
const DIARY = 'diary-2024'
const NOTES = 'notes/engine.md'
/** Markup in a passage: the page must show these characters, never a bold element. */
const MARKUP = '<b>not bold</b>'

/**
 * Waits for the element `selector` names to end its load (`data-state` `done` or `error`, set by
 * sources-list.ts and source-detail.ts) and returns which. No clock of its own: every load ends in
 * one of the two, and the test's timeout bounds one that never does.
 */
async function settled(page: Page, selector: string): Promise<string | null> {
  const ended = page.locator(`${selector}:is([data-state="done"], [data-state="error"])`)
  await ended.waitFor({ state: 'attached', timeout: 0 })
  return ended.getAttribute('data-state')
}
const LIST = '[data-testid="sources-list"]'
const detailOf = (id: string) => `[data-testid="source-detail"][data-source-id="${id}"]`

/**
 * The Sources tab in headless Chromium against a real server: two sources ingested over REST are
 * listed, filtered by text and meta, opened (meta, counts, task, passages as text), and one is
 * forgotten through the confirmation step; its task's counts show, the list loses it and the API
 * answers 404. A search hit's source link opens the other; paging, and a forget emptying the last
 * page. Screenshots go to test-output/console/.
 */
describe('console sources (e2e)', () => {
  let app: ListeningApp
  let ui: ConsolePage & { errors: string[] }
  let api: EngramClient
  let diaryTask: string

  beforeAll(async () => {
    app = await listeningApp({ storage: 'memory' })
    const system = createEngramClient({ baseUrl: app.url, token: SYSTEM_TOKEN })
    await system.POST('/system/brains', { body: { brain_id: BRAIN } })
    api = system.withBrain(BRAIN)
    const diary = await api.POST('/ingest/', {
      body: {
        text: `Ada Lovelace kept a diary about the Analytical Engine and its punched cards. ${MARKUP}`,
        source_id: DIARY,
        meta_keys: { title: 'Diary 2024', project: 'apollo' },
      },
    })
    diaryTask = diary.task_id
    const notes = await api.ingestFile({
      // Sent without a title: its heading titles it (docs/forgetting.md).
      file: new Blob([
        '# Engine notes\n\nGrace Hopper programmed the Harvard Mark I in Cambridge.\n',
      ]),
      filename: 'engine-notes.md',
      sourceId: NOTES,
    })
    for (const { task_id } of [diary, notes])
      expect((await api.waitForTask(task_id)).status).toBe('completed')

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
    await ui.page.getByTestId('brain-name').waitFor()
    // Errors count from the signed-in load on (the first load's only one is /favicon.ico's 404).
    ui.errors.length = 0
  })

  afterAll(async () => {
    await ui?.close()
    await app?.close()
  })

  it('lists, filters, opens and forgets a source with a confirmation', async () => {
    const { page } = ui
    const panel = page.getByTestId('panel-sources')
    await page.getByTestId('tab-sources').click()
    expect(await settled(page, LIST)).toBe('done')
    const labels = () => panel.getByTestId('source-open').allTextContents()
    expect((await labels()).sort()).toEqual(['Diary 2024', 'Engine notes'])
    expect(await panel.getByTestId('sources-summary').textContent()).toBe('2 sources')
    await ui.screenshot('sources-1-list')

    // Text filter: a substring of the id, title or file name.
    await panel.getByTestId('sources-filter').fill('ENGINE')
    await panel.getByTestId('sources-filter-submit').click()
    expect(await settled(page, LIST)).toBe('done')
    expect(await labels()).toEqual(['Engine notes'])
    // A meta filter that is not JSON is refused in the page, shown like the server's 422.
    await panel.getByTestId('sources-filter').fill('')
    await panel.getByTestId('sources-meta').fill('{project: apollo}')
    await panel.getByTestId('sources-filter-submit').click()
    expect(await settled(page, LIST)).toBe('error')
    expect(await panel.getByTestId('sources-error-code').textContent()).toBe('VALIDATION_ERROR')
    await panel.getByTestId('sources-meta').fill('{"project": "apollo"}')
    await panel.getByTestId('sources-meta').press('Enter')
    expect(await settled(page, LIST)).toBe('done')
    expect(await labels()).toEqual(['Diary 2024'])
    expect(await panel.getByTestId('sources-error').isHidden()).toBe(true)

    // Open it from the keyboard: focus moves to the source's heading.
    await panel.locator(`[data-testid="source-open"][data-source-id="${DIARY}"]`).focus()
    await page.keyboard.press('Enter')
    expect(await settled(page, detailOf(DIARY))).toBe('done')
    const detail = panel.getByTestId('source-detail')
    expect(await detail.getByTestId('source-title').textContent()).toBe('Diary 2024')
    expect(await page.evaluate('document.activeElement.dataset.testid')).toBe('source-title')
    expect(await detail.getByTestId('source-id').textContent()).toBe(DIARY)
    expect(await detail.getByTestId('source-meta-project').textContent()).toBe('apollo')
    expect(await detail.getByTestId('source-task').allTextContents()).toEqual([diaryTask])
    const passages = Number(await detail.getByTestId('source-count-passages').textContent())
    expect(passages).toBeGreaterThan(0)
    expect(await detail.getByTestId('source-passage').count()).toBe(passages)
    // Passage text is text: the markup's characters are shown, no element is made of them.
    expect(await detail.getByTestId('source-passage-text').first().textContent()).toContain(MARKUP)
    expect(await detail.getByTestId('source-passages').locator('b').count()).toBe(0)
    expect(
      await panel
        .locator(`[data-testid="source-item"][data-source-id="${DIARY}"]`)
        .getAttribute('aria-current'),
    ).toBe('true')
    await ui.screenshot('sources-2-open')

    // The first click only asks; Escape takes the question back, and nothing was sent.
    await detail.getByTestId('source-forget').click()
    const confirmation = detail.getByTestId('source-forget-confirmation')
    await confirmation.waitFor()
    expect(await page.evaluate('document.activeElement.dataset.testid')).toBe(
      'source-forget-cancel',
    )
    expect(await confirmation.textContent()).toContain('cannot be undone')
    await ui.screenshot('sources-3-confirm')
    await page.keyboard.press('Escape')
    await confirmation.waitFor({ state: 'detached' })
    expect(await page.evaluate('document.activeElement.dataset.testid')).toBe('source-forget')
    expect((await api.sources.get(DIARY)).source.source_id).toBe(DIARY)

    // Ask again and confirm with the second, explicit click: the forget task is followed to its end.
    await detail.getByTestId('source-forget').click()
    await detail.getByTestId('source-forget-confirm').click()
    const task = panel.getByTestId('sources-tasks').getByTestId('task')
    await task.locator('[data-testid="task-status"][data-status="completed"]').waitFor()
    expect(Number(await task.getByTestId('task-result-passages').textContent())).toBe(passages)
    expect(await task.getByTestId('task-result-changelog_redacted').count()).toBe(1)
    expect(await task.getByTestId('task-result-storage_note').count()).toBe(1)
    // The list loads again without it (the meta filter still on: nothing matches now).
    await panel
      .locator(`[data-testid="source-item"][data-source-id="${DIARY}"]`)
      .waitFor({ state: 'detached' })
    expect(await settled(page, LIST)).toBe('done')
    expect(await panel.getByTestId('sources-summary').textContent()).toBe(
      'No source matches this filter.',
    )
    expect(await detail.getByTestId('source-detail-note').textContent()).toContain('Forgot')
    const gone = await api.sources.get(DIARY).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(EngramError)
    expect((gone as EngramError).status).toBe(404)
    await panel.getByTestId('sources-meta').fill('')
    await panel.getByTestId('sources-filter-submit').click()
    expect(await settled(page, LIST)).toBe('done')
    expect(await labels()).toEqual(['Engine notes'])
    await ui.screenshot('sources-4-forgotten')

    expect(ui.errors).toEqual([])
  }, 60_000)

  it('opens the source of a search hit', async () => {
    const { page } = ui
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-query').fill('Harvard Mark')
    await page.getByTestId('search-submit').click()
    const hit = page.getByTestId('search-hit').first()
    await hit.waitFor()
    const link = hit.getByTestId('hit-source')
    expect(await link.textContent()).toBe('Engine notes')
    expect(await link.getAttribute('data-source-id')).toBe(NOTES)
    // The hit shows its whole passage, read from its source and rendered: "# Engine notes" is a heading.
    const text = hit.locator('[data-testid="hit-snippet"][data-state="full"]')
    await text.waitFor()
    expect(await text.locator('h4').textContent()).toBe('Engine notes')
    expect(await text.locator('p').textContent()).toBe(
      'Grace Hopper programmed the Harvard Mark I in Cambridge.',
    )
    await ui.screenshot('sources-5-search-hit')

    await link.click()
    expect(await page.getByTestId('tab-sources').getAttribute('aria-selected')).toBe('true')
    expect(await settled(page, detailOf(NOTES))).toBe('done')
    const detail = page.getByTestId('source-detail')
    expect(await detail.getByTestId('source-title').textContent()).toBe('Engine notes')
    expect(await detail.getByTestId('source-filename').textContent()).toBe('engine-notes.md')
    expect(await detail.getByTestId('source-passage-text').first().textContent()).toContain(
      'Grace Hopper',
    )
    await ui.screenshot('sources-6-from-hit')
    // The viewport alone (1400x900), as docs/images/console-sources.png shows it.
    await page.screenshot({ path: `${SCREENSHOT_DIR}console-sources.png` })

    expect(ui.errors).toEqual([])
  }, 60_000)

  it('pages through the sources, and steps back when a forget empties the last page', async () => {
    const { page } = ui
    const accepted = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.POST('/ingest/', {
          body: { text: `Bulk note ${i} for paging.`, source_id: `bulk-${i}` },
        }),
      ),
    )
    for (const { task_id } of accepted) await api.waitForTask(task_id)
    const panel = page.getByTestId('panel-sources')
    await panel.getByTestId('sources-filter').fill('')
    await panel.getByTestId('sources-filter-submit').click()
    expect(await settled(page, LIST)).toBe('done')
    expect(await panel.getByTestId('sources-summary').textContent()).toBe('sources 1–20 of 21')
    expect(await panel.getByTestId('source-item').count()).toBe(20)
    expect(await panel.getByTestId('sources-previous').isHidden()).toBe(true)

    // Most recently updated first: the notes, ingested before the bulk, are alone on page 2.
    await panel.getByTestId('sources-next').click()
    expect(await settled(page, LIST)).toBe('done')
    expect(await panel.getByTestId('sources-summary').textContent()).toBe('sources 21 of 21')
    expect(await panel.getByTestId('source-open').allTextContents()).toEqual(['Engine notes'])
    expect(await panel.getByTestId('sources-next').isHidden()).toBe(true)
    await panel.getByTestId('source-open').click()
    expect(await settled(page, detailOf(NOTES))).toBe('done')
    await panel.getByTestId('source-forget').click()
    await panel.getByTestId('source-forget-confirm').click()
    await panel
      .getByTestId('sources-tasks')
      .locator('[data-testid="task-status"][data-status="completed"]')
      .nth(1)
      .waitFor()
    // Page 2 is empty now: the list shows page 1 instead of "0 of 20".
    await panel.getByTestId('sources-previous').waitFor({ state: 'hidden' })
    expect(await settled(page, LIST)).toBe('done')
    expect(await panel.getByTestId('sources-summary').textContent()).toBe('20 sources')
    expect(await panel.getByTestId('source-item').count()).toBe(20)
    await ui.screenshot('sources-7-paged')

    expect(ui.errors).toEqual([])
  }, 60_000)
})
