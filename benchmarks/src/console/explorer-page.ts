import type { Browser, Page } from 'playwright-core'

/** Timings the explorer writes on `explorer-status` after a load (`data-*-ms`), and what it drew. */
export interface ExplorerLoad {
  totalMs: number
  fetchMs: number
  layoutMs: number
  renderMs: number
  requests: number
  nodes: number
  edges: number
  /** From the benchmark's click to the page reporting the load (includes Playwright's polling). */
  wallMs: number
}

/**
 * The console's explorer tab, signed in as the shell does it: the session (token, brain) in
 * sessionStorage under `engram.console.token` / `engram.console.brain`, then the `tab-explorer` tab.
 */
export async function openExplorer(browser: Browser, url: string, token: string, brain: string) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${url}/console/`)
  await switchBrain(page, token, brain)
  return { page, errors }
}

/** Signs the page into another brain (as the shell does after a reload) and opens the explorer. */
export async function switchBrain(page: Page, token: string, brain: string): Promise<void> {
  await page.evaluate(
    ([t, b]) => {
      const storage = (
        globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
      ).sessionStorage
      storage.setItem('engram.console.token', t)
      storage.setItem('engram.console.brain', b)
    },
    [token, brain] as const,
  )
  await page.reload()
  await page.getByTestId('tab-explorer').click()
  // The renderer is built at sign-in (renderer-warmup.ts): the user reads the page meanwhile.
  await page
    .locator('[data-testid="explorer-canvas"][data-ready="true"]')
    .waitFor({ timeout: 120_000 })
}

/** The ForceAtlas2 run after a load: from its start to its stable frame on screen (explorer-view.ts). */
export interface ExplorerLayout {
  stableMs: number
  iterations: number
  converged: boolean
  nodes: number
}

/** Waits for the last load's layout to reach its stable frame and reads its attributes. */
export async function stableLayout(page: Page): Promise<ExplorerLayout> {
  await page.waitForSelector('[data-testid="explorer-status"][data-layout="stable"]', {
    state: 'attached',
    timeout: 300_000,
  })
  const status = page.getByTestId('explorer-status')
  return {
    stableMs: Number(await status.getAttribute('data-stable-ms')),
    iterations: Number(await status.getAttribute('data-iterations')),
    converged: (await status.getAttribute('data-converged')) === 'true',
    nodes: Number(await page.getByTestId('explorer-node-count').getAttribute('data-nodes')),
  }
}

/** Clicks `trigger` and waits for the explorer to report the load named `action`. */
export async function timedLoad(
  page: Page,
  trigger: () => Promise<void>,
  action: string,
): Promise<ExplorerLoad> {
  const status = page.getByTestId('explorer-status')
  const started = performance.now()
  await trigger()
  await page.waitForSelector(
    `[data-testid="explorer-status"][data-action="${action}"]:is([data-state="done"], [data-state="error"])`,
    { state: 'attached', timeout: 180_000 },
  )
  const wallMs = performance.now() - started
  const num = async (name: string) => Number(await status.getAttribute(`data-${name}`))
  const count = page.getByTestId('explorer-node-count')
  return {
    totalMs: await num('total-ms'),
    fetchMs: await num('fetch-ms'),
    layoutMs: await num('layout-ms'),
    renderMs: await num('render-ms'),
    requests: await num('requests'),
    nodes: Number(await count.getAttribute('data-nodes')),
    edges: Number(await count.getAttribute('data-edges')),
    wallMs,
  }
}

/** Frame intervals (ms) seen by requestAnimationFrame while `drive` pans and zooms the canvas. */
export async function frameTimes(page: Page, drive: () => Promise<void>): Promise<number[]> {
  // A string, not a function: tsx compiles functions with esbuild's keepNames, whose `__name`
  // helper does not exist in the page.
  await page.evaluate(`(() => {
    window.__frames = []
    window.__recording = true
    let last = -1
    function tick(t) {
      if (last >= 0) window.__frames.push(t - last)
      last = t
      if (window.__recording) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })()`)
  await drive()
  return page.evaluate<number[]>(`(() => {
    window.__recording = false
    return window.__frames
  })()`)
}

/** Drags across the canvas and zooms in and out with the wheel (real input events). */
export async function panAndZoom(page: Page): Promise<void> {
  const box = (await page.getByTestId('explorer-canvas').boundingBox())!
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  await page.mouse.move(cx, cy)
  await page.mouse.down()
  for (let i = 0; i <= 30; i++) await page.mouse.move(cx + i * 8, cy + i * 4)
  for (let i = 30; i >= 0; i--) await page.mouse.move(cx + i * 8, cy + i * 4)
  await page.mouse.up()
  for (let i = 0; i < 8; i++) {
    await page.mouse.wheel(0, -200)
    await page.waitForTimeout(60)
  }
  for (let i = 0; i < 8; i++) {
    await page.mouse.wheel(0, 200)
    await page.waitForTimeout(60)
  }
  await page.waitForTimeout(300)
}
