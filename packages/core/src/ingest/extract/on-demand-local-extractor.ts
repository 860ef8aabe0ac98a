import type { Extractor } from '../../contracts/extractor.js'
import type { LocalExtractorOptions } from './local-extractor.js'

/**
 * The local extractor (`localExtractor`), loading its NLP libraries on first use. compromise,
 * chrono-node and wink-nlp with its model take about 1 s and 80 MB to load: a process that extracts on
 * worker threads (the server's default) or not at all (an API process, the CLI) never loads them, and
 * importing `@engram/core` stays cheap.
 */
export function onDemandLocalExtractor(options: LocalExtractorOptions = {}): Extractor {
  let loaded: Promise<Extractor> | null = null
  return {
    kind: 'extractor',
    name: 'local',
    async extract(input, ctx) {
      loaded ??= import('./local-extractor.js').then((m) => m.localExtractor(options))
      return (await loaded).extract(input, ctx)
    },
  }
}
