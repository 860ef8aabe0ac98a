import type { SearchPlugins } from '@engram/client'

/** A channel a search may name, as `GET /meta/search-plugins` lists it. */
export type ChannelChoice = SearchPlugins['channels'][number]

/** A fusion a search may name, as `GET /meta/search-plugins` lists it. */
export type FusionChoice = SearchPlugins['fusions'][number]

/**
 * The channels every server registers (CONTRACT.md section 7): the toggles shown until, or unless,
 * `GET /meta/search-plugins` answers.
 */
export const BUILTIN_CHANNELS: readonly ChannelChoice[] = [
  { name: 'passages', builtin: true, yields: 'passages' },
  { name: 'entities', builtin: true, yields: 'entities' },
  { name: 'events', builtin: true, yields: 'entities' },
  { name: 'communities', builtin: true, yields: 'entities' },
]

/** The fusions every server registers, offered until, or unless, the list answers. */
export const BUILTIN_FUSIONS: readonly FusionChoice[] = [
  { name: 'rrf', builtin: true },
  { name: 'cc', builtin: true },
  { name: 'none', builtin: true },
]

/** The channel ticked on a fresh form: the server's own default channel list. */
export const DEFAULT_CHANNELS: readonly string[] = ['passages']

/**
 * The channels and fusions to offer from a server's list: built-ins first, then plugins, each group
 * in the server's (registration) order. The server already lists them so; the console does not rely
 * on it, so a third-party toggle never lands among the built-ins.
 */
export function searchChoices(listed: Pick<SearchPlugins, 'channels' | 'fusions'>): {
  channels: ChannelChoice[]
  fusions: FusionChoice[]
} {
  return { channels: builtinsFirst(listed.channels), fusions: builtinsFirst(listed.fusions) }
}

function builtinsFirst<T extends { builtin: boolean }>(entries: readonly T[]): T[] {
  return [...entries.filter((e) => e.builtin), ...entries.filter((e) => !e.builtin)]
}
