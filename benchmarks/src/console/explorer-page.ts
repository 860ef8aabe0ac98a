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
  return { page, errors }
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
  await page.waitForSelector(`[data-testid="explorer-status"][data-action="${action}"]`, {
    timeout: 180_000,
  })
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
