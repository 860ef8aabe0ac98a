import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'
import { embedderFromConfig } from './embedder-from-config.js'

describe('embedder configuration', () => {
  it('defaults to use-lite with min(2, cores) workers and no remote downloads', () => {
    const config = loadConfig({})
    expect(config.embedder).toBe('use-lite')
    expect(config.embedderOptions).toMatchObject({ allowRemote: false, apiKey: undefined })
    expect(config.embedderOptions.workers).toBeGreaterThanOrEqual(1)
    expect(config.embedderOptions.workers).toBeLessThanOrEqual(2)
  })

  it('refuses incomplete or invalid settings, naming the variable', () => {
    for (const [env, name] of [
      [{ EMBEDDER: 'openai' }, 'EMBEDDER_URL'],
      [{ EMBEDDER: 'openai', EMBEDDER_URL: 'localhost:11434' }, 'EMBEDDER_URL'],
      [{ EMBEDDER: 'openai', EMBEDDER_URL: 'http://localhost:11434' }, 'EMBEDDER_MODEL'],
      [{ EMBEDDER: 'transformers' }, 'EMBEDDER_MODEL'],
      [{ EMBEDDER_DIMENSION: '0' }, 'EMBEDDER_DIMENSION'],
      [{ EMBEDDER_WORKERS: 'many' }, 'EMBEDDER_WORKERS'],
      [{ EMBEDDER_PRECISION: 'int4' }, 'EMBEDDER_PRECISION'],
      [{ EMBEDDER_ALLOW_REMOTE: 'yes' }, 'EMBEDDER_ALLOW_REMOTE'],
    ] as const) {
      expect(() => loadConfig(env), name).toThrow(ConfigError)
      expect(() => loadConfig(env), name).toThrow(name)
    }
  })

  it('builds the configured embedder, or none', async () => {
    expect(await embedderFromConfig(loadConfig({ EMBEDDER: 'none' }))).toBeNull()

    const useLite = await embedderFromConfig(loadConfig({ EMBEDDER_WORKERS: '1' }))
    expect(useLite).toMatchObject({ name: 'use-lite', dimension: 512, precision: 'int8' })
    await useLite?.close?.()
    const fp32 = await embedderFromConfig(loadConfig({ EMBEDDER_PRECISION: 'fp32' }))
    expect(fp32).toMatchObject({ name: 'use-lite', precision: 'fp32' })
    await fp32?.close?.()

    const openai = await embedderFromConfig(
      loadConfig({
        EMBEDDER: 'openai',
        EMBEDDER_URL: 'http://127.0.0.1:1/v1',
        EMBEDDER_MODEL: 'nomic-embed-text',
        EMBEDDER_DIMENSION: '768',
        EMBEDDER_API_KEY: 'sk-secret',
      }),
    )
    expect(openai).toMatchObject({ name: 'openai:nomic-embed-text', dimension: 768 })
  })

  it('turns an embedder that cannot be built into a ConfigError with its resolution', async () => {
    const config = loadConfig({
      EMBEDDER: 'openai',
      EMBEDDER_URL: 'http://127.0.0.1:1',
      EMBEDDER_MODEL: 'nomic-embed-text',
    })
    await expect(embedderFromConfig(config)).rejects.toThrow(ConfigError)
    await expect(embedderFromConfig(config)).rejects.toThrow(/EMBEDDER_DIMENSION/)
  })
})
