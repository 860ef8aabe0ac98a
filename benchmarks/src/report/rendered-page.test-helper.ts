import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resultsDir } from '../paths.js'

/**
 * The drift test of a generated page: `results/<page>.md` must be exactly what `render` makes of the
 * saved `results/data/<page>.json` (edit the code, not the file). Skipped only before the benchmark
 * first ran (no saved data yet); the data is committed with the page.
 */
export function describeRenderedPage<T>(page: string, render: (saved: T) => string): void {
  describe(`results/${page}.md`, () => {
    const data = join(resultsDir, 'data', `${page}.json`)
    it.skipIf(!existsSync(data))(
      'is what its saved data renders (edit the code, not the file)',
      () => {
        const saved = JSON.parse(readFileSync(data, 'utf8')) as T
        expect(readFileSync(join(resultsDir, `${page}.md`), 'utf8')).toBe(render(saved))
      },
    )
  })
}
