import type {
  ChannelList,
  ChannelPlugin,
  ChannelQuery,
  SearchContext,
} from '../../contracts/search-plugins.js'
import { requestName, type PluginRegistry } from '../../registry/plugin-registry.js'

/** A channel a caller names (`passages`, `plugin:<name>`, or a bare registered name) or passes itself. */
export type ChannelRef = string | ChannelPlugin

/** The channels of a request, each once, in request order; unknown names are a 400 naming the loaded. */
export function resolveChannels(
  registry: PluginRegistry,
  refs: readonly ChannelRef[],
): ChannelPlugin[] {
  const unique = [...new Set(refs.length > 0 ? refs : ['passages'])]
  return unique.map((ref) =>
    typeof ref === 'string' ? registry.resolveRequest('channel', ref) : ref,
  )
}

/**
 * Retrieve: runs every channel in order and collects its lists, timed as `search.retrieve`. A plugin
 * channel's lists are renamed `plugin:<name>` with signal `plugin`, so the response names them as a
 * request does and their scores land in `scores.plugin.<name>`.
 */
export async function retrieve(
  channels: readonly ChannelPlugin[],
  query: ChannelQuery,
  ctx: SearchContext,
): Promise<{ lists: ChannelList[]; listChannel: Map<ChannelList, string> }> {
  const lists: ChannelList[] = []
  const listChannel = new Map<ChannelList, string>()
  await ctx.timer.time('search.retrieve', async () => {
    for (const channel of channels) {
      const name = requestName('channel', channel.name)
      for (const list of await channel.search(query, ctx)) {
        const named = name.startsWith('plugin:')
          ? { ...list, name, signal: 'plugin' as const }
          : list
        lists.push(named)
        listChannel.set(named, name)
      }
    }
  })
  return { lists, listChannel }
}
