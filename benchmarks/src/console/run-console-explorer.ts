import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { createEngine, hashToken, memoryAdapter } from '@engram/core'
import { buildApp } from '@engram/server'
import { launchChromium } from '@engram/console/testing'
import {
  EXPLORER_BENCH_SHAPE,
  explorerBenchGraph,
  loadExplorerBenchGraph,
} from './explorer-bench-graph.js'
import {
  frameTimes,
  openExplorer,
  panAndZoom,
  timedLoad,
  type ExplorerLoad,
} from './explorer-page.js'
import { consoleExplorerReport } from './console-explorer-report.js'

const TOKEN = 'spat_console-explorer-bench-token-0001'
const BRAIN = 'explorer-bench'
/** Target of issue 15: a 2,000-node 2-hop neighbourhood drawn in under 2 s. */
export const TWO_HOP_TARGET_MS = 2000

export interface ConsoleExplorerResult {
  date: string
  machine: string
  chromium: string
  webgl: string
  setupMs: number
  twoHop: ExplorerLoad[]
  wholeBrain: ExplorerLoad[]
  frames: number[][]
  loadBefore: number[]
  loadAfter: number[]
}

/**
 * `npm run bench -- --console-explorer`: a memory-backed server with the seeded 10,000-entity /
 * 30,000-relationship brain (written through the engine: setup, not measured), the console in headless
 * Chromium, then (1) the hub's 2-hop neighbourhood opened `runs` times from the search result (one
 * warm-up run first, not counted), (2) the whole brain drawn `wholeRuns` times, (3) frame intervals
 * while panning and zooming the 10,000-node view. Writes `results/console-explorer.md`.
 */
export async function runConsoleExplorer(
  resultsDir: string,
  log: (line: string) => void,
  { runs = 7, wholeRuns = 3 } = {},
): Promise<ConsoleExplorerResult> {
  const loadBefore = loadavg()
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 'bench',
    systemTokenHash: hashToken(TOKEN),
  })
  await engram.start()
  const app = await buildApp({ engram })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const browser = await launchChromium()
  try {
    await engram.brains.create(BRAIN)
    const graph = explorerBenchGraph()
    const setupStarted = performance.now()
    await loadExplorerBenchGraph(engram, BRAIN, graph)
    const setupMs = performance.now() - setupStarted
    log(
      `brain: ${graph.entities.length} entities, ${graph.relationships.length} relationships (setup ${Math.round(setupMs)} ms)`,
    )

    const { page, errors } = await openExplorer(browser, url, TOKEN, BRAIN)
    const webgl = await page.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: { createElement(t: string): { getContext(k: string): unknown } }
        }
      ).document
      const gl = doc.createElement('canvas').getContext('webgl2') as {
        getParameter(p: number): string
        getExtension(n: string): { UNMASKED_RENDERER_WEBGL: number } | null
      } | null
      if (gl === null) return 'no WebGL2'
      const info = gl.getExtension('WEBGL_debug_renderer_info')
      return info === null ? 'WebGL2' : gl.getParameter(info.UNMASKED_RENDERER_WEBGL)
    })
    const hubName = graph.entities[graph.hub]!.name
    await page.getByTestId('explorer-search').fill(hubName)
    await page.getByTestId('explorer-search-submit').click()
    const result = page.getByTestId('explorer-result').filter({ hasText: hubName })
    await result.waitFor()
    const twoHop: ExplorerLoad[] = []
    for (let i = 0; i <= runs; i++) {
      const load = await timedLoad(page, () => result.click(), '2-hop')
      log(
        `2-hop run ${i}${i === 0 ? ' (warm-up)' : ''}: ${load.nodes} nodes, ${load.totalMs} ms (fetch ${load.fetchMs}, layout ${load.layoutMs}, render ${load.renderMs}), ${load.requests} requests`,
      )
      if (i > 0) twoHop.push(load)
    }
    const wholeBrain: ExplorerLoad[] = []
    const frames: number[][] = []
    for (let i = 0; i < wholeRuns; i++) {
      const load = await timedLoad(
        page,
        () => page.getByTestId('explorer-load-all').click(),
        'whole brain',
      )
      log(
        `whole brain run ${i + 1}: ${load.nodes} nodes, ${load.edges} edges, ${load.totalMs} ms (fetch ${load.fetchMs}, layout ${load.layoutMs}, render ${load.renderMs})`,
      )
      wholeBrain.push(load)
      const f = await frameTimes(page, () => panAndZoom(page))
      frames.push(f)
      log(`  pan/zoom: ${f.length} frames`)
    }
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`)
    const out: ConsoleExplorerResult = {
      date: new Date().toISOString(),
      machine: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      chromium: browser.version(),
      webgl,
      setupMs,
      twoHop,
      wholeBrain,
      frames,
      loadBefore,
      loadAfter: loadavg(),
    }
    const file = join(resultsDir, 'console-explorer.md')
    writeFileSync(file, consoleExplorerReport(out, EXPLORER_BENCH_SHAPE, TWO_HOP_TARGET_MS))
    log(`wrote ${file}`)
    return out
  } finally {
    await browser.close()
    await app.close()
    await engram.stop({ graceMs: 100 })
  }
}
