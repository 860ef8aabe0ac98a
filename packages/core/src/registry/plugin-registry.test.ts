import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ChannelPlugin, FusionPlugin, StagePlugin } from '../contracts/search-plugins.js'
import { EngramError } from '../errors.js'
import { loadPluginModules, pluginsOf } from './load-plugin-modules.js'
import { PluginRegistryError } from './plugin-registry-error.js'
import { PluginRegistry } from './plugin-registry.js'

const channel = (name: string): ChannelPlugin => ({
  kind: 'channel',
  name,
  yields: 'passages',
  search: async () => [],
})
const fusion = (name: string): FusionPlugin => ({ kind: 'fusion', name, fuse: () => [] })
const stage = (name: string): StagePlugin => ({ kind: 'stage', name, run: async () => new Map() })

function registry() {
  return new PluginRegistry()
    .register(channel('passages'))
    .register(channel('recency'))
    .register(fusion('rrf'))
    .register(fusion('combmnz'))
    .register(stage('dense'))
    .freeze()
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    return (error as { code?: string }).code
  }
  return undefined
}

function validationError(fn: () => unknown): EngramError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(EngramError)
    return error as EngramError
  }
  throw new Error('expected a validation error')
}

describe('plugin registry', () => {
  it('refuses a duplicate kind and name, and anything once frozen', () => {
    const r = new PluginRegistry().register(channel('x')).register(fusion('x'))
    expect(codeOf(() => r.register(channel('x')))).toBe('PLUGIN_CONFLICT')
    r.freeze()
    expect(r.isFrozen).toBe(true)
    expect(codeOf(() => r.register(channel('y')))).toBe('REGISTRY_FROZEN')
    expect(r.names('channel')).toEqual(['x'])
  })

  it('refuses objects that are not plugins, naming what is wrong', () => {
    const r = new PluginRegistry()
    for (const bad of [
      null,
      { kind: 'ranker', name: 'x' },
      { kind: 'channel', name: 'Has Space', yields: 'passages', search: () => [] },
      { kind: 'channel', name: 'x', search: () => [] },
      { kind: 'fusion', name: 'x' },
      { kind: 'stage', name: 'x', run: 'no' },
    ]) {
      const error = (() => {
        try {
          r.register(bad as never)
        } catch (e) {
          return e
        }
      })()
      expect(error, JSON.stringify(bad)).toBeInstanceOf(PluginRegistryError)
      expect((error as PluginRegistryError).code).toBe('PLUGIN_INVALID')
    }
  })

  it('resolves request names: built-ins bare, everything else as plugin:<name>', () => {
    const r = registry()
    expect(r.resolveRequest('channel', 'passages').name).toBe('passages')
    expect(r.resolveRequest('channel', 'plugin:recency').name).toBe('recency')
    expect(r.resolveRequest('channel', 'recency').name).toBe('recency')
    expect(r.resolveRequest('fusion', 'plugin:combmnz').name).toBe('combmnz')
    expect(r.resolveRequest('stage', 'plugin:dense').name).toBe('dense')
    expect(r.requestNames('fusion')).toEqual(['plugin:combmnz', 'rrf'])
    expect(r.requestNames('stage')).toEqual(['plugin:dense'])
  })

  it('lists the loaded plugins of a kind in registration order, not sorted', () => {
    const r = new PluginRegistry()
      .register(channel('zeta'))
      .register(fusion('rrf'))
      .register(channel('alpha'))
      .register(stage('dense'))
    expect(r.loaded('channel').map((p) => p.name)).toEqual(['zeta', 'alpha'])
    expect(r.loaded('fusion').map((p) => p.name)).toEqual(['rrf'])
    expect(r.loaded('stage').map((p) => [p.kind, p.name])).toEqual([['stage', 'dense']])
    expect(r.names('channel')).toEqual(['alpha', 'zeta'])
  })

  it('answers an unknown name with a 400 VALIDATION_ERROR naming the loaded ones', () => {
    const r = registry()
    const fusionMiss = validationError(() => r.resolveRequest('fusion', 'linear'))
    expect(fusionMiss.status).toBe(400)
    expect(fusionMiss.code).toBe('VALIDATION_ERROR')
    expect(fusionMiss.message).toBe("Unknown fusion 'linear'. Loaded: plugin:combmnz, rrf.")
    expect(fusionMiss.resolution).toBe('Use one of: plugin:combmnz, rrf.')
    expect(validationError(() => r.resolveRequest('channel', 'plugin:passages')).status).toBe(400)
    expect(validationError(() => r.resolveRequest('stage', 'dense')).message).toContain(
      'plugin:dense',
    )
    expect(validationError(() => r.resolveRequest('channel', 'plugin:nope')).message).toBe(
      "Unknown search channel 'plugin:nope'. Loaded: passages, plugin:recency.",
    )
    expect(validationError(() => new PluginRegistry().resolve('stage', 'x')).message).toContain(
      '(none loaded)',
    )
  })
})

describe('plugin modules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-plugins-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('takes a plugin, a factory or an array of either from the default export', () => {
    expect(pluginsOf({ default: channel('a') }, 'm').map((p) => p.name)).toEqual(['a'])
    expect(pluginsOf({ default: () => [channel('a'), fusion('b')] }, 'm')).toHaveLength(2)
    expect(
      pluginsOf({ default: [() => channel('a'), fusion('b')] }, 'm').map((p) => p.name),
    ).toEqual(['a', 'b'])
    expect(codeOf(() => pluginsOf({ named: 1 }, 'm'))).toBe('PLUGIN_LOAD_FAILED')
    const throwing = () => {
      throw new Error('boom')
    }
    expect(codeOf(() => pluginsOf({ default: throwing }, 'm'))).toBe('PLUGIN_LOAD_FAILED')
  })

  it('imports paths relative to cwd and package names as they are', async () => {
    writeFileSync(
      join(dir, 'tiny.mjs'),
      "export default () => ({ kind: 'fusion', name: 'first', fuse: (lists) => lists[0]?.items ?? [] })\n",
    )
    const plugins = await loadPluginModules(['./tiny.mjs'], { cwd: dir })
    expect(plugins.map((p) => `${p.kind}:${p.name}`)).toEqual(['fusion:first'])
    const seen: string[] = []
    await loadPluginModules(['some-plugin-package'], {
      importModule: async (s) => {
        seen.push(s)
        return { default: channel('pkg') }
      },
    })
    expect(seen).toEqual(['some-plugin-package'])
    await expect(loadPluginModules(['./missing.mjs'], { cwd: dir })).rejects.toMatchObject({
      code: 'PLUGIN_LOAD_FAILED',
    })
  })
})
