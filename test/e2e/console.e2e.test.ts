import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngramClient } from '@engram/client'
import { loadPluginModules, type StagePlugin } from '@engram/core'
import { openConsole, SCREENSHOT_DIR, type ConsolePage } from '../support/console-page.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

const BRAIN = 'console-e2e'
/** A third-party rerank stage (it reverses the head), registered like one from ENGRAM_PLUGINS. */
const flip: StagePlugin = {
  kind: 'stage',
  name: 'flip',
  reads: 'candidates',
  run: async (_query, hits) => new Map(hits.map((hit, i) => [hit.id, i + 1])),
}
/** Generous: the main pass shares two cores between forks, and ingestion runs the local extractor. */
const WAIT = { timeout: 30_000 }

const NOTES = `# Analytical Engine notes

**Ada Lovelace** worked with Charles Babbage in London on the Analytical Engine.
Charles Babbage designed the Difference Engine before the Analytical Engine.
Ada Lovelace wrote the first published algorithm for the Analytical Engine in 1843.

- a [plan](https://example.org/engine) of the engine
- a [trap](javascript:alert(1)) and <b>raw markup</b>
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
    // The example package as ENGRAM_PLUGINS loads it: plugin:phrase (a channel), plugin:combmnz (a fusion).
    const example = await loadPluginModules(['@engram/example-channel'])
    server = await listeningApp({ storage: 'memory', plugins: [...example, flip] })
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

    // The panels use the window: at 1,400 px, content no longer stops at ~1,150 px.
    const panelWidth = await page.locator('main.panels').evaluate((el) => el.clientWidth)
    expect(panelWidth).toBeGreaterThan(1350)

    await page
      .getByTestId('ingest-text')
      .fill('Grace Hopper worked on the Harvard Mark I in Cambridge.')
    await page.getByTestId('ingest-text-submit').click()
    await page.locator('[data-testid="task-status"][data-status="completed"]').waitFor(WAIT)
    // Sent: the text box is empty again, ready for the next text.
    expect(await page.getByTestId('ingest-text').inputValue()).toBe('')

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
    // Every task of the brain, not only those of this tab, with its status and source.
    const rows = page.getByTestId('task-list').getByTestId('task-row')
    await rows.nth(1).waitFor(WAIT)
    const listed = await api.GET('/tasks/', { params: { query: { limit: 50 } } })
    expect(
      await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-task-id'))),
    ).toEqual(listed.tasks.map((t) => t.task_id))
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
    // The rerank picker lists what GET /meta/search-plugins lists, the third-party stage included.
    await page.locator('[data-testid="search-rerank"][data-source="server"]').waitFor(WAIT)
    const reranks = await page
      .getByTestId('search-rerank')
      .locator('option')
      .evaluateAll((els) => els.map((el) => el.getAttribute('value')))
    const { stages } = await api.GET('/meta/search-plugins')
    expect(stages.map((s) => s.name)).toEqual([
      'plugin:dense',
      'plugin:coverage',
      'plugin:hops',
      'plugin:flip',
    ])
    expect(reranks).toEqual(['auto', 'none', ...stages.map((s) => s.name)])
    // So do the channel toggles and the fusion select: built-ins first, then the example's plugins.
    const { channels, fusions } = await api.GET('/meta/search-plugins')
    expect(channels.map((c) => c.name)).toEqual([
      'passages',
      'entities',
      'events',
      'communities',
      'plugin:phrase',
    ])
    expect(fusions.map((f) => f.name)).toEqual(['rrf', 'cc', 'none', 'plugin:combmnz'])
    await page.locator('[data-testid="search-channels"][data-source="server"]').waitFor(WAIT)
    await page.locator('[data-testid="search-fusion"][data-source="server"]').waitFor(WAIT)
    const toggles = page.getByTestId('search-channels').locator('input[type="checkbox"]')
    expect(await toggles.evaluateAll((els) => els.map((el) => el.getAttribute('value')))).toEqual(
      channels.map((c) => c.name),
    )
    // The choices made before the list arrived are kept; the plugin's toggle starts off.
    expect(
      await toggles.evaluateAll((els) =>
        els
          .filter((el) => (el as unknown as { checked: boolean }).checked)
          .map((el) => el.getAttribute('value')),
      ),
    ).toEqual(['passages', 'entities'])
    expect(
      await page
        .getByTestId('search-fusion')
        .locator('option')
        .evaluateAll((els) => els.map((el) => el.getAttribute('value'))),
    ).toEqual(['', ...fusions.map((f) => f.name)])
    expect(await page.getByTestId('search-fusion').inputValue()).toBe('rrf')
    expect(await page.getByTestId('search-plugins-note').isHidden()).toBe(true)
    // None here, so rrf is the last word.
    await page.getByTestId('search-rerank').selectOption('none')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('search-hit').first().waitFor(WAIT)
    expect(await page.getByTestId('search-error').isHidden()).toBe(true)
    const firstHit = page.getByTestId('search-hit').first()
    expect(await firstHit.getByTestId('hit-snippet').textContent()).toMatch(/Analytical Engine/)

    // Every passage hit names its source with a link; the file's passage is rendered from Markdown.
    const passageHits = page.locator(
      '[data-testid="search-hit"]:has([data-testid="hit-channel"]:text-is("passages"))',
    )
    expect(await passageHits.count()).toBeGreaterThan(0)
    expect(await passageHits.getByTestId('hit-source').count()).toBe(await passageHits.count())
    const fileHit = passageHits.filter({
      // Sent without a title, the file is titled by its heading.
      has: page.locator('[data-testid="hit-source"]:text-is("Analytical Engine notes")'),
    })
    const rendered = fileHit.locator('[data-testid="hit-snippet"][data-state="full"]')
    await rendered.waitFor(WAIT)
    expect(await rendered.locator('h4').textContent()).toBe('Analytical Engine notes')
    expect(await rendered.locator('strong').first().textContent()).toBe('Ada Lovelace')
    expect(await rendered.locator('li').count()).toBe(2)
    // Links: http(s) only; the javascript: one is text, and markup in the text stays characters.
    expect(
      await rendered.locator('a').evaluateAll((els) => els.map((el) => el.getAttribute('href'))),
    ).toEqual(['https://example.org/engine'])
    expect(await rendered.locator('b').count()).toBe(0)
    expect(await rendered.textContent()).toContain('<b>raw markup</b>')
    expect(await rendered.textContent()).not.toContain('# Analytical')

    // Why this hit: under rrf each list adds 1/(60 + rank), and the panel adds up to the shown score.
    const why = firstHit.getByTestId('hit-why')
    await why.locator('summary').click()
    const contributions = await why
      .getByTestId('why-contribution')
      .allTextContents()
      .then((texts) => texts.map(Number))
    const ranks = await why.getByTestId('why-list').locator('td:first-of-type').allTextContents()
    expect(contributions).toEqual(
      ranks.map((r) => Number((1 / (60 + Number(r.slice(1)))).toFixed(4))),
    )
    expect(await why.getAttribute('data-adds-up')).toBe('true')
    expect(
      await page
        .getByTestId('hit-why')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-adds-up'))),
    ).toEqual(expect.arrayContaining(['true']))
    expect(await page.locator('[data-testid="hit-why"][data-adds-up="false"]').count()).toBe(0)
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
    // Stage timings: one row per stage, its label whole (never cut), each bar its own colour, a legend.
    const segments = page.getByTestId('stage-timing')
    const stageCount = await segments.count()
    expect(stageCount).toBeGreaterThan(2)
    expect(await segments.first().textContent()).toMatch(/ms/)
    const cut = await page
      .getByTestId('stage-timing-label')
      .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).length)
    expect(cut).toBe(0)
    const colours = await page.locator('.timing-bar').evaluateAll((els) =>
      els.map(
        (el) =>
          // Runs in the page (the test's tsconfig has no DOM types).
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(el).backgroundColor,
      ),
    )
    expect(new Set(colours).size).toBe(stageCount)
    expect(await page.getByTestId('stage-legend').locator('li').count()).toBe(stageCount)
    await screenshot('04-search')
    // The viewport alone (1400x900), as docs/images/console-search.png shows it.
    await page.screenshot({ path: `${SCREENSHOT_DIR}console-search.png` })

    // A rerank picked from the list runs (search.rerank), and "why" ends at its score.
    await page.getByTestId('search-fusion').selectOption('cc')
    await page.getByTestId('search-rerank').selectOption('plugin:coverage')
    await page.getByTestId('search-submit').click()
    await page.locator('[data-testid="stage-timing"][data-stage="search.rerank"]').waitFor(WAIT)
    const reranked = page.getByTestId('search-hit').first()
    const rerankStep = reranked.locator('[data-testid="why-stage"][data-stage="rerank"]')
    expect(await rerankStep.getByTestId('why-stage-value').textContent()).toBe(
      `→ ${await reranked.getByTestId('hit-signal-rerank').textContent()}`,
    )
    expect(await reranked.getByTestId('hit-score').textContent()).toBe(
      await reranked.getByTestId('hit-signal-rerank').textContent(),
    )
    expect(await reranked.getByTestId('hit-why').getAttribute('data-adds-up')).toBe('true')
    await screenshot('04b-search-rerank')

    // The plugin channel, switched on from the keyboard (Tab from the last built-in, then Space), runs
    // with the plugin fusion: its score shows on the hits the API ranks first for the same request.
    await page.getByTestId('search-channel-communities').focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate('document.activeElement.dataset.testid')).toBe(
      'search-channel-plugin:phrase',
    )
    await page.keyboard.press('Space')
    expect(await page.getByTestId('search-channel-plugin:phrase').isChecked()).toBe(true)
    await page.getByTestId('search-fusion').selectOption('plugin:combmnz')
    expect(await page.getByTestId('search-fusion-alpha').isHidden()).toBe(true)
    await page.getByTestId('search-rerank').selectOption('none')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('hit-signal-plugin:phrase').first().waitFor(WAIT)
    expect(await page.getByTestId('search-error').isHidden()).toBe(true)
    const withPlugin = await api.POST('/retrieve/search', {
      body: {
        query: 'Analytical Engine Lovelace',
        channels: ['passages', 'entities', 'plugin:phrase'],
        fusion: 'plugin:combmnz',
        rerank: 'none',
      },
    })
    expect(withPlugin.channel_lists).toHaveProperty(['plugin:phrase'])
    expect(
      await page
        .getByTestId('search-hit')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))),
    ).toEqual(withPlugin.hits.map((hit) => hit.id))
    const phraseHit = withPlugin.hits.find((hit) => hit.scores.plugin?.phrase !== undefined)!
    expect(
      await page
        .locator(`[data-testid="search-hit"][data-id="${phraseHit.id}"]`)
        .getByTestId('hit-signal-plugin:phrase')
        .textContent(),
    ).toBe(phraseHit.scores.plugin!.phrase!.toFixed(4))
    await screenshot('04c-search-plugin-channel')

    // An entity hit opens the explorer tab.
    await page.getByTestId('hit-open-entity').first().click()
    expect(await page.getByTestId('tab-explorer').getAttribute('aria-selected')).toBe('true')
    // (Attributes, not visibility: the explorer's element may be empty until the explorer lands.)
    expect(await page.getByTestId('panel-explorer').getAttribute('hidden')).toBeNull()
    expect(await page.getByTestId('panel-search').getAttribute('hidden')).not.toBeNull()

    await page.getByTestId('tab-changelog').click()
    await page.getByTestId('changelog-entry').first().waitFor(WAIT)
    // One card per write, newest first: each ingestion's entries under its task and source.
    const batches = page.getByTestId('changelog-batch')
    const times = await batches
      .locator('.batch-head > time')
      .evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute('datetime')!)))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const tasks = await api.GET('/tasks/', { params: { query: { limit: 50 } } })
    expect(
      await batches.evaluateAll((els) => els.map((el) => el.getAttribute('data-task-id'))),
    ).toEqual(tasks.tasks.map((t) => t.task_id))
    expect(await batches.first().getByTestId('changelog-batch-source').textContent()).toBe(
      'Analytical Engine notes',
    )
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

    // A server without the plugin list (older than GET /meta/search-plugins): the built-in lists stay,
    // a quiet note says so, and a built-in search still runs.
    await page.route('**/meta/search-plugins', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 'NOT_FOUND', message: 'Not found', resolution: 'Check the path.' },
        }),
      }),
    )
    await page.reload()
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-plugins-note').waitFor(WAIT)
    expect(await page.getByTestId('search-plugins-note').textContent()).toMatch(/More channels/)
    expect(
      await page
        .getByTestId('search-channels')
        .locator('input[type="checkbox"]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('value'))),
    ).toEqual(['passages', 'entities', 'events', 'communities'])
    expect(await page.getByTestId('search-channels').getAttribute('data-source')).toBe('builtin')
    expect(
      await page
        .getByTestId('search-fusion')
        .locator('option')
        .evaluateAll((els) => els.map((el) => el.getAttribute('value'))),
    ).toEqual(['', 'rrf', 'cc', 'none'])
    expect(await page.getByTestId('search-rerank').getAttribute('data-source')).toBe('builtin')
    await page.getByTestId('search-query').fill('Analytical Engine Lovelace')
    await page.getByTestId('search-submit').click()
    await page.getByTestId('search-hit').first().waitFor(WAIT)
    await screenshot('04d-search-without-plugin-list')
    // Chromium logs the refused call itself; that one line is expected, nothing else.
    expect(console_.errors).toEqual([expect.stringContaining('404')])
    console_.errors.length = 0
    await page.unroute('**/meta/search-plugins')

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
