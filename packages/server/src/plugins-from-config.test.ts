import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'
import { pluginsFromConfig } from './plugins-from-config.js'

const fusion = (name: string) => ({ kind: 'fusion', name, fuse: () => [] })

describe('ENGRAM_PLUGINS', () => {
  it('is a comma-separated list of module specifiers, empty by default', () => {
    expect(loadConfig({}).plugins).toEqual([])
    expect(loadConfig({ ENGRAM_PLUGINS: ' @engram/example-channel , ./mine.js,' }).plugins).toEqual(
      ['@engram/example-channel', './mine.js'],
    )
  })

  it('loads the example plugin package by name', async () => {
    const plugins = await pluginsFromConfig({ plugins: ['@engram/example-channel'] })
    expect(plugins.map((p) => `${p.kind}:${p.name}`)).toEqual(['channel:phrase', 'fusion:combmnz'])
  })

  it('turns a missing module, a malformed plugin or a duplicate into a configuration error', async () => {
    const modules: Record<string, unknown> = {
      dup: { default: [fusion('x'), fusion('x')] },
      bad: { default: { kind: 'fusion', name: 'Bad Name', fuse: () => [] } },
    }
    const importModule = async (s: string) => {
      if (s in modules) return modules[s]
      throw new Error(`Cannot find package '${s}'`)
    }
    for (const name of ['dup', 'bad', 'missing']) {
      const error = await pluginsFromConfig({ plugins: [name] }, { importModule }).catch(
        (e: unknown) => e,
      )
      expect(error, name).toBeInstanceOf(ConfigError)
      expect((error as Error).message, name).toMatch(/^ENGRAM_PLUGINS: /)
    }
  })
})
