import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'
import { extractorFromConfig } from './extractor-from-config.js'

const extractor = (env: Record<string, string>) => extractorFromConfig(loadConfig(env))

describe('extractor from configuration', () => {
  it('runs the built-in local extractor on worker threads by default, in-thread with 0 workers', async () => {
    const pooled = await extractor({})
    expect(pooled).toMatchObject({ kind: 'extractor', name: 'local' })
    await pooled?.close?.()
    expect(await extractor({ EXTRACTOR_WORKERS: '0' })).toBeUndefined()
  })

  it('builds the llm extractor from EXTRACTOR_URL, EXTRACTOR_MODEL and EXTRACTOR_API_KEY', async () => {
    const llm = await extractor({
      EXTRACTOR: 'llm',
      EXTRACTOR_URL: 'http://127.0.0.1:11434/v1',
      EXTRACTOR_MODEL: 'llama3.1',
      EXTRACTOR_API_KEY: 'sk-not-shown-anywhere',
    })
    expect(llm).toMatchObject({ kind: 'extractor', name: 'llm' })
    expect(JSON.stringify(llm)).not.toContain('sk-not-shown-anywhere')
  })

  it('refuses to start with EXTRACTOR=llm and no URL, no model or a bad URL', async () => {
    for (const [env, name] of [
      [{ EXTRACTOR_MODEL: 'llama3.1' }, 'EXTRACTOR_URL'],
      [{ EXTRACTOR_URL: 'http://127.0.0.1:11434/v1' }, 'EXTRACTOR_MODEL'],
      [{ EXTRACTOR_URL: '127.0.0.1:11434', EXTRACTOR_MODEL: 'llama3.1' }, 'EXTRACTOR_URL'],
    ] as const) {
      const run = extractor({ EXTRACTOR: 'llm', ...env })
      await expect(run, name).rejects.toThrow(ConfigError)
      await expect(run, name).rejects.toThrow(name)
    }
  })
})
