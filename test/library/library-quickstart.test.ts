import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runProcess } from '../support/run-process.js'
import { expectQuickstartWorked } from './quickstart-output.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(ROOT, 'examples', 'library-quickstart.mjs')
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx')

/** The first ```js block of the README's "Use it as a library" section. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const section = readme.split(/^## /m).find((s) => s.startsWith('Use it as a library\n'))
  const block = /```js\n([\s\S]*?)```/.exec(section ?? '')
  if (block === null) throw new Error('README.md has no ```js block under "Use it as a library"')
  return block[1]!
}

describe('the library quickstart (README "Use it as a library")', () => {
  it('is the same code in README.md and examples/library-quickstart.mjs', async () => {
    expect(await readmeExample()).toBe(await readFile(EXAMPLE, 'utf8'))
  })

  // The example as written, with its defaults (use-lite embedder, local extractor, SQLite under
  // ./engram-data of the working directory). Its first run loads the embedding model, hence the
  // bound; the test waits for the process to exit, not for a guessed time.
  it(
    'runs as written in an empty directory and exits by itself',
    { timeout: 180_000 },
    async () => {
      const cwd = await mkdtemp(join(tmpdir(), 'engram-quickstart-'))
      try {
        const run = await runProcess(TSX, ['--conditions=source', EXAMPLE], { cwd })
        expectQuickstartWorked(run, cwd)
      } finally {
        await rm(cwd, { recursive: true, force: true })
      }
    },
  )
})
