import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '@engram/console/testing'

/** Screenshots of the console's end-to-end runs: looked at, never committed (see .gitignore). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-output/console/', import.meta.url))

export interface ConsolePage {
  browser: Browser
  page: Page
  /** Saves a full-page PNG as `test-output/console/<name>.png`. */
  screenshot(name: string): Promise<void>
  close(): Promise<void>
}

/**
 * A headless Chromium page on the console of a listening server (`url` without `/console`). Errors the
 * page throws or logs fail the run: they are collected in `errors` and checked by the caller.
 */
export async function openConsole(url: string): Promise<ConsolePage & { errors: string[] }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(`${url}/console/`)
  return {
    browser,
    page,
    errors,
    screenshot: async (name) => {
      await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true })
    },
    close: () => browser.close(),
  }
}
