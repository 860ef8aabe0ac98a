import type { PluginModuleExport } from '@engram/core'
import { combMnz } from './comb-mnz.js'
import { phraseChannel } from './phrase-channel.js'

export { phraseChannel, longestRun, type PhraseChannelOptions } from './phrase-channel.js'
export { combMnz, fuseByCombMnz } from './comb-mnz.js'

/**
 * What the server loads for `ENGRAM_PLUGINS=@engram/example-channel`: factories, each called with no
 * arguments, so `plugin:phrase` and `plugin:combmnz` run with their defaults. To change an option,
 * write a module of your own whose default export is `() => phraseChannel({ minWords: 3 })`.
 */
const plugins: PluginModuleExport = [phraseChannel, combMnz]
export default plugins
