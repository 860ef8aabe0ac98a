import {
  loadPluginModules,
  PluginRegistry,
  PluginRegistryError,
  type LoadPluginModulesOptions,
  type SearchPlugin,
} from '@engram/core'
import { ConfigError, type ServerConfig } from './config.js'

/**
 * The search plugins named by `ENGRAM_PLUGINS`, imported and checked before the server starts: a
 * module that cannot be imported, exports no plugin, or holds a malformed or duplicate plugin stops
 * the start with a configuration error naming it. Clashes with built-in names are reported when the
 * search service registers them.
 */
export async function pluginsFromConfig(
  config: Pick<ServerConfig, 'plugins'>,
  options: LoadPluginModulesOptions = {},
): Promise<SearchPlugin[]> {
  try {
    const plugins = await loadPluginModules(config.plugins, options)
    const check = new PluginRegistry()
    for (const plugin of plugins) check.register(plugin)
    return plugins
  } catch (error) {
    if (error instanceof PluginRegistryError)
      throw new ConfigError(`ENGRAM_PLUGINS: ${error.message}`, { cause: error })
    throw error
  }
}
