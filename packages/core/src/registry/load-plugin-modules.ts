import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SearchPlugin } from '../contracts/search-plugins.js'
import { PluginRegistryError } from './plugin-registry-error.js'

/** A plugin factory: called with no arguments, so every option needs a default. */
export type PluginFactory = () => SearchPlugin | readonly SearchPlugin[]

/** What a plugin module's default export may be. */
export type PluginModuleExport =
  SearchPlugin | PluginFactory | readonly (SearchPlugin | PluginFactory)[]

export interface LoadPluginModulesOptions {
  /** Directory that relative paths are resolved against (default `process.cwd()`). */
  cwd?: string
  /** Imports a resolved specifier (default: dynamic `import()`); tests replace it. */
  importModule?: (specifier: string) => Promise<unknown>
}

/**
 * Imports plugin modules by specifier, as the server does for `ENGRAM_PLUGINS`, and returns their
 * plugins in order. A specifier starting with `.`, `/` or `file:` is a path (relative to `cwd`); any
 * other is a package name, resolved like an import from `@engram/core` (so install the plugin package
 * beside the server). The module's default export is a plugin, a factory (called with no arguments)
 * returning one or several plugins, or an array of either. Plugins are checked when registered.
 */
export async function loadPluginModules(
  specifiers: readonly string[],
  options: LoadPluginModulesOptions = {},
): Promise<SearchPlugin[]> {
  const cwd = options.cwd ?? process.cwd()
  const importModule = options.importModule ?? ((specifier: string) => import(specifier))
  const plugins: SearchPlugin[] = []
  for (const specifier of specifiers) {
    const target = isPath(specifier) ? toFileUrl(specifier, cwd) : specifier
    let loaded: unknown
    try {
      loaded = await importModule(target)
    } catch (error) {
      throw new PluginRegistryError(
        'PLUGIN_LOAD_FAILED',
        `Cannot import plugin module '${specifier}': ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      )
    }
    plugins.push(...pluginsOf(loaded, specifier))
  }
  return plugins
}

/** The plugins of an imported module (its default export, see {@link loadPluginModules}). */
export function pluginsOf(loaded: unknown, specifier: string): SearchPlugin[] {
  const exported = (loaded as { default?: unknown } | null)?.default
  if (exported === undefined || exported === null)
    throw new PluginRegistryError(
      'PLUGIN_LOAD_FAILED',
      `Plugin module '${specifier}' has no default export; export a plugin, a factory or an array of them.`,
    )
  const out: SearchPlugin[] = []
  for (const item of Array.isArray(exported) ? exported : [exported]) {
    let made: unknown
    try {
      made = typeof item === 'function' ? (item as PluginFactory)() : item
    } catch (error) {
      throw new PluginRegistryError(
        'PLUGIN_LOAD_FAILED',
        `A plugin factory of '${specifier}' threw: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      )
    }
    for (const plugin of Array.isArray(made) ? made : [made]) out.push(plugin as SearchPlugin)
  }
  return out
}

function isPath(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('file:') || isAbsolute(specifier)
}

function toFileUrl(specifier: string, cwd: string): string {
  return specifier.startsWith('file:') ? specifier : pathToFileURL(resolve(cwd, specifier)).href
}
