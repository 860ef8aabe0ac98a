import { describe, expect, it } from 'vitest'
import { ConfigError } from './config.js'
import { importOptionalPackage } from './optional-package.js'

describe('optional plugin packages', () => {
  it('names the package to install when a configured plugin is missing', async () => {
    const name = '@engram/not-installed-plugin'
    const load = importOptionalPackage(() => import(name), name, 'EMBEDDER=example')
    await expect(load).rejects.toThrow(ConfigError)
    await expect(load).rejects.toThrow(
      'EMBEDDER=example needs the optional package @engram/not-installed-plugin, which is not installed. Install it beside @engram/server: npm install @engram/not-installed-plugin',
    )
  })

  it('passes a failure inside an installed package through unchanged', async () => {
    const broken = new Error('the plugin itself failed')
    await expect(
      importOptionalPackage(() => Promise.reject(broken), '@engram/x', 'X=y'),
    ).rejects.toBe(broken)
  })

  it('loads an installed package', async () => {
    const { llmExtractor } = await importOptionalPackage(
      () => import('@engram/extractor-llm'),
      '@engram/extractor-llm',
      'EXTRACTOR=llm',
    )
    expect(typeof llmExtractor).toBe('function')
  })
})
