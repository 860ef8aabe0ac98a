import type {
  ChannelPlugin,
  FusionPlugin,
  SearchPlugin,
  StagePlugin,
} from '../contracts/search-plugins.js'
import { unknownPluginError } from '../errors.js'
import { PluginRegistryError } from './plugin-registry-error.js'

type ByKind = { channel: ChannelPlugin; fusion: FusionPlugin; stage: StagePlugin }
export type PluginKind = keyof ByKind

/**
 * Names a request uses without the `plugin:` prefix (CONTRACT.md section 7): the built-in channels and
 * fusions. Every other plugin, and every stage (`rerank=plugin:dense`), is `plugin:<name>`.
 */
export const BUILTIN_NAMES: Readonly<Record<PluginKind, readonly string[]>> = {
  channel: ['passages', 'entities', 'events', 'communities'],
  fusion: ['rrf', 'cc', 'none'],
  stage: [],
}

/** How a request refers to each kind in error messages. */
const KIND_WORD: Record<PluginKind, string> = {
  channel: 'search channel',
  fusion: 'fusion',
  stage: 'rerank',
}

/** Plugin names: lower-case, safe inside a csv `channels` value and after `plugin:`. */
const NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/

const METHOD: Record<PluginKind, 'search' | 'fuse' | 'run'> = {
  channel: 'search',
  fusion: 'fuse',
  stage: 'run',
}

/**
 * Holds channel, fusion and stage plugins by kind and name (DESIGN.md section 1, `src/registry/`).
 * A plugin that is not well formed, or whose kind and name are taken, is refused when registered;
 * after `freeze()` (at server start) nothing can be added, so a request never sees a half-registered
 * plugin. Requests resolve names with {@link resolveRequest}: an unknown one is a 400
 * `VALIDATION_ERROR` naming the loaded alternatives as a request would write them.
 */
export class PluginRegistry {
  private readonly plugins = new Map<string, SearchPlugin>()
  private frozen = false

  register(plugin: SearchPlugin): this {
    validate(plugin)
    if (this.frozen)
      throw new PluginRegistryError(
        'REGISTRY_FROZEN',
        `Plugin registry is frozen; register '${plugin.name}' before start.`,
      )
    const key = `${plugin.kind}:${plugin.name}`
    if (this.plugins.has(key))
      throw new PluginRegistryError(
        'PLUGIN_CONFLICT',
        `A ${plugin.kind} plugin named '${plugin.name}' is already registered; rename one of them.`,
      )
    this.plugins.set(key, plugin)
    return this
  }

  freeze(): this {
    this.frozen = true
    return this
  }

  get isFrozen(): boolean {
    return this.frozen
  }

  /** Registered names of the loaded plugins of a kind, sorted. */
  names<K extends PluginKind>(kind: K): string[] {
    return [...this.plugins.values()]
      .filter((p) => p.kind === kind)
      .map((p) => p.name)
      .sort()
  }

  /**
   * The loaded plugins of a kind in the order they were registered: the engine registers the
   * built-ins first (`builtinPlugins()`), then the configured ones (`ENGRAM_PLUGINS` order).
   */
  loaded<K extends PluginKind>(kind: K): ByKind[K][] {
    return [...this.plugins.values()].filter((p): p is ByKind[K] => p.kind === kind)
  }

  /** Names of the loaded plugins of a kind as a request writes them (`rrf`, `plugin:combmnz`), sorted. */
  requestNames(kind: PluginKind): string[] {
    return this.names(kind)
      .map((n) => requestName(kind, n))
      .sort()
  }

  /** The plugin registered under `name`, or a 400 VALIDATION_ERROR naming the loaded ones. */
  resolve<K extends PluginKind>(kind: K, name: string): ByKind[K] {
    const plugin = this.plugins.get(`${kind}:${name}`)
    if (plugin === undefined)
      throw unknownPluginError(KIND_WORD[kind], name, this.requestNames(kind))
    return plugin as ByKind[K]
  }

  /**
   * The plugin a request names: a built-in by its bare name (`rrf`), any other as `plugin:<name>` (a
   * bare plugin name is accepted too, as the original did for channels). `plugin:<built-in>` and
   * unknown names are a 400 VALIDATION_ERROR naming the loaded ones.
   */
  resolveRequest<K extends PluginKind>(kind: K, raw: string): ByKind[K] {
    const prefixed = raw.startsWith('plugin:')
    const name = prefixed ? raw.slice('plugin:'.length) : raw
    const builtin = BUILTIN_NAMES[kind].includes(name)
    const plugin = this.plugins.get(`${kind}:${name}`)
    if (plugin === undefined || (prefixed && builtin) || (kind === 'stage' && !prefixed))
      throw unknownPluginError(KIND_WORD[kind], raw, this.requestNames(kind))
    return plugin as ByKind[K]
  }
}

/** How a request names a plugin of a kind. */
export function requestName(kind: PluginKind, name: string): string {
  return BUILTIN_NAMES[kind].includes(name) ? name : `plugin:${name}`
}

function validate(plugin: SearchPlugin): void {
  const p = plugin as unknown as Record<string, unknown> | null
  const fail = (why: string): never => {
    throw new PluginRegistryError('PLUGIN_INVALID', `Not a search plugin: ${why}.`)
  }
  if (typeof p !== 'object' || p === null) fail(`got ${p === null ? 'null' : typeof p}`)
  const kind = p!.kind
  if (kind !== 'channel' && kind !== 'fusion' && kind !== 'stage')
    fail(`kind must be 'channel', 'fusion' or 'stage' (got ${JSON.stringify(kind)})`)
  const k = kind as PluginKind
  if (typeof p!.name !== 'string' || !NAME.test(p!.name))
    fail(
      `the ${k} name must match ${NAME} (lower-case letters, digits, '_', '.', '-'; got ${JSON.stringify(p!.name)})`,
    )
  if (typeof p![METHOD[k]] !== 'function')
    fail(`the ${k} plugin '${String(p!.name)}' has no ${METHOD[k]}() method`)
  if (k === 'channel' && p!.yields !== 'passages' && p!.yields !== 'entities')
    fail(`the channel '${String(p!.name)}' must declare yields: 'passages' or 'entities'`)
}
