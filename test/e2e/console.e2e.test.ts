import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngramClient } from '@engram/client'
import { openConsole, SCREENSHOT_DIR, type ConsolePage } from '../support/console-page.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

const BRAIN = 'console-e2e'
/** Generous: the main pass shares two cores between forks, and ingestion runs the local extractor. */
const WAIT = { timeout: 30_000 }

const NOTES = `# Analytical Engine notes

Ada Lovelace worked with Charles Babbage in London on the Analytical Engine.
Charles Babbage designed the Difference Engine before the Analytical Engine.
Ada Lovelace wrote the first published algorithm for the Analytical Engine in 1843.
`

/**
 * The console in a real browser against a real server: sign in with the system token, pick a brain,
 * ingest a file through the page and watch its task end, search and read the per-signal scores and the
 * stage timings, then read the changelog. The explorer's own steps are in their own file.
 */
describe('console (headless Chromium)', () => {
  let server: ListeningApp
  let console_: ConsolePage & { errors: string[] }
  let brainToken: string

  beforeAll(async () => {
    server = await listeningApp({ storage: 'memory' })
    const system = createEngramClient({ baseUrl: server.url, token: SYSTEM_TOKEN })
    brainToken = (await system.POST('/system/brains', { body: { brain_id: BRAIN } })).pat
    console_ = await openConsole(server.url)
  })

  afterAll(async () => {
    await console_?.close()
    await server?.close()
  })

  it('signs in, ingests a file, searches with per-signal scores and timings, shows the changelog', async () => {
    const { page, screenshot } = console_

    // A wrong token shows the envelope's code, not a blank page.
    await page.getByTestId('signin-token').fill('spat_not-a-real-token-000')
    await page.getByTestId('signin-submit').click()
    await page.getByTestId('error-code').waitFor(WAIT)
    expect(await page.getByTestId('error-code').textContent()).toBe('AUTH_INVALID')
    expect(await page.getByTestId('error').textContent()).toContain('ServicePAT')
    await screenshot('01-signin-error')
    // Chromium logs the refused call itself; that one line is expected, nothing else.
    expect(console_.errors).toEqual([expect.stringContaining('401')])
    console_.errors.length = 0

    await page.getByTestId('signin-token').fill(SYSTEM_TOKEN)
    await page.getByTestId('signin-submit').click()
    await page.getByTestId('brain-select').waitFor(WAIT)
    await page.getByTestId('brain-select').selectOption(BRAIN)
    await screenshot('02-brain-picker')
    await page.getByTestId('brain-submit').click()
    expect(await page.getByTestId('brain-name').textContent()).toBe(BRAIN)
    // The token is in sessionStorage only, never in the URL.
    expect(page.url()).not.toContain(SYSTEM_TOKEN)

    await page
      .getByTestId('ingest-text')
      .fill('Grace Hopper worked on the Harvard Mark I in Cambridge.')
    await page.getByTestId('ingest-text-submit').click()
    await page.locator('[data-testid="task-status"][data-status="completed"]').waitFor(WAIT)

    await page.getByTestId('ingest-file').setInputFiles({
      name: 'engine-notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(NOTES),
    })
    await page.getByTestId('ingest-file-submit').click()
    // Both tasks completed; the newest (the file's) comes first.
    await page.locator('[data-testid="task-status"][data-status="completed"]').nth(1).waitFor(WAIT)
    expect(await page.getByTestId('task').count()).toBe(2)
    expect(await page.getByTestId('task').first().locator('strong').first().textContent()).toBe(
      'engine-notes.md',
    )
    const taskId = await page.getByTestId('task-id').first().textContent()
    const api = createEngramClient({ baseUrl: server.url, token: SYSTEM_TOKEN, brain: BRAIN })
    const task = await api.GET('/tasks/{task_id}', { params: { path: { task_id: taskId! } } })
    expect(task.status).toBe('completed')
    expect(
      Number(await page.getByTestId('task-result-passages').first().textContent()),
    ).toBeGreaterThan(0)
    await screenshot('03-ingest-completed')

    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-query').fill('Analytical Engine Lovelace')
    // An unknown channel is the server's 400, shown with its code.
    await page.getByTestId('search-extra-channels').fill('plugin:nope')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('search-error-code').waitFor(WAIT)
    expect(await page.getByTestId('search-error-code').textContent()).toBe('VALIDATION_ERROR')
    expect(console_.errors).toEqual([expect.stringContaining('400')])
    console_.errors.length = 0
    await page.getByTestId('search-extra-channels').fill('')
    await page.getByTestId('search-channel-entities').check()
    await page.getByTestId('search-fusion').selectOption('rrf')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('search-hit').first().waitFor(WAIT)
    expect(await page.getByTestId('search-error').isHidden()).toBe(true)
    const firstHit = page.getByTestId('search-hit').first()
    expect(await firstHit.getByTestId('hit-snippet').textContent()).toMatch(/Analytical Engine/)
    // Per-signal scores: BM25 and the RRF fusion of this search, as the API returned them.
    const expected = await api.POST('/retrieve/search', {
      body: {
        query: 'Analytical Engine Lovelace',
        channels: ['passages', 'entities'],
        fusion: 'rrf',
      },
    })
    const top = expected.hits[0]!
    expect(await firstHit.getAttribute('data-id')).toBe(top.id)
    expect(await firstHit.getByTestId('hit-signal-rrf').textContent()).toBe(
      top.scores.rrf!.toFixed(4),
    )
    const signals = await firstHit.getByTestId('hit-scores').locator('dt').allTextContents()
    expect(signals).toEqual(expect.arrayContaining(['rrf']))
    expect(signals.length).toBeGreaterThanOrEqual(2)
    // Stage timings: one labelled segment per stage, widths adding up to the bar.
    const segments = page.getByTestId('stage-timing')
    expect(await segments.count()).toBeGreaterThan(0)
    expect(await segments.first().textContent()).toMatch(/ms/)
    const widths = await segments.evaluateAll((els) =>
      els.map((el) => el.getBoundingClientRect().width),
    )
    const bar = await page.locator('.timings-bar').evaluate((el) => el.clientWidth)
    expect(widths.reduce((a, b) => a + b, 0)).toBeGreaterThan(bar * 0.9)
    await screenshot('04-search')
    // The viewport alone (1400x900), as docs/images/console-search.png shows it.
    await page.screenshot({ path: `${SCREENSHOT_DIR}console-search.png` })

    // An entity hit opens the explorer tab.
    await page.getByTestId('hit-open-entity').first().click()
    expect(await page.getByTestId('tab-explorer').getAttribute('aria-selected')).toBe('true')
    // (Attributes, not visibility: the explorer's element may be empty until the explorer lands.)
    expect(await page.getByTestId('panel-explorer').getAttribute('hidden')).toBeNull()
    expect(await page.getByTestId('panel-search').getAttribute('hidden')).not.toBeNull()

    await page.getByTestId('tab-changelog').click()
    await page.getByTestId('changelog-entry').first().waitFor(WAIT)
    const times = await page
      .getByTestId('changelog-entry')
      .locator('time')
      .evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute('datetime')!)))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const types = await page.getByTestId('changelog-type').locator('option').allTextContents()
    expect(types).toContain('node_created')
    await page.getByTestId('changelog-type').selectOption('node_created')
    await page
      .locator('[data-testid="changelog-entry"]:not([data-type="node_created"])')
      .first()
      .waitFor({ state: 'detached', ...WAIT })
    expect(await page.getByTestId('changelog-node').count()).toBeGreaterThan(0)
    await screenshot('05-changelog')
    await page.getByTestId('changelog-node').first().click()
    expect(await page.getByTestId('tab-explorer').getAttribute('aria-selected')).toBe('true')

    // Sign out forgets the token.
    await page.getByTestId('sign-out').click()
    await page.getByTestId('signin-token').waitFor(WAIT)
    expect(await page.evaluate('sessionStorage.length')).toBe(0)

    // A brain token opens its own brain, with no picker and no brain switch; a reload keeps it.
    await page.getByTestId('signin-token').fill(brainToken)
    await page.getByTestId('signin-submit').click()
    await page.getByTestId('brain-name').waitFor(WAIT)
    expect(await page.getByTestId('brain-name').textContent()).toBe(BRAIN)
    expect(await page.getByTestId('change-brain').count()).toBe(0)
    await page.reload()
    await page.getByTestId('brain-name').waitFor(WAIT)
    expect(await page.getByTestId('brain-name').textContent()).toBe(BRAIN)
    expect(page.url()).not.toContain(brainToken)
    await page.getByTestId('sign-out').click()
    await page.getByTestId('signin-token').waitFor(WAIT)

    expect(console_.errors).toEqual([])
  }, 90_000)
})
