/** Why the registry refused a plugin. These happen at start-up, never in answer to a request. */
export type PluginRegistryErrorCode =
  /** Not a channel, fusion or stage plugin object (wrong `kind`, bad `name`, missing method). */
  | 'PLUGIN_INVALID'
  /** A plugin of the same kind and name is already registered. */
  | 'PLUGIN_CONFLICT'
  /** `register` after `freeze()`: plugins are registered before the server starts. */
  | 'REGISTRY_FROZEN'
  /** A plugin module named in configuration could not be imported or exports no plugin. */
  | 'PLUGIN_LOAD_FAILED'

/** A start-up error of the plugin registry; match on `code`, never on the message. */
export class PluginRegistryError extends Error {
  override name = 'PluginRegistryError'
  constructor(
    readonly code: PluginRegistryErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
